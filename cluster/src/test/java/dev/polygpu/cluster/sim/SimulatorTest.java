package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {
    private static final long MS = 1_000_000L;
    /** A fast network: 10 µs latency, 10 GB/s. */
    private static final Network FAST = Network.flat(10_000, 10e9, 0);

    /** {@code n} independent tasks of {@code d} each, all owned by member 0, each reading its own array. */
    private static Workload independent(int n, long d, long bytes) {
        Workload.Builder b = Workload.builder("independent");
        int k = b.kernel("k");
        for (int i = 0; i < n; i++) {
            int a = b.array(bytes);
            b.task(0, k, d, bytes, new int[] {a});
        }
        return b.build();
    }

    @Test
    void withoutStealingOneOwnerRunsEverythingOnItsSlots() {
        // 100 tasks of 10 ms on 2 slots: 50 rounds of 10 ms, whatever the other members do.
        SimResult r = new Simulator(independent(100, 10 * MS, 1024), SimConfig.of(4, 2, 4, FAST, 1)
                .withStealing(false)).run();
        assertEquals(500 * MS, r.makespanNanos());
        assertEquals(0, r.stolen());
        assertEquals(0, r.requests());
        // The lower bound on 8 slots: 1,000 ms of work / 8 = 125 ms.
        assertEquals(125 * MS, r.lowerBoundNanos());
    }

    @Test
    void aSlowMemberRunsItsTasksAtItsSpeedAndTheBoundCountsIt() {
        // Two owners of 10 tasks of 10 ms each, one slot each, no stealing: member 1 at half speed takes 200 ms.
        Workload.Builder b = Workload.builder("two owners");
        int k = b.kernel("k");
        for (int i = 0; i < 20; i++) {
            b.task(i % 2, k, 10 * MS, 0, new int[0]);
        }
        SimConfig c = SimConfig.of(2, 1, 1, FAST, 1).withStealing(false).withSpeeds(Speeds.of(1, 0.5));
        SimResult r = new Simulator(b.build(), c).run();
        assertEquals(200 * MS, r.makespanNanos());
        // 200 ms of reference work over 1.5 reference slots.
        assertEquals((long) Math.ceil(200 * MS / 1.5), r.lowerBoundNanos());
        assertTrue(r.notes().contains("1 members of speed 0.5: busy 100.0% of the makespan, last task ended at "
                + "200 ms, ran 10 tasks (0.0% stolen)"), r.notes()::toString);
        // A chain is bounded by its run on the fastest member.
        Workload.Builder chain = Workload.builder("chain");
        int kc = chain.kernel("k");
        int prev = chain.task(0, kc, 10 * MS, 0, new int[0]);
        for (int i = 1; i < 10; i++) {
            prev = chain.task(0, kc, 10 * MS, 0, new int[0], prev);
        }
        SimResult fast = new Simulator(chain.build(), SimConfig.of(2, 1, 1, FAST, 1).withSpeeds(Speeds.of(0.5, 4)))
                .run();
        assertEquals(25 * MS, fast.lowerBoundNanos(), "100 ms of chain at speed 4");
    }

    @Test
    void aSlowMemberThatKeepsLessForItselfNoLongerMakesTheTail() {
        // Two owners of 40 tasks of 10 ms, one slot each; member 1 runs at a quarter of member 0's speed. With the
        // default limits it keeps a window of 4 (not stealable) and a threshold of 6, which at 40 ms a task are
        // the run's tail; scaled by its speed it keeps a window of 1 and a threshold of 2.
        Workload.Builder b = Workload.builder("two owners");
        int k = b.kernel("k");
        for (int i = 0; i < 80; i++) {
            b.task(i % 2, k, 10 * MS, 0, new int[0]);
        }
        Workload w = b.build();
        SimConfig c = SimConfig.of(2, 1, 4, FAST, 1).withSpeeds(Speeds.of(1, 0.25));
        SimResult plain = new Simulator(w, c).run();
        SimResult scaled = new Simulator(w, c.withSpeeds(Speeds.of(1, 0.25).withScaledLimits(true))).run();
        assertEquals(plain.lowerBoundNanos(), scaled.lowerBoundNanos());
        assertTrue(scaled.makespanNanos() < plain.makespanNanos(), "scaled " + scaled.makespanNanos() / MS
                + " ms, plain " + plain.makespanNanos() / MS + " ms");
        // The slow member's last task, at the latest, starts when the fast one's last ends: one 40 ms task over.
        assertTrue(scaled.makespanNanos() - scaled.lowerBoundNanos() <= 40 * MS, scaled::toString);
    }

    @Test
    void stealingSpreadsOneOwnersTasksOverTheCluster() {
        SimResult r = new Simulator(independent(400, 10 * MS, 1024), SimConfig.of(4, 2, 4, FAST, 1)).run();
        System.out.println(r);
        assertTrue(r.stolen() > 200, "most tasks should move, moved " + r.stolen());
        // 400 tasks of 10 ms on 8 slots: 500 ms at best; a few round trips of 20 µs and the ramp-up cost a little.
        assertTrue(r.efficiency() > 0.95, "efficiency " + r.efficiency());
    }

    @Test
    void aChainCannotBeatItsCriticalPath() {
        Workload.Builder b = Workload.builder("chain");
        int k = b.kernel("k");
        int prev = b.task(0, k, 5 * MS, 8, new int[0]);
        for (int i = 1; i < 20; i++) {
            prev = b.task(0, k, 5 * MS, 8, new int[0], prev);
        }
        SimResult r = new Simulator(b.build(), SimConfig.of(4, 2, 4, FAST, 1)).run();
        assertEquals(100 * MS, r.lowerBoundNanos());
        assertTrue(r.makespanNanos() >= 100 * MS);
    }

    @Test
    void theSameSeedGivesTheSameRun() {
        Workload w = independent(300, 3 * MS, 4096);
        SimResult a = new Simulator(w, SimConfig.of(8, 2, 4, FAST, 7)).run();
        SimResult b = new Simulator(w, SimConfig.of(8, 2, 4, FAST, 7)).run();
        assertEquals(a.makespanNanos(), b.makespanNanos());
        assertEquals(a.requests(), b.requests());
        assertEquals(a.events(), b.events());
    }

    @Test
    void crashedWorkersTasksRunAgainAtTheirOwner() {
        SimConfig c = SimConfig.of(4, 2, 4, FAST, 3).withEvents(List.of(
                new MembershipEvent(MembershipEvent.Kind.CRASH, 50 * MS, 3)));
        SimResult r = new Simulator(independent(400, 10 * MS, 1024), c).run();
        System.out.println(r);
        assertTrue(r.reruns() > 0, "the crashed workers held tasks");
        assertEquals(400, r.tasks());
    }

    @Test
    void tooFewMembersForTheOwnersIsAnError() {
        Workload.Builder b = Workload.builder("two owners");
        int k = b.kernel("k");
        b.task(0, k, MS, 0, new int[0]);
        b.task(1, k, MS, 0, new int[0]);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Simulator(b.build(), SimConfig.of(1, 1, 1, FAST, 1)));
        assertTrue(e.getMessage().contains("owned by 2 members"), e.getMessage());
    }

    /** {@code c} with a failure timeout of {@code failAfter} and these membership events. */
    private static SimConfig withFailAfter(SimConfig c, long failAfter, MembershipEvent... events) {
        return new SimConfig(c.members(), c.slots(), c.window(), c.settings(), c.stealing(), c.network(), failAfter,
                List.of(events), c.inputCacheBytes(), c.order(), c.priorityLevels(), c.seed());
    }

    /** 400 tasks of 10 ms, all owned by member 0, on {@code members} members of 2 slots and these events. */
    private static SimResult fourHundredTasks(int members, long seed, MembershipEvent... events) {
        return new Simulator(independent(400, 10 * MS, 1024), SimConfig.of(members, 2, 4, FAST, seed)
                .withEvents(List.of(events))).run();
    }

    @Test
    void shrinkingWorkersFinishWhatTheyHoldAndNothingRunsTwice() {
        SimResult r = fourHundredTasks(4, 3, new MembershipEvent(MembershipEvent.Kind.SHRINK, 50 * MS, 3));
        assertEquals(400, r.tasks());
        assertEquals(0, r.reruns(), "a graceful departure loses nothing");
        assertTrue(r.stolen() > 0, "the workers took tasks before leaving: " + r);
        assertEquals(4, r.membersEver());
        // 4,000 ms of work: 8 slots for 50 ms do 400 ms, then member 0's 2 slots the remaining 3,600 ms, were
        // the workers gone at 50 ms. They leave later, once they have run what they hold (at most a window of 4
        // tasks of 10 ms on 2 slots each: 3 · 80 ms of slot time), so the bound is somewhat lower.
        assertTrue(r.lowerBoundNanos() < 50 * MS + 1_800 * MS, r::toString);
        assertTrue(r.lowerBoundNanos() >= 50 * MS + 1_800 * MS - 3 * 80 * MS / 2, r::toString);
        assertTrue(r.makespanNanos() >= r.lowerBoundNanos(), r::toString);
        // Without the departure the same cluster does far better: the shrink really took the workers away.
        SimResult stay = fourHundredTasks(4, 3);
        assertTrue(stay.makespanNanos() < r.makespanNanos() / 2, stay + " vs " + r);
    }

    @Test
    void aCrashCostsTheFailureTimeoutBeforeTheLostTasksRunAgain() {
        long crashAt = 50 * MS;
        SimConfig base = SimConfig.of(4, 2, 4, FAST, 3);
        MembershipEvent crash = new MembershipEvent(MembershipEvent.Kind.CRASH, crashAt, 3);
        for (long failAfter : new long[] {3_000 * MS, 5_000 * MS}) {
            SimResult r = new Simulator(independent(400, 10 * MS, 1024), withFailAfter(base, failAfter, crash)).run();
            assertTrue(r.reruns() > 0, "the crashed workers held tasks: " + r);
            // Member 0 is done with the rest by about 1.9 s; the lost tasks start once it notices the crash.
            assertTrue(r.makespanNanos() >= crashAt + failAfter + 10 * MS, failAfter + ": " + r);
            assertTrue(r.makespanNanos() < crashAt + failAfter + 1_000 * MS, failAfter + ": " + r);
        }
    }

    @Test
    void joiningWorkersStealWhatRemains() {
        SimResult r = fourHundredTasks(1, 5, new MembershipEvent(MembershipEvent.Kind.EXPAND, 100 * MS, 3));
        assertEquals(1, r.members());
        assertEquals(4, r.membersEver());
        // Alone until 100 ms, nobody can steal: every moved task moved after the join.
        assertTrue(r.stolen() > 100, "the joined workers should take much of what remains: " + r);
        // 4,000 ms of work: 2 slots do 200 ms by the join, then 8 slots the remaining 3,800 ms.
        assertEquals(100 * MS + 475 * MS, r.lowerBoundNanos());
        assertTrue(r.makespanNanos() >= r.lowerBoundNanos(), r::toString);
        assertTrue(r.makespanNanos() < 1_000 * MS, "alone it would take 2,000 ms: " + r);
    }

    @Test
    void onlyWorkersLeaveAndTheRestIsANote() {
        Workload.Builder b = Workload.builder("two owners");
        int k = b.kernel("k");
        for (int i = 0; i < 40; i++) {
            b.task(i % 2, k, MS, 0, new int[0]);
        }
        SimConfig c = SimConfig.of(3, 1, 2, FAST, 1).withEvents(List.of(
                new MembershipEvent(MembershipEvent.Kind.CRASH, MS, 2),
                new MembershipEvent(MembershipEvent.Kind.SHRINK, 2 * MS, 1)));
        SimResult r = new Simulator(b.build(), c).run();
        assertEquals(List.of("crash 2 at 1.00 ms: only 1 workers (members without tasks of their own) were there "
                + "to go; programs never leave", "shrink 1 at 2.00 ms: only 0 workers (members without tasks of "
                + "their own) were there to go; programs never leave"), r.notes());
        assertEquals(40, r.tasks());
    }

    @Test
    void eachMessagePaysThePerMessageCost() {
        Workload w = independent(200, 10 * MS, 1024);
        long latency = 10_000;
        for (long perMessage : new long[] {0, MS}) {
            Network net = Network.flat(latency, 10e9, perMessage);
            SimResult r = new Simulator(w, SimConfig.of(4, 2, 4, net, 1)).run();
            // A steal is a request and a reply: two latencies and two fixed costs at least.
            long roundTrip = 2 * (latency + perMessage);
            // The histogram answers within 1/64 of the exact value.
            assertTrue(r.stealLatencyMedianNanos() >= roundTrip - roundTrip / 64, perMessage + ": " + r);
            assertTrue(r.stealLatencyMedianNanos() < roundTrip + 100_000, perMessage + ": " + r);
        }
    }

    /**
     * {@code n} tasks of {@code d} each, owned round-robin by the first {@code owners} members: task {@code i}
     * reads its owner's shared array {@code i / owners % shared} of {@code sharedBytes} (the matrix every task of
     * a row multiplies with) and an array of its own of 1 KB.
     */
    private static Workload sharedInputs(int n, long d, int owners, int shared, long sharedBytes) {
        Workload.Builder b = Workload.builder("shared inputs");
        int k = b.kernel("k");
        int[][] arrays = new int[owners][shared];
        for (int[] perOwner : arrays) {
            for (int a = 0; a < shared; a++) {
                perOwner[a] = b.array(sharedBytes);
            }
        }
        for (int i = 0; i < n; i++) {
            b.task(i % owners, k, d, 1024, new int[] {arrays[i % owners][i / owners % shared], b.array(1024)});
        }
        return b.build();
    }

    @Test
    void theInputCacheSendsASharedArrayOncePerThief() {
        long mb = 1 << 20;
        Workload w = sharedInputs(400, 10 * MS, 1, 1, 4 * mb);
        SimConfig c = SimConfig.of(4, 2, 4, FAST, 11);
        SimResult off = new Simulator(w, c.withInputCache(0)).run();
        SimResult on = new Simulator(w, c.withInputCache(64 * mb)).run();
        assertEquals(400, on.tasks());
        assertTrue(on.stolen() > 200 && off.stolen() > 200, "most tasks should move: " + off + " / " + on);
        // Without the cache every reply carries the 4 MB; with it, each of the 3 thieves receives it once.
        assertTrue(off.inputBytesSent() > 100 * 4 * mb, off::toString);
        assertTrue(on.inputBytesSent() < 3 * 4 * mb + on.stolen() * 1024 + 1, on::toString);
        assertTrue(on.inputBytesSaved() > 100 * 4 * mb, on::toString);
        assertEquals(0, on.cacheMisses(), "one owner's record and its thieves' caches evict alike");
        assertEquals(0, on.missingInputHandBacks());
        assertEquals(0, off.inputBytesSaved());
        assertTrue(on.bytesPerMember().mean() * 10 < off.bytesPerMember().mean(), off + " / " + on);
        assertTrue(on.makespanNanos() <= off.makespanNanos(), off + " / " + on);
    }

    @Test
    void aCacheTooSmallMissesHandsTasksBackAndStillRunsEachOnce() {
        long mb = 1 << 20;
        // Four owners, each with one array of 1 MB that all its tasks read, in chains: each owner has few tasks
        // ready at a time, so the eight thieves go from owner to owner. A thief's cache keeps one array of all it
        // receives, and each owner believes it keeps the one it sent: stealing from another owner in between
        // makes the belief wrong.
        int owners = 4;
        Workload.Builder b = Workload.builder("chains on shared inputs");
        int k = b.kernel("k");
        for (int o = 0; o < owners; o++) {
            int shared = b.array(mb);
            for (int chain = 0; chain < 16; chain++) {
                int previous = b.task(o, k, 5 * MS, 1024, new int[] {shared});
                for (int i = 1; i < 10; i++) {
                    previous = b.task(o, k, 5 * MS, 1024, new int[] {shared}, previous);
                }
            }
        }
        Workload w = b.build();
        SimResult r = new Simulator(w, SimConfig.of(12, 2, 4, FAST, 5).withInputCache(3 * mb / 2)).run();
        assertEquals(w.tasks(), r.tasks());
        assertTrue(r.cacheMisses() > 0, r::toString);
        assertTrue(r.missingInputHandBacks() >= r.cacheMisses(), "each miss hands back a task at least: " + r);
        assertTrue(r.stolen() > 0, r::toString);
        assertTrue(r.makespanNanos() >= r.lowerBoundNanos() && r.makespanNanos() < 4_000 * MS, r::toString);
    }

    @Test
    void withoutSharedInputsTheCacheChangesNothing() {
        // No array is read twice: every reply sends bytes, and the run is that without a cache to the event.
        Workload w = independent(300, 3 * MS, 64 * 1024);
        SimConfig c = SimConfig.of(8, 2, 4, FAST, 7);
        SimResult off = new Simulator(w, c.withInputCache(0)).run();
        SimResult offAgain = new Simulator(w, c.withInputCache(0)).run();
        SimResult on = new Simulator(w, c.withInputCache(1 << 30)).run();
        assertEquals(off.withWallNanos(0), offAgain.withWallNanos(0));
        assertEquals(off.withWallNanos(0), on.withWallNanos(0));
        assertTrue(off.inputBytesSent() > 0, off::toString);
    }

    @Test
    void crashedThievesAreForgottenAndTheirTasksRunAgainWithTheCache() {
        long mb = 1 << 20;
        SimConfig c = SimConfig.of(5, 2, 4, FAST, 3).withInputCache(64 * mb).withEvents(List.of(
                new MembershipEvent(MembershipEvent.Kind.CRASH, 50 * MS, 2),
                new MembershipEvent(MembershipEvent.Kind.EXPAND, 100 * MS, 2)));
        SimResult r = new Simulator(sharedInputs(400, 10 * MS, 1, 1, 4 * mb), c).run();
        assertEquals(400, r.tasks());
        assertTrue(r.reruns() > 0, "the crashed workers held tasks: " + r);
        assertTrue(r.inputBytesSaved() > 0, r::toString);
        // Each of the six thieves (four at the start, two crashed, two joined) received the shared array once.
        assertTrue(r.inputBytesSent() <= 6 * 4 * mb + 400 * 1024, r::toString);
        assertEquals(0, r.cacheMisses(), r::toString);
    }

    @Test
    void aNegativeCacheIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SimConfig.of(4, 2, 4, FAST, 1).withInputCache(-1));
        assertTrue(e.getMessage().contains("inputCacheBytes"), e.getMessage());
    }

    /** Member 0 owns 20 independent tasks of 10 ms, then a chain of 10 tasks of 10 ms, submitted after them. */
    private static Workload independentThenChain() {
        Workload.Builder b = Workload.builder("independent then chain");
        int k = b.kernel("k");
        for (int i = 0; i < 20; i++) {
            b.task(0, k, 10 * MS, 8, new int[0]);
        }
        int prev = b.task(0, k, 10 * MS, 8, new int[0]);
        for (int i = 1; i < 10; i++) {
            prev = b.task(0, k, 10 * MS, 8, new int[0], prev);
        }
        return b.build();
    }

    @Test
    void bottomLevelsCountTheLongestChainToTheEnd() {
        Workload.Builder b = Workload.builder("diamond and tail");
        int k = b.kernel("k");
        int a = b.task(0, k, MS, 8, new int[0]);
        int left = b.task(0, k, MS, 8, new int[0], a);
        int right = b.task(0, k, MS, 8, new int[0], a);
        int tail = b.task(0, k, MS, 8, new int[0], right);
        int join = b.task(0, k, MS, 8, new int[0], left, tail);
        int alone = b.task(0, k, MS, 8, new int[0]);
        int[] levels = Simulator.bottomLevels(b.build());
        // a -> right -> tail -> join is the longest chain: 4 tasks.
        assertEquals(4, levels[a]);
        assertEquals(2, levels[left]);
        assertEquals(3, levels[right]);
        assertEquals(2, levels[tail]);
        assertEquals(1, levels[join]);
        assertEquals(1, levels[alone]);
    }

    @Test
    void rankOrderStartsTheChainFirst() {
        // 2 slots, window 2. Submission order: the 20 tasks take 100 ms, then the chain 100 ms: 200 ms. Rank
        // order: the chain (ranks 10 … 1) runs on one slot from 0 to 100 ms while the other runs 10 of the 20;
        // the last 10 take 50 ms on both: 150 ms, the lower bound (300 ms of work on 2 slots).
        Workload w = independentThenChain();
        SimConfig c = SimConfig.of(1, 2, 2, FAST, 1);
        SimResult submission = new Simulator(w, c.withOrder(SimConfig.Order.SUBMISSION)).run();
        SimResult rank = new Simulator(w, c).run();
        assertEquals(200 * MS, submission.makespanNanos());
        assertEquals(150 * MS, rank.makespanNanos());
        assertEquals(150 * MS, rank.lowerBoundNanos());
    }

    @Test
    void streamPrioritiesLetAChainPassWhatWaitsOnTheStreams() {
        // Window 4 on 2 slots: two tasks wait on the streams. In launch order a chain link waits behind them;
        // with the device starting the highest rank first it does not, and the run takes 150 ms again (the
        // lower bound); so it does with the scheduler's priority levels (the default), whose links ranked 3 and
        // more go above the independent tasks' rank 1.
        Workload w = independentThenChain();
        SimConfig c = SimConfig.of(1, 2, 4, FAST, 1);
        SimResult launchOrder = new Simulator(w, c.withOrder(SimConfig.Order.RANK)).run();
        SimResult streams = new Simulator(w, c.withOrder(SimConfig.Order.RANK_AND_STREAMS)).run();
        SimResult levels = new Simulator(w, c).run();
        assertEquals(SimConfig.Order.RANK_AND_PRIORITIES, c.order());
        assertEquals(150 * MS, streams.lowerBoundNanos());
        assertEquals(150 * MS, streams.makespanNanos());
        assertEquals(150 * MS, levels.makespanNanos());
        assertTrue(launchOrder.makespanNanos() > 150 * MS, "launch order: " + launchOrder.makespanNanos());
    }

    @Test
    void oneLevelOfPriorityIsLaunchOrderExactly() {
        // With one level every task on the streams has level 0: the device starts them in the order they were put
        // there, as without priorities. The whole run must be the same, event for event.
        Workload w = Workloads.blockSparseGemm(30, 0.3, 1.0, 24, Distribution.parseDuration("lognormal:2ms:0.5"),
                64 * 1024, 3);
        SimConfig c = SimConfig.of(24, 2, 4, FAST, 5);
        SimResult rank = new Simulator(w, c.withOrder(SimConfig.Order.RANK)).run();
        SimResult one = new Simulator(w, c.withPriorityLevels(1)).run();
        SimResult six = new Simulator(w, c).run();
        assertEquals(rank.makespanNanos(), one.makespanNanos());
        assertEquals(rank.events(), one.events());
        assertEquals(rank.requests(), one.requests());
        assertEquals(rank.rankRequests(), one.rankRequests());
        assertEquals(rank.stolen(), one.stolen());
        assertEquals(rank.messagesPerMember().max(), one.messagesPerMember().max());
        assertTrue(six.events() != rank.events() || six.makespanNanos() != rank.makespanNanos(),
                "six levels changed nothing on an imbalanced workload");
    }

    /** Member 0 owns 8 chains of 50 tasks of 10 ms; members 1 to 7 own 100 independent tasks of 10 ms each. */
    private static Workload chainsAndIndependent() {
        Workload.Builder b = Workload.builder("chains and independent");
        int k = b.kernel("k");
        for (int chain = 0; chain < 8; chain++) {
            int prev = b.task(0, k, 10 * MS, 8, new int[0]);
            for (int i = 1; i < 50; i++) {
                prev = b.task(0, k, 10 * MS, 8, new int[0], prev);
            }
        }
        for (int m = 1; m < 8; m++) {
            for (int i = 0; i < 100; i++) {
                b.task(m, k, 10 * MS, 8, new int[0]);
            }
        }
        return b.build();
    }

    @Test
    void busyMembersTakeLongChainsByRank() {
        // Member 0 owns 8 chains of 50 tasks of 10 ms (ranks 50 … 1): 4,000 ms of work, a critical path of
        // 500 ms. Members 1 to 7 own 100 independent tasks each (rank 1), busy for 500 ms. Starving alone, they
        // take chains only after that, when member 0's 2 slots have run about 12 links of each: 375 ms of chain
        // remain, so the run takes at least 875 ms. The lower bound is 11,000 ms of work on 16 slots: 687.5 ms.
        // (Window 2: with 4, two chains wait on member 0's streams where nobody can take them.)
        Workload w = chainsAndIndependent();
        SimConfig c = SimConfig.of(8, 2, 2, FAST, 1);
        SimResult starvingOnly = new Simulator(w, c.withSettings(c.settings().withRankFactor(0))).run();
        SimResult byRank = new Simulator(w, c).run();
        assertEquals(687_500_000L, byRank.lowerBoundNanos());
        assertEquals(0, starvingOnly.rankRequests());
        assertTrue(starvingOnly.makespanNanos() >= 875 * MS, "starving only: " + starvingOnly.makespanNanos());
        assertTrue(byRank.rankRequests() > 0);
        assertTrue(byRank.stolen() > starvingOnly.stolen(), byRank + " against " + starvingOnly);
        assertTrue(byRank.makespanNanos() < starvingOnly.makespanNanos(), byRank + " against " + starvingOnly);
    }

    @Test
    void aStolenLinkGoesBeyondAFullWindowOnlyWithTheOverflowWhatIf() {
        // Member 0 owns 8 chains of 50 links of 10 ms; members 1 to 7 own 100 independent tasks each (rank 1),
        // so with a window of 4 their streams are full of rank-1 work when they take links by rank. Without the
        // overflow a stolen link waits for a place in the window; with it, it goes on the streams at once, one
        // beyond the window at most, and never an element of the member's own.
        Workload w = chainsAndIndependent();
        SimConfig c = SimConfig.of(8, 2, 4, FAST, 1);
        Simulator plain = new Simulator(w, c);
        SimResult plainResult = plain.run();
        SimResult zero = new Simulator(w, c.withWhatIfs(0, 0, 0)).run();
        Simulator overflow = new Simulator(w, c.withWhatIfs(1, 0, 0));
        SimResult overflowResult = overflow.run();
        assertEquals(plainResult.events(), zero.events(), "0 is the cluster's behaviour");
        assertEquals(plainResult.makespanNanos(), zero.makespanNanos());
        assertEquals(0, plain.overflowed());
        assertEquals(4, plain.maxInFlight());
        assertTrue(overflowResult.rankRequests() > 0);
        assertTrue(overflow.overflowed() > 0, "no stolen link went beyond a full window");
        assertTrue(overflow.overflowed() <= overflowResult.stolen(), "only stolen tasks overflow");
        assertEquals(5, overflow.maxInFlight());
        // Without ranks nothing has a level above 0: nothing overflows.
        Simulator noRanks = new Simulator(w, c.withOrder(SimConfig.Order.SUBMISSION).withWhatIfs(1, 0, 0));
        noRanks.run();
        assertEquals(0, noRanks.overflowed());
    }

    @Test
    void theWhatIfsSurviveTheCopiesAndAreValidated() {
        SimConfig c = SimConfig.of(4, 2, 4, FAST, 1).withWhatIfs(1, 8, 4).withMembers(6).withInputCache(0)
                .withOrder(SimConfig.Order.RANK_AND_PRIORITIES).withPriorityLevels(2).withStealing(true)
                .withEvents(List.of()).withSettings(StealSettingsHolder.SETTINGS);
        assertEquals(1, c.stolenOverflow());
        assertEquals(8, c.forgetAfterEmpty());
        assertEquals(4, c.randomEvery());
        assertThrows(IllegalArgumentException.class, () -> SimConfig.of(4, 2, 4, FAST, 1).withWhatIfs(0, 0, -1));
        assertEquals(0, SimConfig.of(4, 2, 4, FAST, 1).stolenOverflow());
        assertThrows(IllegalArgumentException.class, () -> SimConfig.of(4, 2, 4, FAST, 1).withWhatIfs(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> SimConfig.of(4, 2, 4, FAST, 1).withWhatIfs(0, -1, 0));
    }

    /** Host CPU of 1 ms per message and 0.5 ns per byte: a request or an empty reply (96 bytes) costs 1,000,048 ns. */
    private static final HostCpu ONE_MS = new HostCpu(MS, 0.5);

    /**
     * Member 0 owns {@code n} tasks of 100 ms on 2 slots; member 1 owns none and keeps asking it for work, which
     * it has none to give (its tasks all run), so it answers every request empty.
     */
    private static SimResult servingWhileRunning(int n, HostCpu cpu) {
        Workload.Builder b = Workload.builder("served");
        int k = b.kernel("k");
        for (int i = 0; i < n; i++) {
            b.task(0, k, 100 * MS, 8, new int[0]);
        }
        return new Simulator(b.build(), SimConfig.of(2, 2, 2, FAST, 1).withHostCpu(cpu)).run();
    }

    @Test
    void hostCpuMakesAMemberThatServesWhileItsSlotsAreFullEndItsKernelsLaterByWhatItSpent() {
        SimResult off = servingWhileRunning(2, HostCpu.NONE);
        assertEquals(100 * MS, off.makespanNanos());
        assertEquals(0, off.kernelDelayNanos());
        assertEquals(0, off.hostCpuPerMember().max());
        SimResult on = servingWhileRunning(2, ONE_MS);
        long perMessage = ONE_MS.nanos(Simulator.HEADER_BYTES);
        assertEquals(1_000_048, perMessage);
        // Member 1 handles a request more than member 0 when one is still on its way at the end: member 0's share
        // is the smaller one, and every message it handled came while both its slots ran.
        long member0 = Math.round(2 * on.hostCpuPerMember().mean()) - on.hostCpuPerMember().max();
        assertTrue(member0 >= 8 * perMessage, "member 0 served at least 4 requests: " + on);
        assertEquals(0, member0 % perMessage, "whole messages: " + on);
        assertEquals(member0, on.kernelDelayNanos(), "all of it was taken from its kernels");
        // Each message cost each of the two kernels half its CPU time: both end that much later.
        assertEquals(100 * MS + member0 / 2, on.makespanNanos(), on::toString);
        assertEquals(on.makespanNanos(), on.lowerBoundNanos() + member0 / 2,
                "the bound counts the work, not the delay");
    }

    @Test
    void hostCpuTakesNothingFromKernelsWhileASlotIsFree() {
        // One task on two slots: the handling runs on the free slot's core.
        SimResult on = servingWhileRunning(1, ONE_MS);
        assertTrue(on.hostCpuPerMember().max() >= 2 * ONE_MS.nanos(Simulator.HEADER_BYTES), on::toString);
        assertEquals(0, on.kernelDelayNanos());
        assertEquals(100 * MS, on.makespanNanos());
    }

    @Test
    void withoutHostCpuARunIsTheSameToTheEvent() {
        Workload w = independent(300, 3 * MS, 4096);
        SimConfig c = SimConfig.of(8, 2, 4, FAST, 7);
        SimResult plain = new Simulator(w, c).run();
        for (SimConfig same : List.of(c.withHostCpu(HostCpu.NONE), c.withHostCpu(new HostCpu(0, 0)))) {
            SimResult r = new Simulator(w, same).run();
            assertEquals(plain, r.withWallNanos(plain.wallNanos()));
        }
        SimResult on = new Simulator(w, c.withHostCpu(new HostCpu(200_000, 1))).run();
        assertTrue(on.kernelDelayNanos() > 0, on::toString);
        assertTrue(on.makespanNanos() > plain.makespanNanos(), on + " against " + plain);
    }

    @Test
    void hostCpuCostsAreValidatedAndSurviveTheCopies() {
        assertThrows(IllegalArgumentException.class, () -> new HostCpu(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new HostCpu(0, -0.5));
        assertThrows(IllegalArgumentException.class, () -> new HostCpu(0, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new HostCpu(0, Double.POSITIVE_INFINITY));
        assertTrue(!HostCpu.NONE.on() && new HostCpu(0, 0.1).on() && new HostCpu(1, 0).on());
        assertEquals(51_000 + 484, new HostCpu(51_000, 4.84).nanos(100));
        assertEquals("51.0 us per message + 4.84 ns per byte", new HostCpu(51_000, 4.84).toString());
        SimConfig c = SimConfig.of(4, 2, 4, FAST, 1).withHostCpu(ONE_MS).withWhatIfs(1, 0, 0).withMembers(6)
                .withInputCache(0).withOrder(SimConfig.Order.RANK).withPriorityLevels(2).withStealing(false)
                .withEvents(List.of()).withSettings(StealSettingsHolder.SETTINGS);
        assertEquals(ONE_MS, c.hostCpu());
        assertEquals(HostCpu.NONE, SimConfig.of(4, 2, 4, FAST, 1).hostCpu());
        assertThrows(NullPointerException.class, () -> SimConfig.of(4, 2, 4, FAST, 1).withHostCpu(null));
    }

    private static final class StealSettingsHolder {
        static final dev.polygpu.cluster.policy.StealSettings SETTINGS =
                dev.polygpu.cluster.policy.StealSettings.defaults(4);
    }

    @Test
    void withDirectoriesOwnersReportTheirSurplusAndStarvingThievesAreSentToIt() {
        // Eight programs among 32 members, the last with 2,000 tasks and the others with 10 each: with 4
        // directories (the first 4 programs) the heavy owner reports to one of them, and a thief whose request came
        // back empty is sent there.
        Workload.Builder b = Workload.builder("one heavy owner");
        int k = b.kernel("k");
        for (int owner = 0; owner < 8; owner++) {
            for (int i = 0; i < (owner == 7 ? 2_000 : 10); i++) {
                b.task(owner, k, MS, 1024, new int[] {b.array(1024)});
            }
        }
        Workload w = b.build();
        SimConfig plain = SimConfig.of(32, 2, 4, FAST, 5);
        SimResult without = new Simulator(w, plain).run();
        SimResult with = new Simulator(w, plain.withDirectories(4)).run();
        assertTrue(without.notes().isEmpty(), without.notes()::toString);
        assertEquals(1, with.notes().size(), with.notes()::toString);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "4 directories: ([0-9,]+) load reports, ([0-9,]+) requests forwarded by a directory")
                .matcher(with.notes().getFirst());
        assertTrue(m.matches(), with.notes().getFirst());
        long reports = Long.parseLong(m.group(1).replace(",", ""));
        long forwarded = Long.parseLong(m.group(2).replace(",", ""));
        assertTrue(reports >= 2, "the owner reported its surplus, and its end: " + reports);
        assertTrue(reports < 200, "reports when the surplus doubles, halves, ends: not one per task: " + reports);
        assertTrue(forwarded > 0, "directories sent thieves to the owner");
        assertTrue(with.stolen() > 0);
        assertEquals(2_070, with.tasks());
        assertThrows(IllegalArgumentException.class, () -> plain.withDirectories(-1));
    }

    /** One owner (member 0) with 20 chains of 12 links of 1 ms each. */
    private static Workload chainsAtOneOwner() {
        Workload.Builder b = Workload.builder("chains at one owner");
        int k = b.kernel("k");
        for (int chain = 0; chain < 20; chain++) {
            int previous = -1;
            for (int i = 0; i < 12; i++) {
                previous = b.task(0, k, MS, 1024, new int[] {b.array(1024)},
                        previous < 0 ? new int[0] : new int[] {previous});
            }
        }
        return b.build();
    }

    @Test
    void pushedContinuationsKeepAChainAtTheThiefThatRanItsLastLinkWhenItHoldsNothingElseStolen() {
        // 8 members: thieves that ran a link get the next one unasked.
        Workload w = chainsAtOneOwner();
        SimConfig plain = SimConfig.of(8, 2, 4, FAST, 3);
        SimResult without = new Simulator(w, plain).run();
        SimResult with = new Simulator(w, plain.withSettings(plain.settings().withPushContinuations(true))).run();
        assertTrue(without.notes().isEmpty(), without.notes()::toString);
        assertEquals(1, with.notes().size(), with.notes()::toString);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9,]+) continuations pushed to their thieves")
                .matcher(with.notes().getFirst());
        assertTrue(m.matches(), with.notes().getFirst());
        long pushed = Long.parseLong(m.group(1).replace(",", ""));
        assertTrue(pushed > 40, "most links after the first of each stolen chain went unasked: " + pushed);
        assertTrue(with.stolen() >= pushed, "a pushed link counts as stolen: " + with.stolen() + " >= " + pushed);
        assertTrue(with.requests() < without.requests(), "fewer requests: " + with.requests() + " against "
                + without.requests());
        assertEquals(240, with.tasks());
        assertTrue(with.makespanNanos() >= with.lowerBoundNanos());
    }

    @Test
    void theWhatIfsOfTheGoalTogetherLoseNothingWhenMembersJoinLeaveAndCrash() {
        // All five what-ifs; thieves that crash hold pushed links. Each task completes once (the simulator checks
        // it and throws otherwise), and the crashed members' tasks run again at their owner.
        SimConfig base = SimConfig.of(8, 2, 4, FAST, 11);
        SimConfig c = withFailAfter(base, 20 * MS,
                new MembershipEvent(MembershipEvent.Kind.EXPAND, 3 * MS, 2),
                new MembershipEvent(MembershipEvent.Kind.CRASH, 6 * MS, 3),
                new MembershipEvent(MembershipEvent.Kind.SHRINK, 9 * MS, 2))
                .withSettings(base.settings().withRankChunk(1).withPushContinuations(true))
                .withWhatIfs(1, 0, 8).withDirectories(2);
        SimResult r = new Simulator(chainsAtOneOwner(), c).run();
        assertEquals(240, r.tasks());
        assertTrue(r.reruns() > 0, "the crashed members held tasks: " + r);
        assertTrue(r.makespanNanos() >= 6 * MS + 20 * MS, "the lost links wait for the failure timeout: " + r);
        assertTrue(r.notes().stream().anyMatch(n -> n.endsWith("continuations pushed to their thieves")),
                r.notes()::toString);
    }

    /**
     * Member 0 owns two waves of 40 independent 10 ms tasks, each behind a 50 ms task that nothing can overlap:
     * while a gate runs, the other members find nothing and back off (1, 2, 4 … ms).
     */
    private static Workload waves() {
        Workload.Builder b = Workload.builder("waves");
        int k = b.kernel("k");
        int gate = b.task(0, k, 50 * MS, 8, new int[0]);
        for (int wave = 0; wave < 2; wave++) {
            int[] children = new int[40];
            for (int i = 0; i < children.length; i++) {
                children[i] = b.task(0, k, 10 * MS, 8, new int[] {b.array(1024)}, gate);
            }
            if (wave == 0) {
                gate = b.task(0, k, 50 * MS, 8, new int[0], children);
            }
        }
        return b.build();
    }

    @Test
    void wakeUpsSendTheThievesAProgramTurnedAwayBackAsSoonAsItsNextWaveIsReady() {
        Workload w = waves();
        SimConfig plain = SimConfig.of(4, 2, 4, FAST, 5);
        SimResult without = new Simulator(w, plain).run();
        SimResult with = new Simulator(w, plain.withSettings(plain.settings().withWakeThieves(true))).run();
        assertTrue(without.notes().isEmpty(), without.notes()::toString);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "([0-9,]+) thieves woken by the programs that had sent them away, ([0-9,]+) of them with work")
                .matcher(with.notes().getFirst());
        assertTrue(m.matches(), with.notes()::toString);
        long woken = Long.parseLong(m.group(1).replace(",", ""));
        long withWork = Long.parseLong(m.group(2).replace(",", ""));
        assertTrue(withWork >= 3 && withWork <= woken, "each wave has work for every thief woken first: "
                + withWork + " of " + woken);
        assertTrue(woken >= 6 && woken <= 12, "the three thieves, once per wave and maybe again within one: "
                + woken);
        assertEquals(82, with.tasks());
        // Each wave: 400 ms of work on 8 slots is 50 ms at best, after its gate. Without wake-ups the thieves
        // sit out the rest of their back-off (up to 32 ms here) when a wave becomes ready.
        assertTrue(with.makespanNanos() < without.makespanNanos(), "with wake-ups " + with.makespanNanos() / MS
                + " ms, without " + without.makespanNanos() / MS + " ms");
        assertTrue(with.makespanNanos() >= with.lowerBoundNanos());
        assertTrue(with.makespanNanos() <= 50 * MS * 4 + 10 * MS, "two gates and two waves of 50 ms each, and "
                + "little more: " + with.makespanNanos() / MS + " ms");
    }
}
