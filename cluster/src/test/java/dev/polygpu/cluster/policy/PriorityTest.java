package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PriorityTest {

    private static final StealSettings SETTINGS = StealSettings.defaults(4);

    @ParameterizedTest(name = "floor {0}, factor {1} -> {2}")
    @CsvSource({
            // floor, factor, min rank = floor(factor * floor) + 1, 0 = do not ask
            "0,  2,   0",
            "-3, 2,   0",
            "1,  2,   3",
            "5,  2,   11",
            "5,  1.5, 8",
            "5,  1,   6",
            "7,  0,   0",
            "1073741823, 2, 2147483647",
            "2147483647, 2, 2147483647",
    })
    void aMemberAsksForMoreThanFactorTimesItsFloor(int floor, double factor, int expected) {
        assertEquals(expected, Priority.minRankToAsk(floor, SETTINGS.withRankFactor(factor)));
    }

    @Test
    void theFloorIsTheLowestOfTheSlotsHighestRanks() {
        assertEquals(7, Priority.floorRank(1, 3, 7, 1));
        assertEquals(3, Priority.floorRank(2, 3, 7, 1));
        assertEquals(1, Priority.floorRank(3, 3, 7, 1));
        assertEquals(7, Priority.floorRank(2, 7, 2, 7), "equal ranks both count");
        assertEquals(5, Priority.floorRank(2, 1, 1, 9, 1, 5, 1));
    }

    @Test
    void fewerElementsThanSlotsGiveNoFloor() {
        assertEquals(0, Priority.floorRank(2, 40));
        assertEquals(0, Priority.floorRank(1));
        assertEquals(0, Priority.floorRank(3, new int[] {9, 9, 9}, 2), "only the first count entries count");
        assertEquals(9, Priority.floorRank(2, new int[] {9, 9, 1}, 2));
    }

    @Test
    void unknownRanksGiveNoFloor() {
        assertEquals(0, Priority.floorRank(2, 0, 0, 0));
    }

    @Test
    void badArgumentsAreNamed() {
        assertEquals("slots must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> Priority.floorRank(0, 1)).getMessage());
        assertEquals("count must be 0 to 2, was 3",
                assertThrows(IllegalArgumentException.class, () -> Priority.floorRank(1, new int[2], 3))
                        .getMessage());
    }
}
