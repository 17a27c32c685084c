package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The configuration's validation and the window it chooses for a device. */
class SchedulerConfigTest {

    @Test
    void theDefaultWindowIsTwiceTheDevicesParallelismWithinFourToThirtyTwo() {
        SchedulerConfig c = SchedulerConfig.DEFAULT;
        assertEquals(4, c.windowFor(1));
        assertEquals(4, c.windowFor(2));
        assertEquals(16, c.windowFor(8));
        assertEquals(32, c.windowFor(132));
        assertEquals(7, c.withInFlightWindow(7).windowFor(132), "an explicit window is kept");
    }

    @Test
    void invalidValuesAreRejectedNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchedulerConfig.DEFAULT.withInFlightWindow(-1));
        assertTrue(e.getMessage().contains("inFlightWindow"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SchedulerConfig.DEFAULT.withMaxQueued(0));
        assertThrows(IllegalArgumentException.class, () -> SchedulerConfig.DEFAULT.withMaxStreams(0));
        assertThrows(IllegalArgumentException.class, () -> SchedulerConfig.DEFAULT.withExecution(null));
        e = assertThrows(IllegalArgumentException.class, () -> SchedulerConfig.DEFAULT.withStolenOverflow(-1));
        assertTrue(e.getMessage().contains("stolenOverflow"), e.getMessage());
        assertEquals(0, SchedulerConfig.DEFAULT.stolenOverflow(), "the overflow is off by default");
        assertEquals(2, SchedulerConfig.DEFAULT.withStolenOverflow(2).withMaxStreams(8).stolenOverflow(),
                "kept by the other withers");
    }
}
