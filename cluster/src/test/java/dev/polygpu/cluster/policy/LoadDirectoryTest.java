package dev.polygpu.cluster.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoadDirectoryTest {
    private static final List<String> MEMBERS = List.of("a", "b", "c", "d", "e", "f");

    @ParameterizedTest(name = "reported {0}, now {1}: {2}")
    @CsvSource({
        "0, 0, false",
        "0, 1, true",
        "3, 0, true",
        "4, 7, false",
        "4, 8, true",
        "4, 3, false",
        "4, 2, true",
        "1, 2, true",
        "2, 1, true",
        "5, 5, false",
    })
    void aReportIsDueWhenTheSurplusEndsStartsDoublesOrHalves(int reported, int surplus, boolean due) {
        assertEquals(due, LoadDirectory.reportDue(reported, 10, surplus, 10));
        assertEquals(due, LoadDirectory.reportDue(reported, 0, surplus, 0), "without ranks");
    }

    @ParameterizedTest(name = "rank {0} reported, now {1} (surplus {2} both times): {3}")
    @CsvSource({
        "100, 100, 4, false",
        "100, 108, 4, false",
        "100, 109, 4, true",
        "100, 87, 4, false",
        "100, 86, 4, true",
        "6, 7, 4, false",
        "5, 6, 4, true",
        "1, 2, 4, true",
        "0, 7, 4, true",
        "7, 0, 4, true",
        "100, 10, 0, false",
    })
    void withASurplusAReportIsAlsoDueWhenItsTopRankMovesToAnotherBand(int reportedTop, int top, int surplus,
                                                                     boolean due) {
        assertEquals(due, LoadDirectory.reportDue(surplus, reportedTop, surplus, top));
    }

    @Test
    void rankBandsAreAQuarterWiderEach() {
        assertEquals(-1, LoadDirectory.rankBand(0));
        assertEquals(0, LoadDirectory.rankBand(1));
        assertEquals(3, LoadDirectory.rankBand(2), "below 10 the bands are narrower than 1: some hold no rank");
        for (int band = 11; band < 60; band++) {
            int first = (int) Math.ceil(Math.pow(LoadDirectory.RANK_STEP, band));
            assertEquals(band, LoadDirectory.rankBand(first), "rank " + first);
            assertEquals(band - 1, LoadDirectory.rankBand(first - 1), "rank " + (first - 1));
        }
    }

    @Test
    void negativeSurplusesAndRanksAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LoadDirectory.reportDue(-1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> LoadDirectory.reportDue(0, 0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> LoadDirectory.reportDue(0, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> LoadDirectory.reportDue(0, 0, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new LoadDirectory().report("a", -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new LoadDirectory().report("a", 1, -1));
    }

    @Test
    void theDirectoriesAreTheFirstMembersAndEveryMemberReportsToOneOfThem() {
        assertEquals(List.of("a", "b"), LoadDirectory.directories(MEMBERS, 2));
        assertEquals(MEMBERS, LoadDirectory.directories(MEMBERS, 50), "all, when there are fewer members");
        Set<String> used = new HashSet<>();
        for (String m : List.of("a", "b", "c", "d", "e", "f", "m17", "m300", "m1023")) {
            String d = LoadDirectory.directoryFor(m, MEMBERS, 3);
            assertTrue(List.of("a", "b", "c").contains(d), m + " -> " + d);
            assertEquals(d, LoadDirectory.directoryFor(m, MEMBERS, 3), "the same member, the same directory");
            used.add(d);
        }
        assertTrue(used.size() > 1, "reports spread over the directories: " + used);
        assertNull(LoadDirectory.directoryFor("a", List.of(), 3));
        assertThrows(IllegalArgumentException.class, () -> LoadDirectory.directories(MEMBERS, 0));
    }

    @Test
    void aThiefIsSentToTheLargestSurplusWhichThenCountsWhatWasSentThere() {
        LoadDirectory d = new LoadDirectory();
        d.report("c", 5, 1);
        d.report("d", 3, 1);
        d.report("e", 1, 1);
        assertEquals("c", d.take("f", "a", 2, 0, MEMBERS), "5 is the most");
        assertEquals("c", d.take("f", "a", 1, 0, MEMBERS), "3 left at c, ties go to the smaller id: c before d");
        assertEquals("d", d.take("f", "a", 2, 0, MEMBERS), "c has 2 left, d 3");
        assertEquals("c", d.take("f", "a", 2, 0, MEMBERS), "c 2, d 1, e 1");
        assertEquals("d", d.take("f", "a", 0, 0, MEMBERS), "c 0 is gone; d and e have 1: d; a request counts at least 1");
        assertEquals("e", d.take("f", "a", 1, 0, MEMBERS));
        assertNull(d.take("f", "a", 1, 0, MEMBERS), "nothing left");
        assertEquals(0, d.size());
    }

    @Test
    void aRequestByRankIsSentToTheLargestSurplusAmongTheMembersWhoseTopRankReachesIt() {
        LoadDirectory d = new LoadDirectory();
        d.report("b", 9, 20);
        d.report("c", 3, 60);
        d.report("d", 5, 50);
        assertEquals("d", d.take("f", "a", 1, 40, MEMBERS), "b ranks too low; of c and d, d has more");
        assertEquals("c", d.take("f", "a", 1, 55, MEMBERS), "only c reaches 55");
        assertNull(d.take("f", "a", 1, 61, MEMBERS), "nobody reported rank 61");
        assertEquals("b", d.take("f", "a", 1, 0, MEMBERS), "a starving request takes any rank: the most surplus");
        d.report("c", 2, 0);
        assertNull(d.take("f", "a", 1, 55, MEMBERS), "a report replaces the last one, rank included");
        assertEquals("d", d.take("f", "a", 4, 40, MEMBERS), "d had 4 left after the first take");
        assertNull(d.take("f", "a", 1, 40, MEMBERS), "and has none now");
    }

    @Test
    void neitherTheThiefNorTheDirectoryNorAMemberThatLeftIsChosen() {
        LoadDirectory d = new LoadDirectory();
        d.report("f", 9, 1);
        d.report("a", 8, 1);
        d.report("b", 7, 1);
        d.report("gone", 20, 1);
        assertEquals("b", d.take("f", "a", 1, 0, MEMBERS), "f asks, a is the directory, gone is not a member");
        assertEquals(3, d.size(), "the report of the member that left is dropped");
        d.forget("f");
        d.report("b", 0, 1);
        assertNull(d.take("c", "a", 1, 0, MEMBERS), "a is the directory itself");
    }

    @Test
    void theBacklogLimitIsATenthOfTheRequestTimeout() {
        assertEquals(20_000_000L, LoadDirectory.backlogLimitNanos(StealSettings.defaults(4)));
    }
}
