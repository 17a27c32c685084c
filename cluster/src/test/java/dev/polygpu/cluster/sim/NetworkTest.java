package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NetworkTest {
    /** Racks of 4: 5 µs and 1 GB/s within, 20 µs and 0.25 GB/s between, 300 ns per message. */
    private static final Network RACKS = new Network(5_000, 1e9, 4, 20_000, 0.25e9, 300);

    @Test
    void racksAreRunsOfConsecutiveMembers() {
        assertTrue(RACKS.sameRack(0, 3));
        assertTrue(RACKS.sameRack(4, 7));
        assertTrue(RACKS.sameRack(9, 9));
        assertFalse(RACKS.sameRack(3, 4));
        assertFalse(RACKS.sameRack(0, 8));
        assertTrue(Network.flat(1, 1e9, 0).sameRack(0, 1_000_000));
    }

    @Test
    void wireTimeIsBytesOverTheLinksBandwidthRoundedUp() {
        assertEquals(1_000, RACKS.wireNanos(0, 1, 1_000), "1,000 B at 1 GB/s");
        assertEquals(4_000, RACKS.wireNanos(0, 5, 1_000), "1,000 B at 0.25 GB/s");
        assertEquals(4_000, RACKS.wireNanos(5, 0, 1_000), "the same both ways");
        assertEquals(1, Network.flat(0, 3e9, 0).wireNanos(0, 1, 1), "a third of a nanosecond is one");
        assertEquals(0, RACKS.wireNanos(0, 1, 0));
    }

    @Test
    void latencyIncludesTheCostOfEachMessage() {
        assertEquals(5_300, RACKS.latencyNanos(1, 2));
        assertEquals(20_300, RACKS.latencyNanos(2, 6));
        assertEquals(7_000, Network.flat(7_000, 1e9, 0).latencyNanos(0, 9));
    }

    @Test
    void fieldsOutOfRangeAreRejectedByName() {
        assertThrows(IllegalArgumentException.class, () -> new Network(-1, 1e9, 4, 0, 1e9, 0));
        assertThrows(IllegalArgumentException.class, () -> new Network(0, 1e9, 4, 0, 1e9, -1));
        assertThrows(IllegalArgumentException.class, () -> new Network(0, 0, 4, 0, 1e9, 0));
        assertThrows(IllegalArgumentException.class, () -> new Network(0, 1e9, 4, 0, Double.NaN, 0));
        assertThrows(IllegalArgumentException.class, () -> new Network(0, Double.POSITIVE_INFINITY, 4, 0, 1e9, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Network(0, 1e9, 0, 0, 1e9, 0));
        assertTrue(e.getMessage().contains("rackSize"), e.getMessage());
    }

    @Test
    void describesRacksOnlyWhenThereAreSome() {
        assertEquals("5.00 us + 954 MB/s within racks of 4, 20.0 us + 238 MB/s between, 300 ns per message",
                RACKS.toString());
        assertEquals("10.0 us + 1.00 KB/s", Network.flat(10_000, 1024, 0).toString());
    }
}
