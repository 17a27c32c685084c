package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class StealSettingsTest {

    private static final StealSettings VALID = new StealSettings(6, 2, 2, 1.0, 1_000_000L, 200_000_000L);

    @ParameterizedTest(name = "window {0} -> threshold {1}, chunk {2}")
    @CsvSource({
            // window, threshold = window + 2, chunk = max(1, window / 2)
            "0,  2,  1",
            "1,  3,  1",
            "2,  4,  1",
            "3,  5,  1",
            "4,  6,  2",
            "9,  11, 4",
            "16, 18, 8",
    })
    void defaultsFollowTheWindow(int window, int threshold, int chunk) {
        StealSettings settings = StealSettings.defaults(window);
        assertEquals(threshold, settings.threshold());
        assertEquals(chunk, settings.chunk());
        assertEquals(2, settings.maxHops());
        assertEquals(1.0, settings.costFactor());
        assertEquals(1_000_000L, settings.unknownKernelBudgetNanos(), "1 ms");
        assertEquals(200_000_000L, settings.requestTimeoutNanos(), "200 ms");
        assertEquals(2.0, settings.rankFactor());
    }

    @ParameterizedTest(name = "window {0}")
    @CsvSource({"-1", "-100", "2147483646", "2147483647"})
    void defaultsRejectAWindowOutOfRange(int window) {
        IllegalArgumentException error =
                assertThrows(IllegalArgumentException.class, () -> StealSettings.defaults(window));
        assertEquals("window must be between 0 and 2147483645, was " + window, error.getMessage());
    }

    static Stream<Arguments> invalidSettings() {
        return Stream.of(
                invalid("threshold 0", () -> VALID.withThreshold(0), "threshold must be >= 1, was 0"),
                invalid("threshold -3", () -> VALID.withThreshold(-3), "threshold must be >= 1, was -3"),
                invalid("chunk 0", () -> VALID.withChunk(0), "chunk must be >= 1, was 0"),
                invalid("maxHops -1", () -> VALID.withMaxHops(-1), "maxHops must be >= 0, was -1"),
                invalid("costFactor 0", () -> VALID.withCostFactor(0),
                        "costFactor must be a finite number > 0, was 0.0"),
                invalid("costFactor -0.5", () -> VALID.withCostFactor(-0.5),
                        "costFactor must be a finite number > 0, was -0.5"),
                invalid("costFactor NaN", () -> VALID.withCostFactor(Double.NaN),
                        "costFactor must be a finite number > 0, was NaN"),
                invalid("costFactor infinite", () -> VALID.withCostFactor(Double.POSITIVE_INFINITY),
                        "costFactor must be a finite number > 0, was Infinity"),
                invalid("budget 0", () -> VALID.withUnknownKernelBudgetNanos(0),
                        "unknownKernelBudgetNanos must be > 0, was 0"),
                invalid("budget -1", () -> VALID.withUnknownKernelBudgetNanos(-1),
                        "unknownKernelBudgetNanos must be > 0, was -1"),
                invalid("timeout 0", () -> VALID.withRequestTimeoutNanos(0),
                        "requestTimeoutNanos must be > 0, was 0"),
                invalid("rank factor between 0 and 1", () -> VALID.withRankFactor(0.5),
                        "rankFactor must be 0 (off) or a finite number >= 1, was 0.5"),
                invalid("rank factor negative", () -> VALID.withRankFactor(-1),
                        "rankFactor must be 0 (off) or a finite number >= 1, was -1.0"),
                invalid("rank factor NaN", () -> VALID.withRankFactor(Double.NaN),
                        "rankFactor must be 0 (off) or a finite number >= 1, was NaN"),
                invalid("rank factor infinite", () -> VALID.withRankFactor(Double.POSITIVE_INFINITY),
                        "rankFactor must be 0 (off) or a finite number >= 1, was Infinity"),
                invalid("rank chunk negative", () -> VALID.withRankChunk(-1),
                        "rankChunk must be >= 1, or 0 for the chunk, was -1"),
                invalid("constructor, first bad field named", () -> new StealSettings(0, 0, -1, 0, 0, 0),
                        "threshold must be >= 1, was 0"));
    }

    private static Arguments invalid(String name, Supplier<StealSettings> build, String message) {
        return Arguments.of(name, build, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSettings")
    void invalidFieldsAreNamedWithTheirRange(String name, Supplier<StealSettings> build, String message) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, build::get);
        assertEquals(message, error.getMessage());
    }

    @Test
    void withersChangeOneFieldOnly() {
        assertEquals(new StealSettings(9, 2, 2, 1.0, 1_000_000L, 200_000_000L), VALID.withThreshold(9));
        assertEquals(new StealSettings(6, 7, 2, 1.0, 1_000_000L, 200_000_000L), VALID.withChunk(7));
        assertEquals(new StealSettings(6, 2, 0, 1.0, 1_000_000L, 200_000_000L), VALID.withMaxHops(0));
        assertEquals(new StealSettings(6, 2, 2, 2.5, 1_000_000L, 200_000_000L), VALID.withCostFactor(2.5));
        assertEquals(new StealSettings(6, 2, 2, 1.0, 5L, 200_000_000L), VALID.withUnknownKernelBudgetNanos(5));
        assertEquals(new StealSettings(6, 2, 2, 1.0, 1_000_000L, 7L), VALID.withRequestTimeoutNanos(7));
        assertEquals(new StealSettings(6, 2, 2, 1.0, 1_000_000L, 200_000_000L, 0), VALID.withRankFactor(0));
        assertEquals(new StealSettings(6, 2, 2, 1.0, 1_000_000L, 200_000_000L, 3.5), VALID.withRankFactor(3.5));
        assertEquals(StealSettings.DEFAULT_RANK_FACTOR, VALID.rankFactor(), "the six-field constructor's default");
        assertEquals(ThiefCap.OFF, VALID.thiefCap(), "no thief cap by default");
        assertEquals(ThiefCap.OFF, StealSettings.defaults(4).thiefCap(), "no thief cap by default");
        assertEquals(new StealSettings(6, 2, 2, 1.0, 1_000_000L, 200_000_000L, StealSettings.DEFAULT_RANK_FACTOR,
                ThiefCap.REPEAT), VALID.withThiefCap(ThiefCap.REPEAT));
        assertEquals(VALID, VALID.withThiefCap(ThiefCap.ALL).withRankFactor(3.5).withThiefCap(ThiefCap.OFF)
                .withRankFactor(StealSettings.DEFAULT_RANK_FACTOR), "every wither keeps the cap");
        assertEquals(ThiefCap.ALL, VALID.withThiefCap(ThiefCap.ALL).withThreshold(3).withChunk(1).withMaxHops(0)
                .withCostFactor(2).withUnknownKernelBudgetNanos(5).withRequestTimeoutNanos(7).withRankFactor(0)
                .thiefCap());
        assertThrows(NullPointerException.class, () -> VALID.withThiefCap(null));
    }

    @Test
    void theRankChunkIsTheChunkUnlessGivenAndContinuationsAreNotPushedByDefault() {
        assertEquals(2, VALID.rankChunk(), "0: the chunk");
        assertEquals(5, VALID.withChunk(5).rankChunk(), "follows the chunk");
        assertEquals(1, VALID.withRankChunk(1).rankChunk());
        assertEquals(1, VALID.withRankChunk(1).withChunk(5).rankChunk(), "once given, kept by the other withers");
        assertEquals(VALID, VALID.withRankChunk(3).withRankChunk(0));
        assertFalse(VALID.pushContinuations());
        assertFalse(StealSettings.defaults(4).pushContinuations());
        assertTrue(VALID.withPushContinuations(true).withThreshold(3).withChunk(1).withMaxHops(0).withCostFactor(2)
                .withUnknownKernelBudgetNanos(5).withRequestTimeoutNanos(7).withRankFactor(0)
                .withThiefCap(ThiefCap.ALL).withRankChunk(1).pushContinuations(), "every wither keeps it");
        assertEquals(1, VALID.withRankChunk(1).withPushContinuations(true).withThiefCap(ThiefCap.ALL).rankChunk());
    }

    @Test
    void wakeUpsAreOffByDefaultAndEveryWitherKeepsThem() {
        assertFalse(VALID.wakeThieves());
        assertFalse(StealSettings.defaults(4).wakeThieves());
        StealSettings on = VALID.withWakeThieves(true);
        assertTrue(on.withThreshold(3).withChunk(1).withMaxHops(0).withCostFactor(2).withUnknownKernelBudgetNanos(5)
                .withRequestTimeoutNanos(7).withRankFactor(0).withThiefCap(ThiefCap.ALL).withRankChunk(1)
                .withPushContinuations(true).wakeThieves());
        assertFalse(VALID.withPushContinuations(true).wakeThieves(), "one flag does not set the other");
        assertFalse(on.pushContinuations(), "one flag does not set the other");
        assertEquals(VALID, on.withWakeThieves(false));
    }
}
