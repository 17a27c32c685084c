package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class DistributionTest {
    private static final long SEED = 0x5EED_D157L;

    @Test
    void specsParseToTheirDistributionsAndToStringReadsBack() {
        Object[][] table = {
            {"const:7", Distribution.constant(7)},
            {"uniform:2:6", Distribution.uniform(2, 6)},
            {"exp:12.5", Distribution.exponential(12.5)},
            {"lognormal:3:0.25", Distribution.lognormal(3, 0.25)},
            {"pareto:1.5:2.5", Distribution.pareto(1.5, 2.5)},
            {" Exp:4 ", Distribution.exponential(4)},
            {"exp:1e3", Distribution.exponential(1000)},
        };
        for (Object[] row : table) {
            Distribution d = Distribution.parse((String) row[0]);
            assertEquals(row[1], d, (String) row[0]);
            assertEquals(d, Distribution.parse(d.toString()), d.toString());
        }
        assertEquals("uniform:2:6", Distribution.uniform(2, 6).toString());
        assertEquals("exp:12.5", Distribution.exponential(12.5).toString());
        Distribution odd = Distribution.lognormal(0.1 + 0.2, 1.0 / 3);
        assertEquals(odd, Distribution.parse(odd.toString()), "doubles print exactly");
    }

    @Test
    void timeUnitsGiveNanosecondsAndDurationsDefaultToMilliseconds() {
        assertEquals(Distribution.exponential(2e6), Distribution.parse("exp:2ms"));
        assertEquals(Distribution.uniform(500, 1.5e9), Distribution.parse("uniform:500ns:1.5s"));
        assertEquals(Distribution.constant(3), Distribution.parse("const:3"), "plain numbers as they are");
        assertEquals(Distribution.constant(3e6), Distribution.parseDuration("const:3"));
        assertEquals(Distribution.uniform(5e5, 2e6), Distribution.parseDuration("uniform:500us:2"));
        assertEquals(Distribution.lognormal(1e6, 0.5), Distribution.parseDuration("lognormal:1:0.5"),
                "a shape takes no unit and no scale");
        assertEquals(Distribution.pareto(4e3, 1.5), Distribution.parseDuration("pareto:4us:1.5"));
    }

    @Test
    void sizesArePowersOf1024() {
        assertEquals(123, Distribution.parseBytes("123"));
        assertEquals(7, Distribution.parseBytes("7B"));
        assertEquals(1536, Distribution.parseBytes("1.5KB"));
        assertEquals(4L << 20, Distribution.parseBytes("4MB"));
        assertEquals(2L << 30, Distribution.parseBytes("2gb"));
        for (String bad : new String[] {"", "MB", "4XB", "-1", "1e30GB", "four"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Distribution.parseBytes(bad), bad);
            assertTrue(e.getMessage().contains("KB, MB or GB"), e.getMessage());
        }
    }

    @Test
    void badSpecsSayWhatIsWrongAndWhatIsAccepted() {
        String[][] table = {
            {"", "unknown kind"},
            {"normal:1:2", "unknown kind 'normal'"},
            {"const", "takes 1 number, got 0"},
            {"uniform:1", "takes 2 numbers, got 1"},
            {"exp:1:2", "takes 1 number, got 2"},
            {"exp:abc", "'abc' is not a number"},
            {"exp:5min", "unknown time unit 'min'"},
            {"exp:0", "MEAN must be finite and > 0"},
            {"const:-1", "X must be finite and >= 0"},
            {"uniform:3:1", "0 <= A <= B"},
            {"lognormal:1:-1", "SIGMA must be finite and >= 0"},
            {"pareto:0:2", "MIN must be finite and > 0"},
            {"pareto:1:0", "ALPHA must be finite and > 0"},
            {"const:1e999", "not a finite number"},
        };
        for (String[] row : table) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Distribution.parse(row[0]), row[0]);
            assertTrue(e.getMessage().contains("'" + row[0] + "'"), e.getMessage());
            assertTrue(e.getMessage().contains(row[1]), e.getMessage());
            assertTrue(e.getMessage().contains("accepted: const:X, uniform:A:B"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Distribution.parse(null));
        assertThrows(IllegalArgumentException.class, () -> Distribution.uniform(-1, 1));
    }

    /**
     * The mean of n draws is within 5 standard errors (sd / √n, sd known in closed form) of the mean: a
     * correct sampler fails that with odds below 10⁻⁶, and the seed is fixed, so the test is not flaky; a
     * wrong scale or shape misses by far more.
     */
    @Test
    void sampleMeansMatchTheMeans() {
        int n = 200_000;
        Object[][] table = {
            // distribution, its standard deviation
            {Distribution.constant(5), 0.0},
            {Distribution.uniform(2, 6), 4 / Math.sqrt(12)},
            {Distribution.exponential(10), 10.0},
            {Distribution.lognormal(1, 0.5), Math.sqrt((Math.exp(0.25) - 1) * Math.exp(0.25))},
            {Distribution.pareto(1, 3), Math.sqrt(3.0 / (4 * 1))},
        };
        for (Object[] row : table) {
            Distribution d = (Distribution) row[0];
            RandomGenerator rnd = Workloads.random(SEED);
            double sum = 0;
            double least = Double.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                double x = d.sample(rnd);
                sum += x;
                least = Math.min(least, x);
            }
            double tolerance = 5 * (double) row[1] / Math.sqrt(n) + 1e-12;
            assertEquals(d.mean(), sum / n, tolerance, d + " (seed " + SEED + ")");
            assertTrue(least >= 0, d + " gave " + least);
        }
        assertEquals(Math.exp(0.125), Distribution.lognormal(1, 0.5).mean(), 1e-12);
        assertEquals(1.5, Distribution.pareto(1, 3).mean(), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, Distribution.pareto(1, 1).mean());
    }

    @Test
    void aParetoNeverGoesBelowItsMinimumAndHasAHeavyTail() {
        Distribution d = Distribution.pareto(100, 1.5);
        RandomGenerator rnd = Workloads.random(SEED);
        int above = 0;
        int far = 0;
        for (int i = 0; i < 100_000; i++) {
            double x = d.sample(rnd);
            assertTrue(x >= 100, "sample " + x);
            above += x > 1000 ? 1 : 0;
            far += x > 10_000 ? 1 : 0;
        }
        // P(X > 10 min) = 10^-1.5 ≈ 3.2 % and P(X > 100 min) = 10^-3, where an exponential of the same mean
        // (300) has e^-33: the far tail is what makes it heavy. Tolerances are 4 standard errors.
        assertEquals(0.0316, above / 100_000.0, 0.0023);
        assertEquals(0.001, far / 100_000.0, 0.0004);
    }
}
