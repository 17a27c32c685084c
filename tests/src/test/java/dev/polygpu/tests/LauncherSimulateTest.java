package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code polygpu simulate} through the launcher's entry point, in-process. */
class LauncherSimulateTest {
    @Test
    void simulateRunsASmallSweep() {
        Guests.Run r = Guests.launch("simulate", "--workload=gemm", "--tiles=6", "--members=2", "--quiet");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("\n| members | tasks | stealing | makespan | lower bound | efficiency |"),
                r::toString);
        assertTrue(r.out().contains("\n| 2 | 216 | yes | "), "one row: 2 members, 6³ tasks; " + r);
        assertEquals("", r.err(), r::toString);
    }

    @Test
    void simulateRejectsAnUnknownOption() {
        Guests.Run r = Guests.launch("simulate", "--bogus");
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu simulate: unknown option --bogus\n"), r::toString);
        assertFalse(r.err().contains("\tat "), r::toString);
        assertEquals("", r.out(), r::toString);
    }
}
