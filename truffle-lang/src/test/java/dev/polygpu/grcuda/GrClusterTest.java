package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.StolenElement;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code grcuda.Cluster*} options and {@code getClusterStats()}, through the polyglot API with
 * {@link RecordingExchangeProvider} as the cluster: what the options become, when the exchange is attached and
 * closed, and how its failures reach the guest. Each test uses its own member addresses, by which the provider
 * files what it saw.
 */
class GrClusterTest {
    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();

    /** A context with {@code options} (name, value, …) and no access to the process environment. */
    private static Context.Builder builder(String... options) {
        Context.Builder b = Context.newBuilder("grcuda").engine(ENGINE.get());
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b;
    }

    /** Holds the device {@code ms} milliseconds of device time, then writes {@code y[0]}. */
    private static final String NAP = """
            __global__ void nap(float *y, int ms) {
                for (int k = 0; k < ms; k++) __nanosleep(1000000);
                y[0] = ms;
            }""";
    /** {@code y[i] = 1 + i} for the first {@code n} elements. */
    private static final String FILL = """
            __global__ void fill(float *y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = 1.0f + i;
            }""";
    private static final String SQUARE = """
            __global__ void square(float *x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] * x[i];
            }""";

    @Test
    void withoutAClusterNothingIsAttachedAndTheStatsSayAlone() {
        try (Context c = builder().build()) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", 64);
            for (int i = 0; i < 64; i++) {
                x.setArrayElement(i, i + 1.5f);
            }
            cu.getMember("buildkernel").execute(SQUARE, "square(x: inout pointer float, n: sint32)")
                    .execute(1, 64).execute(x, 64);
            assertEquals(3.5f * 3.5f, x.getArrayElement(2).asFloat());
            Value stats = c.eval("grcuda", "getClusterStats()");
            assertEquals(List.of("member", "members"), List.copyOf(stats.getMemberKeys()));
            assertEquals("", stats.getMember("member").asString());
            assertEquals(1, stats.getMember("members").asInt());
            assertEquals("", c.eval("grcuda", "getoptions()").getMember("grcuda.Cluster").asString());
        }
    }

    @Test
    void onlyTheMembersAndTheRoleGoToTheClusterByDefault() {
        String members = "127.0.0.1:5711,127.0.0.1:5712";
        try (Context c = builder("grcuda.Cluster", " " + members + " ").build()) {
            assertNull(RecordingExchangeProvider.attachedWith(members), "joins when the device is first used");
            c.eval("grcuda", "getClusterStats()");
            RecordingExchangeProvider.Attachment a = RecordingExchangeProvider.attachedWith(members);
            assertNotNull(a);
            assertEquals(Map.of("members", members, "role", "program"), a.options());
        }
    }

    @Test
    void givenOptionsReachTheClusterByItsNames() {
        String members = "127.0.0.1:5721";
        try (Context c = builder("grcuda.Cluster", members, "grcuda.ClusterName", "lab",
                "grcuda.ClusterBind", "localhost", "grcuda.ClusterPort", "5821", "grcuda.ClusterSecret", "s3cret",
                "grcuda.ClusterHeartbeat", "2s", "grcuda.ClusterFailAfter", "9s", "grcuda.ClusterStealing", "false",
                "grcuda.ClusterThreshold", "6", "grcuda.ClusterChunk", "3", "grcuda.ClusterRankFactor", "3",
                "grcuda.ClusterStolenOverflow", "2", "grcuda.ClusterRandomEvery", "5", "grcuda.ClusterRankChunk", "3",
                "grcuda.ClusterDirectories", "4", "grcuda.ClusterPushContinuations", "false",
                "grcuda.ClusterWakeThieves", "false", "grcuda.ClusterFaults", "drop=0.1,seed=4").build()) {
            c.eval("grcuda", "DeviceArray(\"float\", 4)");
            Map<String, String> expected = Map.ofEntries(Map.entry("members", members),
                    Map.entry("role", "program"), Map.entry("name", "lab"), Map.entry("bind", "localhost"),
                    Map.entry("port", "5821"), Map.entry("secret", "s3cret"), Map.entry("heartbeat", "2s"),
                    Map.entry("failAfter", "9s"), Map.entry("stealing", "false"), Map.entry("threshold", "6"),
                    Map.entry("chunk", "3"), Map.entry("rankFactor", "3.0"), Map.entry("stolenOverflow", "2"),
                    Map.entry("randomEvery", "5"), Map.entry("rankChunk", "3"), Map.entry("directories", "4"),
                    Map.entry("pushContinuations", "false"), Map.entry("wakeThieves", "false"),
                    Map.entry("faults", "drop=0.1,seed=4"));
            assertEquals(expected, RecordingExchangeProvider.attachedWith(members).options());
            Value options = c.eval("grcuda", "getoptions()");
            assertEquals("****", options.getMember("grcuda.ClusterSecret").asString());
            assertEquals("5821", options.getMember("grcuda.ClusterPort").asString());
            assertEquals("3.0", options.getMember("grcuda.ClusterRankFactor").asString());
            assertEquals("2", options.getMember("grcuda.ClusterStolenOverflow").asString());
            assertEquals("5", options.getMember("grcuda.ClusterRandomEvery").asString());
            assertEquals("3", options.getMember("grcuda.ClusterRankChunk").asString());
            assertEquals("4", options.getMember("grcuda.ClusterDirectories").asString());
            assertEquals("false", options.getMember("grcuda.ClusterPushContinuations").asString());
            assertEquals("false", options.getMember("grcuda.ClusterWakeThieves").asString());
            assertFalse(options.toString().contains("s3cret"), options.toString());
        }
    }

    @Test
    void theSecretComesFromTheEnvironmentWhenTheOptionIsEmpty() {
        String members = "127.0.0.1:5731";
        try (Context c = builder("grcuda.Cluster", members).environment("POLYGPU_CLUSTER_SECRET", "from-env").build()) {
            c.eval("grcuda", "getClusterStats()");
            assertEquals("from-env", RecordingExchangeProvider.attachedWith(members).options().get("secret"));
            assertEquals("****", c.eval("grcuda", "getoptions()").getMember("grcuda.ClusterSecret").asString());
        }
        String other = "127.0.0.1:5732";
        try (Context c = builder("grcuda.Cluster", other, "grcuda.ClusterSecret", "from-option")
                .environment("POLYGPU_CLUSTER_SECRET", "from-env").build()) {
            c.eval("grcuda", "getClusterStats()");
            assertEquals("from-option", RecordingExchangeProvider.attachedWith(other).options().get("secret"));
        }
    }

    @Test
    void getClusterStatsReturnsTheExchangeCounters() {
        try (Context c = builder("grcuda.Cluster", "127.0.0.1:5741").build()) {
            Value stats = c.eval("grcuda", "getClusterStats()");
            assertEquals(List.of("member", "members", "stolen", "given", "bytesSent"),
                    List.copyOf(stats.getMemberKeys()));
            assertEquals("member-7", stats.getMember("member").asString());
            assertEquals(3, stats.getMember("members").asInt());
            assertEquals(11L, stats.getMember("stolen").asLong());
            assertEquals(1L << 33, stats.getMember("bytesSent").asLong());
            assertFalse(stats.canExecute());
            String reason = c.eval("grcuda", "polygpu_device_info()").asString();
            assertTrue(reason.endsWith(", as member member-7 of the cluster at 127.0.0.1:5741 (3 members)"), reason);
        }
    }

    @Test
    void closingLeavesTheClusterBeforeTheSchedulerClosesAndPrintsTheStatsWhenAsked() {
        String members = "127.0.0.1:5751";
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = builder("grcuda.Cluster", members, "grcuda.ClusterStats", "true").err(err).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", 32);
            for (int i = 0; i < 32; i++) {
                x.setArrayElement(i, i - 7.25f);
            }
            cu.getMember("buildkernel").execute(SQUARE, "square(x: inout pointer float, n: sint32)")
                    .execute(1, 32).execute(x, 32);
            assertTrue(RecordingExchangeProvider.attachedWith(members).events().isEmpty());
        }
        assertEquals(List.of("exchange closed", "scheduler closed"),
                RecordingExchangeProvider.attachedWith(members).events());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cluster member member-7 (3 members)\n"),
                err.toString(StandardCharsets.UTF_8));

        String quiet = "127.0.0.1:5752";
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        try (Context c = builder("grcuda.Cluster", quiet).err(none).build()) {
            c.eval("grcuda", "getClusterStats()");
        }
        assertEquals(List.of("exchange closed", "scheduler closed"),
                RecordingExchangeProvider.attachedWith(quiet).events());
        assertEquals("", none.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFailedLeaveIsReportedAndTheSchedulerStillCloses() {
        String members = "127.0.0.1:5755";
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = builder("grcuda.Cluster", members, "grcuda.ClusterName", "leave-fails").err(err).build()) {
            c.eval("grcuda", "getClusterStats()");
        }
        assertEquals(List.of("exchange closed", "scheduler closed"),
                RecordingExchangeProvider.attachedWith(members).events());
        assertEquals("polygpu: leaving the cluster failed (IllegalStateException): 2 elements given to member-3 did"
                + " not come back\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aRefusedOptionIsAGuestErrorThatNamesTheOptionAndTheReason() {
        try (Context c = builder("grcuda.Cluster", "127.0.0.1:5761", "grcuda.ClusterName", "refuse").build()) {
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> c.eval("grcuda", "DeviceArray(\"float\", 4)"));
            assertTrue(e.isGuestException(), e::toString);
            assertEquals("grcuda.Cluster=127.0.0.1:5761: a cluster option was refused: grcuda.ClusterHeartbeat must be"
                    + " a whole number of seconds, at least 1s (such as 1s or 2s), got 500ms (fix the grcuda.Cluster*"
                    + " option it names; polygpu --help lists them)", e.getMessage());
            // The context is not left half-made: the next use tries to join again and fails the same way.
            e = assertThrows(PolyglotException.class, () -> c.eval("grcuda", "getClusterStats()"));
            assertTrue(e.getMessage().startsWith("grcuda.Cluster=127.0.0.1:5761: a cluster option was refused"),
                    e.getMessage());
        }
    }

    @Test
    void aFailedJoinIsAGuestErrorThatSaysWhatToCheck() {
        try (Context c = builder("grcuda.Cluster", "127.0.0.1:5771", "grcuda.ClusterName", "unreachable").build()) {
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> c.eval("grcuda", "getClusterStats()"));
            assertTrue(e.isGuestException(), e::toString);
            assertTrue(e.getMessage().startsWith("grcuda.Cluster=127.0.0.1:5771: could not join the cluster: cannot"
                    + " listen on 127.0.0.1:5701..5800 (this member listens on grcuda.ClusterBind"), e.getMessage());
        }
    }

    /**
     * What a thief would get for kernels on raw memory and on addresses: the message names the whole allocation
     * (its id and size) with the byte offset the argument starts at; and an {@code out} argument that is only
     * part of an array is sent as read and written, since the thief sends the whole array back and the bytes the
     * kernel does not write must be the owner's, not zeros.
     */
    @Test
    void aKernelOnPartOfAnArrayCarriesTheWholeArrayToAThief() {
        String members = "127.0.0.1:5781";
        try (Context c = builder("grcuda.Cluster", members, "grcuda.InFlightWindow", "1").build()) {
            Value cu = c.eval("grcuda", "CU");
            Value nap = cu.getMember("buildkernel").execute(NAP, "nap(y: inout pointer float, ms: sint32)");
            Value fill = cu.getMember("buildkernel").execute(FILL, "fill(y: out pointer float, n: sint32)");
            Value whole = cu.getMember("DeviceArray").execute("float", 3, 64);   // 768 bytes
            Value byAddress = cu.getMember("DeviceArray").execute("float", 4, 64);   // 1024 bytes
            Value byView = cu.getMember("DeviceArray").execute("float", 5, 64);   // 1280 bytes
            Value raw = cu.getMember("cudaMalloc").execute(400);
            for (int j = 0; j < 64; j++) {
                byAddress.getArrayElement(0).setArrayElement(j, -2f);
                byView.getArrayElement(4).setArrayElement(j, -3f);
            }
            // the device is busy with one kernel (a window of 1), so the next ones wait, ready, to be stolen
            nap.execute(1, 1).execute(cu.getMember("DeviceArray").execute("float", 1), 1500);
            fill.execute(1, 256).execute(whole, 3 * 64);
            fill.execute(1, 64).execute(byAddress.getMember("pointer").asLong() + 4 * 64, 64);
            fill.execute(1, 64).execute(byView.getArrayElement(2), 64);
            fill.execute(1, 128).execute(raw, 100);

            Scheduler scheduler = RecordingExchangeProvider.attachedWith(members).scheduler();
            Map<Long, ElementMessage.ArrayArg> bySize = new java.util.TreeMap<>();
            List<StolenElement> taken = new java.util.ArrayList<>();
            for (StolenElement e = scheduler.steal(); e != null; e = scheduler.steal()) {
                taken.add(e);
                ElementMessage m = e.message();
                assertEquals("fill", m.label());
                assertEquals(2, m.args().size(), m::toString);
                ElementMessage.ArrayArg a = (ElementMessage.ArrayArg) m.args().get(0);
                bySize.put(a.arrayBytes(), a);
            }
            assertEquals(List.of(400L, 768L, 1024L, 1280L), List.copyOf(bySize.keySet()), bySize::toString);
            assertEquals(List.of(0L, 0L, 256L, 512L),
                    bySize.values().stream().map(ElementMessage.ArrayArg::byteOffset).toList());
            assertEquals(List.of(AccessMode.WRITE, AccessMode.WRITE, AccessMode.READ_WRITE, AccessMode.READ_WRITE),
                    bySize.values().stream().map(ElementMessage.ArrayArg::mode).toList());
            taken.forEach(StolenElement::giveBack);   // they run here after all

            assertEquals(1f + 63, byAddress.getArrayElement(1).getArrayElement(63).asFloat());
            assertEquals(-2f, byAddress.getArrayElement(0).getArrayElement(5).asFloat());
            assertEquals(1f + 10, byView.getArrayElement(2).getArrayElement(10).asFloat());
            assertEquals(-3f, byView.getArrayElement(4).getArrayElement(63).asFloat());
            assertEquals(1f + 191, whole.getArrayElement(2).getArrayElement(63).asFloat());
        }
    }

    /**
     * With two CPU devices standing in for GPUs, a ready kernel on either may be taken: a cluster layer reads its
     * array from the device it was placed on (the host's copy being stale), writes its result there, and the program
     * reads that result. {@code min-transfer-size} places each kernel where its array is, so the kernels need no
     * transfer and wait, ready, behind the nap that fills the window of 1.
     */
    @Test
    void withTwoDevicesAKernelReadyOnEitherIsTakenWithThatDevicesCopyAndItsResultIsRead() {
        String members = "127.0.0.1:5791";
        try (Context c = builder("grcuda.Cluster", members, "grcuda.InFlightWindow", "1", "grcuda.Device", "cpu",
                "grcuda.NumberOfGPUs", "2", "grcuda.DeviceSelectionPolicy", "min-transfer-size").build()) {
            Value cu = c.eval("grcuda", "CU");
            Value nap = cu.getMember("buildkernel").execute(NAP, "nap(y: inout pointer float, ms: sint32)");
            Value fill = cu.getMember("buildkernel").execute(FILL, "fill(y: out pointer float, n: sint32)");
            Value square = cu.getMember("buildkernel").execute(SQUARE, "square(x: inout pointer float, n: sint32)");
            List<Value> arrays = new java.util.ArrayList<>();
            for (int j = 0; j < 4; j++) {
                Value a = cu.getMember("DeviceArray").execute("float", 64);
                arrays.add(a);
                // No device holds any of it yet: round-robin, so devices 0, 1, 0, 1.
                fill.execute(1, 64).execute(a, 64);
            }
            cu.getMember("cudaDeviceSynchronize").execute();
            nap.execute(1, 1).execute(cu.getMember("DeviceArray").execute("float", 1), 1500);
            for (Value a : arrays) {
                square.execute(1, 64).execute(a, 64);
            }

            Scheduler scheduler = RecordingExchangeProvider.attachedWith(members).scheduler();
            java.util.Set<dev.polygpu.device.Device> where = new java.util.HashSet<>();
            int taken = 0;
            for (StolenElement e = scheduler.steal(); e != null; e = scheduler.steal()) {
                taken++;
                assertEquals("square", e.message().label());
                dev.polygpu.runtime.TrackedArray x = e.element().accesses().get(0).array();
                dev.polygpu.device.UnifiedBuffer there = e.buffer(x);
                where.add(there.device());
                for (int i = 0; i < 64; i++) {
                    assertEquals(1f + i, there.getFloat(i), "the fill's result on its device, at " + i);
                    // What a thief would send back: the square, and 0.5 so that it differs from running it here.
                    there.setFloat(i, (1f + i) * (1f + i) + 0.5f);
                }
                e.complete();
            }
            assertEquals(4, taken, "the four squares were ready behind the nap");
            assertEquals(scheduler.devices().size(), where.size(), "taken from both devices: " + where);
            for (Value a : arrays) {
                for (int i = 0; i < 64; i++) {
                    assertEquals((1f + i) * (1f + i) + 0.5f, a.getArrayElement(i).asFloat(), "a[" + i + "]");
                }
            }
        }
    }

    @Test
    void malformedValuesAreRefusedWhenTheContextIsCreated() {
        Object[][] cases = {
            {"grcuda.Cluster", "127.0.0.1:57x1", "grcuda.Cluster: member address '127.0.0.1:57x1' has port '57x1',"
                    + " which is not a port number in 1..65535"},
            {"grcuda.Cluster", ":5701", "member address ':5701' has no host"},
            {"grcuda.Cluster", " , ", "names no member"},
            {"grcuda.ClusterPort", "0", "grcuda.ClusterPort must be a port number in 1..65436 (a member listens on"
                    + " the first free one of the 100 ports from there), got '0'"},
            {"grcuda.ClusterPort", "65437", "grcuda.ClusterPort must be a port number in 1..65436"},
            {"grcuda.ClusterPort", "http", "grcuda.ClusterPort must be a port number in 1..65436"},
            {"grcuda.ClusterName", " ", "grcuda.ClusterName must not be empty"},
            {"grcuda.ClusterHeartbeat", "soon", "grcuda.ClusterHeartbeat must be a duration such as 500ms, 1s or"
                    + " 2.5s, got 'soon'"},
            {"grcuda.ClusterThreshold", "-1", "grcuda.ClusterThreshold must be an integer of 0 or more, got -1"},
            {"grcuda.ClusterRankFactor", "0.5", "grcuda.ClusterRankFactor must be 0 (off) or a number of at least 1,"
                    + " got 0.5"},
            {"grcuda.ClusterRankFactor", "soon", "grcuda.ClusterRankFactor must be 0 (off) or a number of at least 1,"
                    + " got 'soon'"},
            {"grcuda.ClusterStealing", "maybe", "must be 'true' or 'false'"},
            {"grcuda.ClusterStolenOverflow", "-1", "grcuda.ClusterStolenOverflow must be an integer of 0 or more,"
                    + " got -1"},
            {"grcuda.ClusterRandomEvery", "-2", "grcuda.ClusterRandomEvery must be an integer of 0 or more, got -2"},
            {"grcuda.ClusterRankChunk", "-1", "grcuda.ClusterRankChunk must be an integer of 0 or more, got -1"},
            {"grcuda.ClusterDirectories", "-3", "grcuda.ClusterDirectories must be an integer of 0 or more, got -3"},
            {"grcuda.ClusterPushContinuations", "often", "must be 'true' or 'false'"},
            {"grcuda.ClusterWakeThieves", "yes", "must be 'true' or 'false'"},
        };
        for (Object[] t : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> builder((String) t[0], (String) t[1]).build().close(), () -> t[0] + "=" + t[1]);
            assertTrue(e.getMessage().contains((String) t[2]), t[0] + "=" + t[1] + ": " + e.getMessage());
        }
    }

    @Test
    void wellFormedValuesAreAccepted() {
        String[][] cases = {
            {"grcuda.Cluster", "node-a,node-b:5702, 10.0.0.3:5703"},
            {"grcuda.ClusterHeartbeat", "1500ms"},
            {"grcuda.ClusterFailAfter", "2.5s"},
            {"grcuda.ClusterFailAfter", "7"},
            {"grcuda.ClusterPort", "65436"},
        };
        for (String[] t : cases) {
            try (Context c = builder(t[0], t[1]).build()) {
                assertEquals(t[1].strip(), c.eval("grcuda", "getoptions()").getMember(t[0]).asString(), t[0]);
            }
        }
    }
}
