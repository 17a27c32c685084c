package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.trace.DotExporter;
import dev.polygpu.runtime.trace.RecordedElement;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Placement and coherence over several CPU devices on hand-built DAGs: which device each element runs on, the
 * transfers the scheduler adds (with their parents) and the values the host reads, derived by hand. Arrays hold
 * {@code N} ints, {@code x[i] = i + 1} unless said otherwise.
 */
class SchedulerMultiDeviceTest {
    private static final int N = 100;

    private final List<Device> devices = new ArrayList<>();
    private DiffKernels kernels;
    private ScheduleRecorder recorder;

    @BeforeEach
    void open() {
        devices.add(new CpuDevice(0, 2, null));
        devices.add(new CpuDevice(1, 2, null));
        kernels = new DiffKernels(devices.get(0), true);
        recorder = new ScheduleRecorder();
    }

    @AfterEach
    void close() {
        devices.forEach(Device::close);
    }

    private Scheduler scheduler(DeviceSelectionPolicy policy) {
        Scheduler s = new Scheduler(devices, SchedulerConfig.DEFAULT, MultiDeviceConfig.DEFAULT.withPolicy(policy));
        s.addObserver(recorder);
        return s;
    }

    private static TrackedArray array(Scheduler s, String name) {
        UnifiedBuffer b = s.device().allocate(4L * N);
        for (int i = 0; i < N; i++) {
            b.setInt(i, i + 1);
        }
        return s.track(name, b, 4L * N);
    }

    private static int[] read(Scheduler s, TrackedArray a) {
        if (!a.hostReadReady()) {
            s.awaitHost(a, AccessMode.READ, "read " + a.name());
        }
        return RandomProgram.ints(a, N);
    }

    /** Each element as {@code id kind 'label' [parents] @device}, in submission order. */
    private List<String> dag() {
        List<String> out = new ArrayList<>();
        for (RecordedElement e : recorder.snapshot().elements()) {
            String where = e.placement() == null ? "host" : e.placement().deviceName();
            out.add(e.id() + " " + e.kind().name().toLowerCase() + " '" + e.label() + "' " + e.parents() + " @" + where);
        }
        return out;
    }

    @Test
    void aReadAfterAWriteOnAnotherDeviceGetsAPeerTransferAndTheHostReadBringsTheResultHome() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            TrackedArray y = array(s, "y");
            s.submit(kernels.step(x, 7, N));
            s.submit(kernels.scale(y, x, 3, N));
            assertFalse(y.hostReadReady(), "y's newest copy is on device 1");
            int[] got = read(s, y);
            for (int i = 0; i < N; i++) {
                assertEquals(((i + 1) * 31 + 7) * 3, got[i], "y[" + i + "]");
            }
            assertTrue(y.hostReadReady());
            // step on device 0 needs x there; scale on device 1 needs y (its out array, partly written for all the
            // scheduler knows) and x, which device 0 wrote; the host read needs y home, and waits for scale too.
            assertEquals(List.of(
                    "1 transfer 'x #1: host → cpu device 0' [] @cpu device 0",
                    "2 kernel 'step' [1] @cpu device 0",
                    "3 transfer 'y #2: host → cpu device 1' [] @cpu device 1",
                    "4 transfer 'x #1: cpu device 0 → cpu device 1' [2] @cpu device 1",
                    "5 kernel 'scale' [2, 3, 4] @cpu device 1",
                    "6 transfer 'y #2: cpu device 1 → host' [5] @cpu device 1",
                    "7 host_read 'read y' [5, 6] @host"), dag());
            assertEquals(new Scheduler.Transfers(4, 4 * 4L * N), s.transfers());
            String summary = dev.polygpu.runtime.trace.DagMetrics.of(recorder.snapshot()).summary();
            assertTrue(summary.contains(", 4 transfers of 1600 bytes taking "), summary);
        }
    }

    @Test
    void aHostWriteLeavesTheDevicesCopiesStaleAndTheNextKernelTakesTheHostsCopy() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            TrackedArray y = array(s, "y");
            s.submit(kernels.step(x, 7, N));
            s.submit(kernels.scale(y, x, 3, N));
            assertFalse(x.hostWriteReady(), "devices 0 and 1 hold copies of x");
            s.awaitHost(x, AccessMode.WRITE, "write x[0]");
            x.buffer().setInt(0, 5);
            assertTrue(x.hostWriteReady(), "the write left the host the only holder");
            // round-robin: device 0 again, whose copy of x is stale now
            s.submit(kernels.step(x, 1, N));
            int[] got = read(s, x);
            assertEquals(5 * 31 + 1, got[0]);
            assertEquals((2 * 31 + 7) * 31 + 1, got[1]);
            List<String> dag = dag();
            // transfer home (6) and the host's write (7) come before the transfer of the written x to device 0
            assertTrue(dag.contains("6 transfer 'x #1: cpu device 0 → host' [2] @cpu device 0"), dag.toString());
            assertTrue(dag.contains("8 transfer 'x #1: host → cpu device 0' [7] @cpu device 0"), dag.toString());
        }
    }

    @Test
    void aCopyBetweenArraysOnDifferentDevicesMovesOnlyWhatItReads() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray a = array(s, "a");
            TrackedArray b = array(s, "b");
            s.submit(kernels.step(a, 2, N)); // device 0: a = a * 31 + 2
            s.submit(kernels.addc(b, 10, N)); // device 1: b = b + 10
            // device 0 again: b <- a for all of b, which it overwrites: a is there, b needs nothing
            s.submit(ComputationalElement.copy("copy", b, a, new Work.Copy(b.buffer(), 0, a.buffer(), 0, 4L * N),
                    null));
            // device 1: b[0..10) <- a[50..60): it reads a (on device 0) and keeps the rest of b (now on device 0)
            s.submit(ComputationalElement.copy("copy part", b, a,
                    new Work.Copy(b.buffer(), 0, a.buffer(), 4L * 50, 4L * 10), null));
            int[] got = read(s, b);
            for (int i = 0; i < N; i++) {
                int expected = i < 10 ? (i + 51) * 31 + 2 : (i + 1) * 31 + 2;
                assertEquals(expected, got[i], "b[" + i + "]");
            }
            List<String> dag = dag();
            assertTrue(dag.contains("5 copy 'copy' [4, 2] @cpu device 0"), dag.toString());
            assertTrue(dag.contains("6 transfer 'b #2: cpu device 0 → cpu device 1' [5] @cpu device 1"), dag.toString());
            assertTrue(dag.contains("7 transfer 'a #1: cpu device 0 → cpu device 1' [2] @cpu device 1"), dag.toString());
            assertTrue(dag.contains("8 copy 'copy part' [5, 2, 6, 7] @cpu device 1"), dag.toString());
        }
    }

    @Test
    void minTransferSizeFollowsTheData() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.MIN_TRANSFER_SIZE)) {
            TrackedArray x = array(s, "x");
            TrackedArray y = array(s, "y");
            // Nothing is on a device: round-robin gives device 0 to x's step and device 1 to y's.
            s.submit(kernels.step(x, 1, N));
            s.submit(kernels.step(y, 1, N));
            // Each next step finds all its bytes where its array already is.
            for (int k = 0; k < 3; k++) {
                s.submit(kernels.step(x, 1, N));
                s.submit(kernels.step(y, 1, N));
            }
            s.synchronize();
            for (RecordedElement e : recorder.snapshot().elements()) {
                if (e.kind() == ElementKind.KERNEL) {
                    String expected = e.arrays().get(0).arrayName().startsWith("x") ? "cpu device 0" : "cpu device 1";
                    assertEquals(expected, e.placement().deviceName(), "element #" + e.id());
                }
            }
            assertEquals(2, s.transfers().count(), "only the first transfer of each array");
        }
    }

    @Test
    void anElementOnAUsersStreamRunsOnThatStreamsDeviceAndAKernelWithoutSourceWhereItWasBuilt() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            dev.polygpu.device.Stream onOne = devices.get(1).createStream();
            ComputationalElement e = kernels.step(x, 3, N);
            s.submit(ComputationalElement.kernel("step", e.accesses(), (Work.Kernel) e.work(), onOne));
            DiffKernels noSource = new DiffKernels(devices.get(0), false);
            s.submit(noSource.step(x, 4, N));
            s.submit(noSource.step(x, 5, N));
            int[] got = read(s, x);
            assertEquals(((1 * 31 + 3) * 31 + 4) * 31 + 5, got[0]);
            List<String> where = recorder.snapshot().elements().stream()
                    .filter(r -> r.kind() == ElementKind.KERNEL).map(r -> r.placement().deviceName()).toList();
            assertEquals(List.of("cpu device 1", "cpu device 0", "cpu device 0"), where);
            onOne.close();
        }
    }

    @Test
    void aHostCallSeesTheNewestContentsAndItsWritesReachTheDevices() throws InterruptedException {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            s.submit(kernels.step(x, 7, N)); // device 0
            int seen = s.callOnHost(ComputationalElement.hostCall("double", List.of(new Access(x,
                    AccessMode.READ_WRITE))), () -> {
                        int first = x.buffer().getInt(0);
                        for (int i = 0; i < N; i++) {
                            x.buffer().setInt(i, 2 * x.buffer().getInt(i));
                        }
                        return first;
                    }, false);
            assertEquals(31 + 7, seen);
            s.submit(kernels.addc(x, 1, N)); // device 1
            int[] got = read(s, x);
            assertEquals(2 * (31 + 7) + 1, got[0]);
            assertEquals(2 * (2 * 31 + 7) + 1, got[1]);
        }
    }

    @Test
    void releasingAnArrayFreesItsCopiesOnTheDevices() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            s.submit(kernels.step(x, 7, N));
            s.submit(kernels.step(x, 7, N));
            s.synchronize();
            assertEquals(4L * N, devices.get(1).allocatedBytes(), "device 1's copy of x");
            assertEquals(2 * 4L * N, devices.get(0).allocatedBytes(), "x's own buffer and device 0's copy");
            s.release(x);
            assertEquals(0, devices.get(1).allocatedBytes());
            assertEquals(4L * N, devices.get(0).allocatedBytes(), "x's own buffer, the caller's to free");
            x.buffer().free();
        }
    }

    @Test
    void theDevicesMemoriesAreSeparateSoAStaleCopyReallyIsStale() {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            s.submit(kernels.step(x, 7, N)); // device 0
            s.submit(kernels.step(x, 7, N)); // device 1
            s.synchronize();
            // Device 1 wrote the newest contents into its own copy; device 0's and the host's are older.
            assertNotEquals(x.replicas.buffers[0].getInt(0), x.replicas.buffers[1].getInt(0));
            assertEquals(31 + 7, x.replicas.buffers[0].getInt(0));
            assertEquals(1, x.buffer().getInt(0), "the host's copy before a host read brings the newest home");
            assertEquals((31 + 7) * 31 + 7, read(s, x)[0]);
        }
    }

    @Test
    void transfersAreNodesOfTheExportedDag() throws IOException {
        try (Scheduler s = scheduler(DeviceSelectionPolicy.ROUND_ROBIN)) {
            TrackedArray x = array(s, "x");
            s.submit(kernels.step(x, 7, N));
            s.submit(kernels.step(x, 7, N));
            read(s, x);
            StringBuilder dot = new StringBuilder();
            new DotExporter().write(recorder.snapshot(), dot);
            assertTrue(dot.toString().contains("x #1: host → cpu device 0 #1"), dot.toString());
            assertTrue(dot.toString().contains("transfer on cpu device 0"), dot.toString());
            assertTrue(dot.toString().contains("x #1: cpu device 0 → cpu device 1 #3"), dot.toString());
        }
    }

    @Test
    void aSchedulerNeedsDistinctDevicesAndABandwidthMatrixOfTheirNumber() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Scheduler(
                List.of(devices.get(0), devices.get(0)), SchedulerConfig.DEFAULT, MultiDeviceConfig.DEFAULT));
        assertTrue(e.getMessage().contains("listed twice"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Scheduler(devices, SchedulerConfig.DEFAULT,
                MultiDeviceConfig.DEFAULT.withBandwidth(new double[][] {{0, 1}, {1, 0}})));
        assertTrue(e.getMessage().contains("2x2 but the scheduler has 2 devices and the host (3)"), e.getMessage());
    }
}
