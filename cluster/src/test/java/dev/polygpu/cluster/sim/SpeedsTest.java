package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpeedsTest {

    @Test
    void membersTakeThePatternInTurnAndLaterMembersContinueIt() {
        Speeds s = Speeds.parse("1*3,0.25");
        double[] expected = {1, 1, 1, 0.25, 1, 1, 1, 0.25, 1};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], s.speed(i), "member " + i);
        }
        assertFalse(s.uniform());
    }

    @Test
    void uniformIsEveryMemberAtOneHoweverWritten() {
        assertTrue(Speeds.UNIFORM.uniform());
        assertTrue(Speeds.parse("1*4").uniform());
        assertEquals(1, Speeds.UNIFORM.speed(12345));
        assertEquals(Speeds.of(1, 1, 1, 1), Speeds.parse("1*4"));
        assertNotEquals(Speeds.UNIFORM, Speeds.parse("1*4"), "the same speeds, but another pattern");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "1;             1",
        "1*3,0.25;      1*3,0.25",
        " 2 , 2 ,0.5;   2*2,0.5",
        "0.5,1,0.5;     0.5,1,0.5",
        "1.5e-3*2;      0.0015*2",
    })
    void toStringIsWhatParseReads(String text, String written) {
        Speeds s = Speeds.parse(text);
        assertEquals(written, s.toString());
        assertEquals(s, Speeds.parse(s.toString()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "0;          '0' in '0': a speed must be a finite number above 0",
        "1,-2;       '-2' in '1,-2': a speed must be a finite number above 0",
        "Infinity;   a speed must be a finite number above 0",
        "NaN;        a speed must be a finite number above 0",
        "fast;       'fast' in 'fast' is not a speed: write a factor above 0",
        "1,,2;       '' in '1,,2' is not a speed",
        "1*x;        '1*x' in '1*x' is not a speed",
        "1*0;        '1*0' in '1*0': a repeat count must be from 1",
        "1*2000000;  a repeat count must be from 1 to 1048576 entries in all",
    })
    void badPatternsSayWhichEntryAndHowToWriteOne(String text, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Speeds.parse(text));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void scaledLimitsKeepAShareByRelativeSpeed() {
        Speeds plain = Speeds.parse("2,0.5,1");
        Speeds scaled = plain.withScaledLimits(true);
        assertFalse(plain.scaledLimits());
        assertTrue(scaled.scaledLimits());
        assertNotEquals(plain, scaled);
        assertEquals(plain.toString(), scaled.toString());
        // relative to the fastest (2): 1, 0.25, 0.5
        assertEquals(0.25, scaled.relative(1));
        assertEquals(6, plain.threshold(1, 6));
        assertEquals(4, plain.window(1, 4, 2));
        assertEquals(6, scaled.threshold(0, 6));
        assertEquals(2, scaled.threshold(1, 6), "6 x 0.25 = 1.5, rounded");
        assertEquals(3, scaled.threshold(2, 6));
        assertEquals(4, scaled.window(0, 4, 2));
        assertEquals(2, scaled.window(1, 4, 2), "4 x 0.25 = 1, but a task for each of its 2 slots");
        assertEquals(4, scaled.window(1, 16, 2));
        assertEquals(1, Speeds.of(1, 0.01).withScaledLimits(true).threshold(1, 6), "never below 1");
    }

    @Test
    void ofChecksItsFactors() {
        assertThrows(IllegalArgumentException.class, Speeds::of);
        assertThrows(IllegalArgumentException.class, () -> Speeds.of(1, 0));
        double[] pattern = {1, 2};
        Speeds s = Speeds.of(pattern);
        pattern[1] = 3;
        assertEquals(2, s.speed(1), "the pattern is copied");
    }
}
