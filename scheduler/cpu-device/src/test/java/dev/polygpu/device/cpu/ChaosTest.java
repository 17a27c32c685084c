package dev.polygpu.device.cpu;

import static dev.polygpu.device.cpu.DeviceConformanceTest.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The chaos-mode settings: validation and the option string. */
class ChaosTest {

    @Test
    void parsesABareSeedWithTheDefaultDelay() {
        assertEquals(new Chaos(42, Chaos.DEFAULT_MAX_DELAY_MICROS), Chaos.parse("42"));
        assertEquals(new Chaos(-7, Chaos.DEFAULT_MAX_DELAY_MICROS), Chaos.parse(" -7 "));
    }

    @Test
    void parsesKeyValuePairsInAnyOrder() {
        assertEquals(new Chaos(42, 2000), Chaos.parse("seed=42,delay=2000"));
        assertEquals(new Chaos(42, 2000), Chaos.parse(" delay = 2000 , SEED=42 "));
        assertEquals(new Chaos(Chaos.DEFAULT_SEED, 500), Chaos.parse("delay=500"));
        assertEquals(new Chaos(9, Chaos.DEFAULT_MAX_DELAY_MICROS), Chaos.parse("seed=9"));
        assertEquals(new Chaos(1, 0), Chaos.parse("seed=1,delay=0"));
    }

    @Test
    void toStringIsTheOptionStringItParsesFrom() {
        Chaos c = new Chaos(123456789012L, 750);
        assertEquals("seed=123456789012,delay=750", c.toString());
        assertEquals(c, Chaos.parse(c.toString()));
    }

    @Test
    void rejectsMalformedOptionsNamingTheProblem() {
        Object[][] cases = {
                {"", "empty"},
                {"  ", "empty"},
                {null, "empty"},
                {"abc", "seed must be an integer, got \"abc\""},
                {"seed=x", "seed must be an integer"},
                {"delay=1.5", "delay must be an integer"},
                {"seed=1,speed=3", "unknown key \"speed\""},
                {"seed=1,", "\"\" is not key=value"},
                {"seed=1,2", "\"2\" is not key=value"},
                {"seed=1,seed=2", "seed is given twice"},
                {"delay=1,delay=2", "delay is given twice"},
                {"delay=-1", "between 0 and 1000000"},
                {"delay=1000001", "got 1000001"},
        };
        for (Object[] c : cases) {
            var e = assertThrows(IllegalArgumentException.class, () -> Chaos.parse((String) c[0]), "option " + c[0]);
            assertContains(e.getMessage(), (String) c[1]);
        }
    }

    @Test
    void constructorChecksTheDelay() {
        assertContains(assertThrows(IllegalArgumentException.class, () -> new Chaos(1, -1)).getMessage(),
                "maxDelayMicros", "got -1");
        assertEquals(Chaos.MAX_DELAY_LIMIT_MICROS, new Chaos(1, Chaos.MAX_DELAY_LIMIT_MICROS).maxDelayMicros());
        assertEquals(Chaos.DEFAULT_MAX_DELAY_MICROS, Chaos.withSeed(5).maxDelayMicros());
    }

    @Test
    void devicesSayWhetherTheyAreInChaosMode() {
        try (CpuDevice plain = new CpuDevice(1, FakeKernels.compiler());
                CpuDevice chaotic = new CpuDevice(1, FakeKernels.compiler(), new Chaos(42, 10))) {
            assertEquals(java.util.Optional.empty(), plain.chaos());
            assertEquals(java.util.Optional.of(new Chaos(42, 10)), chaotic.chaos());
            assertEquals(plain.toString() + " [chaos seed=42,delay=10]", chaotic.toString());
        }
        assertContains(assertThrows(IllegalArgumentException.class,
                () -> new CpuDevice(1, FakeKernels.compiler(), null)).getMessage(), "chaos must not be null");
        assertContains(assertThrows(IllegalArgumentException.class, () -> new CpuDevice((Chaos) null)).getMessage(),
                "chaos must not be null");
    }
}
