package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.StreamPriorities;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The rank → priority level mapping, against its definition written another way. */
class PriorityLevelsTest {

    /**
     * The definition: with reference r (the lowest rank on the streams, or the rank itself if that is lower or
     * there is none), the level is one less than the smallest e with r * 2^e >= rank, between 0 and levels - 1.
     */
    private static int byDefinition(int rank, int lowest, int levels) {
        if (rank < 1) {
            return 0;
        }
        double reference = lowest >= 1 ? Math.min(lowest, rank) : rank;
        int e = 0;
        while (reference * Math.pow(2, e) < rank) {
            e++;
        }
        return Math.max(0, Math.min(Math.min(levels, PriorityLevels.MAX_LEVELS) - 1, e - 1));
    }

    @Test
    void examplesOnSixLevels() {
        // Lowest on the streams 10: up to 20 stays at the least priority, above 20 one level up, and so on.
        assertEquals(0, PriorityLevels.level(10, 10, 6));
        assertEquals(0, PriorityLevels.level(20, 10, 6));
        assertEquals(1, PriorityLevels.level(21, 10, 6));
        assertEquals(1, PriorityLevels.level(40, 10, 6));
        assertEquals(2, PriorityLevels.level(41, 10, 6));
        assertEquals(5, PriorityLevels.level(1_000_000, 10, 6));
        // Nothing lower on the streams: the element is its own reference.
        assertEquals(0, PriorityLevels.level(500, 0, 6));
        assertEquals(0, PriorityLevels.level(5, 9, 6));
        // Unknown rank, one level.
        assertEquals(0, PriorityLevels.level(0, 1, 6));
        assertEquals(0, PriorityLevels.level(1000, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> PriorityLevels.level(3, 1, 0));
    }

    @Test
    void randomRanksMatchTheDefinition() {
        SplittableRandom r = new SplittableRandom(17);
        for (int i = 0; i < 200_000; i++) {
            int rank = r.nextInt(4) == 0 ? r.nextInt(-2, 50) : r.nextInt(1, Integer.MAX_VALUE);
            int lowest = r.nextInt(3) == 0 ? r.nextInt(-1, 64) : r.nextInt(0, Integer.MAX_VALUE);
            int levels = 1 + r.nextInt(20);
            assertEquals(byDefinition(rank, lowest, levels), PriorityLevels.level(rank, lowest, levels),
                    "rank " + rank + ", lowest " + lowest + ", levels " + levels);
        }
    }

    @Test
    void levelsNeverExceedTheDevicesAndAreCapped() {
        assertEquals(6, PriorityLevels.levelsOf(new StreamPriorities(0, -5)));
        assertEquals(1, PriorityLevels.levelsOf(StreamPriorities.NONE));
        assertEquals(PriorityLevels.MAX_LEVELS, PriorityLevels.levelsOf(new StreamPriorities(3, -1_000_000)));
        assertEquals(PriorityLevels.MAX_LEVELS - 1, PriorityLevels.level(Integer.MAX_VALUE, 1, 1_000));
    }
}
