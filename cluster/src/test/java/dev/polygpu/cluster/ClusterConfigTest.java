package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {

    private static Map<String, String> options(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void parsesEveryOption() {
        ClusterConfig c = ClusterConfig.parse(options("members", "10.0.0.1:6000, 10.0.0.2", "name", "lab",
                "bind", "127.0.0.2", "port", "6000", "secret", "s3", "role", "worker", "heartbeat", "2s",
                "failAfter", "8s", "stealing", "false", "threshold", "7", "chunk", "3", "rankFactor", "1.5",
                "maxHops", "1",
                "inputCache", "1.5MB", "stolenOverflow", "2", "randomEvery", "5", "rankChunk", "3", "directories", "4",
                "pushContinuations", "false", "warmUp", "true",
                "faults", "drop=0.5,delay=20ms,seed=3"));
        assertEquals(List.of("10.0.0.1:6000", "10.0.0.2:5701"), c.members());
        assertEquals("lab", c.clusterName());
        assertEquals("127.0.0.2", c.bindAddress());
        assertEquals(6000, c.port());
        assertEquals("s3", c.secret());
        assertEquals(ClusterConfig.Role.WORKER, c.role());
        assertEquals(Duration.ofSeconds(2), c.heartbeat());
        assertEquals(Duration.ofSeconds(8), c.failAfter());
        assertFalse(c.stealing());
        assertEquals(7, c.threshold());
        assertEquals(3, c.chunk());
        assertEquals(1.5, c.rankFactor());
        assertEquals(1, c.maxHops());
        assertEquals(new FaultInjection(0.5, 20, 3), c.faults());
        assertEquals(1536L << 10, c.inputCacheBytes());
        assertEquals(2, c.stolenOverflow());
        assertEquals(3, c.rankChunk());
        assertEquals(5, c.randomEvery());
        assertEquals(4, c.directories());
        assertFalse(c.pushContinuations());
        assertTrue(c.warmUp());
    }

    @Test
    void theWarmUpIsOffUnlessAskedForAndKeptByTheOtherWithers() {
        ClusterConfig c = ClusterConfig.loopback();
        assertFalse(c.warmUp(), "a program's member does not warm up by default");
        ClusterConfig on = c.withWarmUp(true).withChunk(2).withRole(ClusterConfig.Role.WORKER).withInputCacheBytes(0);
        assertTrue(on.warmUp());
        assertTrue(on.toString().contains(", warmUp=true"), on.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("warmUp", "maybe")));
        assertEquals("cluster option 'warmUp' must be true or false, got 'maybe'", e.getMessage());
    }

    @Test
    void theFivePoliciesOfIssue7AreOnByDefault() {
        ClusterConfig c = ClusterConfig.loopback();
        assertEquals(1, c.stolenOverflow());
        assertEquals(8, c.randomEvery());
        assertEquals(1, c.rankChunk());
        assertEquals(16, c.directories());
        assertTrue(c.pushContinuations());
        assertTrue(c.toString().contains("stolenOverflow=1, randomEvery=8, rankChunk=1, directories=16, "
                + "pushContinuations=true"), c.toString());
        ClusterConfig off = c.withStolenOverflow(0).withRandomEvery(0).withRankChunk(0).withDirectories(0)
                .withPushContinuations(false);
        assertTrue(off.toString().contains("stolenOverflow=off, randomEvery=off, rankChunk=the chunk, "
                + "directories=none, pushContinuations=false"), off.toString());
        ClusterConfig kept = off.withDirectories(3).withPushContinuations(true).withChunk(2).withWarmUp(true)
                .withRole(ClusterConfig.Role.WORKER).withThreshold(4).withRandomEvery(2);
        assertEquals(3, kept.directories(), "kept by the other withers");
        assertTrue(kept.pushContinuations(), "kept by the other withers");
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("directories", "-1")));
        assertEquals("cluster option 'directories' must be 0 (none) or a positive number of programs, the same on every"
                + " member, got -1", d.getMessage());
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("pushContinuations", "sometimes")));
        assertEquals("cluster option 'pushContinuations' must be true or false, got 'sometimes'", p.getMessage());
    }

    @Test
    void programsWakeTheThievesTheySentAwayUnlessTurnedOff() {
        ClusterConfig c = ClusterConfig.loopback();
        assertTrue(c.wakeThieves());
        assertTrue(c.toString().contains("pushContinuations=true, wakeThieves=true"), c.toString());
        ClusterConfig off = ClusterConfig.parse(options("wakeThieves", "false"));
        assertFalse(off.wakeThieves());
        ClusterConfig kept = off.withChunk(2).withWarmUp(true).withDirectories(0).withPushContinuations(false)
                .withRole(ClusterConfig.Role.WORKER);
        assertFalse(kept.wakeThieves(), "kept by the other withers");
        assertTrue(kept.withWakeThieves(true).wakeThieves());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("wakeThieves", "often")));
        assertEquals("cluster option 'wakeThieves' must be true or false, got 'often'", e.getMessage());
    }

    @Test
    void theStolenOverflowAndRandomRequestsAreNeverNegative() {
        ClusterConfig c = ClusterConfig.loopback();
        ClusterConfig on = c.withStolenOverflow(2).withRandomEvery(7).withRankFactor(3);
        assertEquals(2, on.stolenOverflow(), "kept by the other withers");
        assertEquals(7, on.randomEvery(), "kept by the other withers");
        assertTrue(on.toString().contains("stolenOverflow=2, randomEvery=7"), on.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("stolenOverflow", "-1")));
        assertEquals("cluster option 'stolenOverflow' must be 0 (off) or a positive number of elements, got -1",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ClusterConfig.parse(options("randomEvery", "-8")));
        assertEquals("cluster option 'randomEvery' must be 0 (off) or a positive number N (every Nth steal request goes"
                + " to a member drawn at random), got -8", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ClusterConfig.parse(options("randomEvery", "often")));
        assertTrue(e.getMessage().endsWith(", got 'often'"), e.getMessage());
    }

    @Test
    void theRankChunkIsNeverNegative() {
        ClusterConfig c = ClusterConfig.loopback();
        ClusterConfig two = c.withRankChunk(2).withChunk(3).withRandomEvery(8).withWarmUp(true);
        assertEquals(2, two.rankChunk(), "kept by the other withers");
        assertTrue(two.toString().contains("rankChunk=2"), two.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("rankChunk", "-1")));
        assertEquals("cluster option 'rankChunk' must be 0 (as many as cluster option 'chunk') or a positive number of"
                + " elements, got -1", e.getMessage());
    }

    @Test
    void theInputCacheIsASizeAndZeroTurnsItOff() {
        assertEquals(256L << 20, ClusterConfig.loopback().inputCacheBytes(), "the default");
        assertEquals(0, ClusterConfig.parse(options("inputCache", "0")).inputCacheBytes());
        assertEquals(65536, ClusterConfig.parse(options("inputCache", "65536")).inputCacheBytes());
        assertEquals(1L << 30, ClusterConfig.parse(options("inputCache", "1gb")).inputCacheBytes());
        for (String bad : new String[] {"", "-1MB", "lots", "5TB"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ClusterConfig.parse(options("inputCache", bad)), bad);
            assertTrue(e.getMessage().startsWith("cluster option 'inputCache': "), e.getMessage());
        }
    }

    @Test
    void theRankFactorIsTwoByDefaultZeroTurnsAskingByRankOffAndItReachesTheStealSettings() {
        assertEquals(2.0, ClusterConfig.loopback().rankFactor(), "the default");
        assertEquals(dev.polygpu.cluster.policy.StealSettings.DEFAULT_RANK_FACTOR,
                ClusterConfig.loopback().rankFactor());
        ClusterConfig off = ClusterConfig.parse(options("rankFactor", "0"));
        assertEquals(0.0, off.rankFactor());
        assertTrue(off.toString().contains("rankFactor=off"), off.toString());
        assertEquals(1.0, ClusterConfig.parse(options("rankFactor", " 1 ")).rankFactor());
        assertEquals(4.0, ClusterConfig.loopback().withRankFactor(4).rankFactor());
        for (String bad : new String[] {"0.5", "-2", "NaN", "Infinity"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ClusterConfig.parse(options("rankFactor", bad)), bad);
            assertEquals("cluster option 'rankFactor' must be 0 (never ask by rank) or a number of at least 1, got "
                    + bad, e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("rankFactor", "double")));
        assertEquals("cluster option 'rankFactor' must be a number, got 'double'", e.getMessage());
    }

    @Test
    void aLongerHeartbeatStretchesTheDefaultFailureTimeout() {
        ClusterConfig c = ClusterConfig.parse(options("heartbeat", "4s"));
        assertEquals(Duration.ofSeconds(8), c.failAfter(), "at least two heartbeats");
    }

    @Test
    void heartbeatAndFailureTimeoutAreCheckedTogetherWhateverTheirOrder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options("failAfter", "3s", "heartbeat", "2s")));
        assertEquals("cluster option 'failAfter' must be a whole number of seconds, at least two heartbeats (4s, with"
                + " cluster option 'heartbeat' at 2s), got 3s: raise cluster option 'failAfter' or lower cluster option"
                + " 'heartbeat'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ClusterConfig.parse(options("heartbeat", "500ms")));
        assertTrue(e.getMessage().endsWith("got 500ms"), e.getMessage());
        assertEquals(Duration.ofSeconds(6), ClusterConfig.parse(options("failAfter", "6s", "heartbeat", "3s"))
                .failAfter());
    }

    @Test
    void theSecretNeverShowsAndEmptyMeansNone() {
        ClusterConfig c = ClusterConfig.loopback().withSecret("hunter2");
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertNull(ClusterConfig.loopback().withSecret("").secret());
    }

    @Test
    void aNonLoopbackBindNeedsASecret() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.loopback().withBind("10.1.2.3"));
        assertTrue(e.getMessage().contains("needs a cluster secret"), e.getMessage());
        assertEquals("10.1.2.3", ClusterConfig.loopback().withSecret("x").withBind("10.1.2.3").bindAddress());
    }

    @Test
    void aSecretGivenAfterANonLoopbackBindCounts() {
        // The launcher passes bind before secret (and a worker's flags come in the user's order).
        ClusterConfig c = ClusterConfig.parse(options("members", "10.1.2.3:5701", "bind", "10.1.2.3",
                "secret", "s3"));
        assertEquals("10.1.2.3", c.bindAddress());
        assertEquals("s3", c.secret());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "members|10.0.0.1:57x1|not a number",
        "members|10.0.0.1:70000|outside 1..65535",
        "members|:5701|must be host:port",
        "port|0|cluster option 'port' must be a port number in 1..65436 (a member listens on the first free one of the 100 ports from there), got 0",
        "port|65437|must be a port number in 1..65436",
        "port|ten|must be a port number in 1..65436 (a member listens on the first free one of the 100 ports from there), got 'ten'",
        "role|boss|'program' or 'worker'",
        "heartbeat|500ms|whole number of seconds",
        "failAfter|1s|at least two heartbeats",
        "stealing|maybe|true or false",
        "threshold|-1|cluster option 'threshold' must be 0 (automatic: the device's window + 2) or a positive number of elements, got -1",
        "chunk|x|cluster option 'chunk' must be 0 (automatic: half the window) or a positive number of elements, got 'x'",
        "maxHops|99|0..16",
        "faults|drop=2|cluster option 'faults': drop (a probability) must be in [0, 1), got 2.0",
        "faults|jitter=3|cluster option 'faults': unknown key 'jitter'",
        "colour|red|unknown cluster option 'colour'",
        "name|'  '|cluster option 'name' must not be empty: give the name every member of the cluster is started with",
        "bind|'  '|cluster option 'bind' must not be empty: give an address of this machine, such as 127.0.0.1",
        "members|10.0.0.1:x|cluster option 'members': member address '10.0.0.1:x' has port 'x'",
        "heartbeat|0|cluster option 'heartbeat' must be a whole number of seconds, at least 1s (such as 1s or 2s), got 0s",
    })
    void badValuesSayWhatIsWrong(String name, String value, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterConfig.parse(options(name, value)));
        assertTrue(e.getMessage().contains(expected), name + "=" + value + ": " + e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"250ms,250", "2s,2000", "1.5s,1500", "3,3000"})
    void durations(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), ClusterConfig.duration("d", text));
    }
}
