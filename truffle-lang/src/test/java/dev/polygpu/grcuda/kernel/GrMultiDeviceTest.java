package dev.polygpu.grcuda.kernel;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.BandwidthMatrix;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several CPU devices standing in for GPUs ({@code grcuda.NumberOfGPUs}) through the polyglot API: the devices the
 * context lists, the current device, placement by policy, results a program reads, the transfers in the schedule,
 * and bad option values. Expected values are worked out by hand beside each assertion.
 */
class GrMultiDeviceTest {
    private static final String STEP = """
            extern "C" __global__ void step(int *x, int s, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] * 31 + s;
            }
            extern "C" __global__ void scale(int *y, const int *x, int a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * a;
            }
            """;

    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();

    private static Context context(ByteArrayOutputStream err, Map<String, String> options) {
        Context.Builder b = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).err(err)
                .option("grcuda.Device", "cpu").option("grcuda.CpuBlocks", "1");
        options.forEach(b::option);
        return b.build();
    }

    @Test
    void theContextListsItsDevicesAndSetsTheCurrentOne() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "3"))) {
            Value cu = c.eval("grcuda", "CU");
            assertEquals(3, cu.getMember("getdevices").execute().getArraySize());
            assertEquals(3, cu.getMember("cudaGetDeviceCount").execute().asInt());
            assertEquals(0, cu.getMember("cudaGetDevice").execute().asInt());
            cu.getMember("cudaSetDevice").execute(2);
            assertEquals(2, cu.getMember("cudaGetDevice").execute().asInt());
            Value d1 = cu.getMember("getdevice").execute(1);
            assertFalse(d1.invokeMember("isCurrent").asBoolean());
            d1.invokeMember("setCurrent");
            assertTrue(d1.invokeMember("isCurrent").asBoolean());
            assertEquals(1, cu.getMember("cudaGetDevice").execute().asInt());
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> cu.getMember("cudaSetDevice").execute(3));
            assertEquals("cudaSetDevice: there is no device 3; device ids are 0 to 2 (3 devices)", e.getMessage());
            assertEquals(1, cu.getMember("cudaDeviceCanAccessPeer").execute(0, 2).asInt());
            assertEquals(0, cu.getMember("cudaDeviceCanAccessPeer").execute(2, 2).asInt());
            assertEquals(32, cu.getMember("cudaDeviceGetAttribute").execute("warpSize", 2).asInt());
        }
    }

    @Test
    void kernelsSpreadOverTheDevicesGiveTheResultsOfOne() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "2", "grcuda.DeviceSelectionPolicy",
                "round-robin", "grcuda.RecordSchedule", "true", "grcuda.CpuDeviceLink", "bandwidth=5,latency=10",
                "grcuda.DeviceChaos", "seed=5,delay=200"))) {
            Value cu = c.eval("grcuda", "CU");
            int n = 300;
            Value x = cu.getMember("DeviceArray").execute("int", n);
            Value y = cu.getMember("DeviceArray").execute("int", n);
            for (int i = 0; i < n; i++) {
                x.setArrayElement(i, i + 1);
            }
            Value step = cu.getMember("buildkernel").execute(STEP, "step(x: inout pointer sint32, s: sint32, n: sint32)");
            Value scale = cu.getMember("buildkernel").execute(STEP,
                    "scale(y: out pointer sint32, x: in pointer sint32, a: sint32, n: sint32)");
            step.execute(3, 128).execute(x, 7, n); // device 0
            scale.execute(3, 128).execute(y, x, 3, n); // device 1: x comes from device 0
            step.execute(3, 128).execute(x, 1, n); // device 0 again
            for (int i = 0; i < n; i++) {
                assertEquals(((i + 1) * 31 + 7) * 3, y.getArrayElement(i).asInt(), "y[" + i + "]");
                assertEquals(((i + 1) * 31 + 7) * 31 + 1, x.getArrayElement(i).asInt(), "x[" + i + "]");
            }
            String dot = cu.getMember("polygpu_schedule").execute("dot").asString();
            assertTrue(dot.contains(": cpu device 0 → cpu device 1"), dot);
            assertTrue(dot.contains("scale") && dot.contains("cpu device 1"), dot);
        }
        String start = err.toString(StandardCharsets.UTF_8);
        assertFalse(start.contains("warning"), start);
    }

    @Test
    void copiesFillsStreamsAndFreesWorkAcrossDevices() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "3", "grcuda.DeviceSelectionPolicy",
                "round-robin", "grcuda.DeviceChaos", "seed=9,delay=200"))) {
            Value cu = c.eval("grcuda", "CU");
            int n = 64;
            Value a = cu.getMember("DeviceArray").execute("int", n);
            Value b = cu.getMember("DeviceArray").execute("int", n);
            for (int i = 0; i < n; i++) {
                a.setArrayElement(i, i);
            }
            Value step = cu.getMember("buildkernel").execute(STEP, "step(x: inout pointer sint32, s: sint32, n: sint32)");
            step.execute(1, 64).execute(a, 2, n); // device 0: a = 31 i + 2
            cu.getMember("cudaMemset").execute(b, 1, 4 * n); // device 1: every byte 1, so each int 0x01010101
            step.execute(1, 64).execute(b, 0, n); // device 2: b = 0x01010101 * 31
            cu.getMember("cudaMemcpy").execute(b, a, 4 * 8); // device 0: b[0..8) = a[0..8)
            // On a stream of device 2, made current: it runs there whatever the policy.
            cu.getMember("cudaSetDevice").execute(2);
            Value s = cu.getMember("cudaStreamCreate").execute();
            step.execute(1, 64, 0, s).execute(a, 1, n);
            cu.getMember("cudaStreamSynchronize").execute(s);
            for (int i = 0; i < n; i++) {
                assertEquals((31 * i + 2) * 31 + 1, a.getArrayElement(i).asInt(), "a[" + i + "]");
                int expected = i < 8 ? 31 * i + 2 : 0x01010101 * 31;
                assertEquals(expected, b.getArrayElement(i).asInt(), "b[" + i + "]");
            }
            a.invokeMember("free");
            b.invokeMember("free");
            Value z = cu.getMember("DeviceArray").execute("int", n);
            step.execute(1, 64).execute(z, 5, n);
            assertEquals(5, z.getArrayElement(n - 1).asInt());
        }
    }

    /**
     * The multi-GPU parent-stream policies from the option: {@code step(x)} and {@code step(y)} go to devices 0 and 1
     * (round-robin, its counter back at 0), then {@code w = 2y}, a child of {@code step(y)} only. Under
     * {@code multigpu-early-disjoint} round-robin chooses first, over both devices: device 0, where {@code y} is
     * copied. Under {@code multigpu-disjoint} it chooses among the devices of the parents whose stream no child
     * took: device 1 alone, where {@code y} already is.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"multigpu-early-disjoint, 0", "multigpu-disjoint, 1"})
    void theMultiGpuParentStreamPoliciesPlaceAChildAsTheirRulesSay(String policy, int expectedDevice) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "2", "grcuda.DeviceSelectionPolicy",
                "round-robin", "grcuda.RetrieveParentStreamPolicy", policy, "grcuda.RecordSchedule", "true",
                "grcuda.DeviceChaos", "seed=3,delay=200"))) {
            Value cu = c.eval("grcuda", "CU");
            int n = 200;
            Value x = cu.getMember("DeviceArray").execute("int", n);
            Value y = cu.getMember("DeviceArray").execute("int", n);
            Value w = cu.getMember("DeviceArray").execute("int", n);
            for (int i = 0; i < n; i++) {
                x.setArrayElement(i, i + 1);
                y.setArrayElement(i, 2 * i + 1);
            }
            Value step = cu.getMember("buildkernel").execute(STEP, "step(x: inout pointer sint32, s: sint32, n: sint32)");
            Value scale = cu.getMember("buildkernel").execute(STEP,
                    "scale(y: out pointer sint32, x: in pointer sint32, a: sint32, n: sint32)");
            step.execute(2, 128).execute(x, 7, n);
            step.execute(2, 128).execute(y, 5, n);
            scale.execute(2, 128).execute(w, y, 2, n);
            for (int i = 0; i < n; i++) {
                assertEquals((i + 1) * 31 + 7, x.getArrayElement(i).asInt(), "x[" + i + "]");
                assertEquals(2 * ((2 * i + 1) * 31 + 5), w.getArrayElement(i).asInt(), "w[" + i + "]");
            }
            String dot = cu.getMember("polygpu_schedule").execute("dot").asString();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("scale #\\d+\\\\ncpu device (\\d)")
                    .matcher(dot);
            assertTrue(m.find(), dot);
            assertEquals(expectedDevice, Integer.parseInt(m.group(1)), dot);
        }
    }

    @Test
    void moreDevicesThanCanBeMadeIsAWarningSayingHowManyAreUsed() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "64"))) {
            Value cu = c.eval("grcuda", "CU");
            assertEquals(63, cu.getMember("cudaGetDeviceCount").execute().asInt());
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("polygpu: warning: grcuda.NumberOfGPUs=64, but at"
                + " most 63 CPU devices stand in for GPUs: using 63"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badValuesListTheValidOnes() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> context(err, Map.of("grcuda.DeviceSelectionPolicy", "fastest")));
        assertTrue(e.getMessage().contains("single-gpu, round-robin, stream-aware, min-transfer-size,"
                + " minmin-transfer-time, minmax-transfer-time"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> context(err, Map.of("grcuda.CpuDeviceLink",
                "speed=3")));
        assertTrue(e.getMessage().contains("grcuda.CpuDeviceLink: link option \"speed=3\": unknown key \"speed\";"
                + " the keys are bandwidth (GB/s) and latency (microseconds); or 'none' for no delay"), e.getMessage());
    }

    @Test
    void aBandwidthFileThatDoesNotParseNamesTheLine(@TempDir Path dir) throws Exception {
        Path bw = dir.resolve("bw.csv");
        Files.writeString(bw, "start_id,end_id,bandwidth\n-1,0,12\n-1,1,12\n0,1,fast\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "2", "grcuda.BandwidthMatrix", bw.toString(),
                "grcuda.DeviceSelectionPolicy", "minmin-transfer-time"))) {
            Value cu = c.eval("grcuda", "CU");
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> cu.getMember("DeviceArray").execute("int", 4));
            assertTrue(e.getMessage().contains("grcuda.BandwidthMatrix: " + bw + ":4: expected two device ids"),
                    e.getMessage());
        }
        // A file that is not there is a warning naming it, as GrCUDA goes on without one; the links are measured.
        Path missing = dir.resolve("none.csv");
        try (Context c = context(err, Map.of("grcuda.NumberOfGPUs", "2", "grcuda.BandwidthMatrix", missing.toString(),
                "grcuda.DeviceSelectionPolicy", "minmax-transfer-time"))) {
            Value cu = c.eval("grcuda", "CU");
            Value a = cu.getMember("DeviceArray").execute("int", 4);
            a.setArrayElement(1, 7);
            assertEquals(7, a.getArrayElement(1).asInt());
            assertFalse(cu.getMember("polygpu_bandwidth").execute("table").asString().contains("link bandwidths from "
                    + missing));
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("polygpu: warning: grcuda.BandwidthMatrix=" + missing
                + " cannot be read ("), err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("so the link bandwidths are measured instead"),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withoutAFileTheLinksAreMeasuredAndCached() {
        // Device 1's link: 0.05 GB/s; the host's memory is device 0's, so a copy between the host and device 1
        // runs on device 1's stream and waits for its link, latency + bytes / bandwidth: never faster.
        Map<String, String> options = Map.of("grcuda.NumberOfGPUs", "2", "grcuda.CpuDeviceLink",
                "bandwidth=0.05,latency=5", "grcuda.DeviceSelectionPolicy", "minmin-transfer-time");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Context c = context(err, options)) {
            Value cu = c.eval("grcuda", "CU");
            cu.getMember("polygpu_bandwidth_measure").execute();
            String table = cu.getMember("polygpu_bandwidth").execute("table").asString();
            assertTrue(table.contains("measured in ") && table.contains(", cached in "), table);
            String csv = cu.getMember("polygpu_bandwidth").execute("csv").asString();
            double[][] m = BandwidthMatrix.parse(csv.lines().toList(), 2, "csv");
            assertTrue(m[2][1] > 0 && m[2][1] <= 0.05 * 1.02, csv);
            assertTrue(m[0][1] > 0 && m[0][1] <= 0.05 * 1.02, csv);
        }
        try (Context c = context(err, options)) {
            Value cu = c.eval("grcuda", "CU");
            String info = cu.getMember("polygpu_device_info").execute().asString();
            assertTrue(info.contains(", link bandwidths from the cache "), info);
            assertTrue(cu.getMember("polygpu_bandwidth").execute("table").asString()
                    .contains("link bandwidths from the cache "));
        }
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("warning"), err.toString(StandardCharsets.UTF_8));
    }
}
