package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.polygpu.device.Device;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.SchedulerConfig.ParentStreamPolicy;
import dev.polygpu.runtime.trace.RecordedElement;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The multi-GPU parent-stream policies on hand-built DAGs over two CPU devices: the device and the stream each
 * element gets, worked out by hand from GrCUDA's rules (docs/scheduler.md, Several devices). Gate kernels hold the
 * parents on their streams until the test releases them, so every element is placed while its parents are still
 * running, whatever the timing. A stream is named {@code device/id}; stream ids are per device and depend on which
 * streams happened to be free, so the tests compare streams with each other rather than with fixed ids.
 *
 * <p>Elements are numbered in submission order, the transfers the scheduler adds included. All elements rank low
 * (each is placed as it is submitted, with rank 1 or 2 against the lowest rank on the streams), so all go to
 * priority level 0 and a parent's stream is never refused for its level.
 */
class SchedulerParentStreamTest {
    private static final int N = SchedulerTest.N;

    private final List<Device> devices = new ArrayList<>();
    private final List<UnifiedBuffer> flags = new ArrayList<>();
    private Scheduler scheduler;
    private ScheduleRecorder recorder;

    @AfterEach
    void close() {
        for (UnifiedBuffer f : flags) {
            f.setInt(0, 1);
        }
        if (scheduler != null) {
            scheduler.close();
        }
        devices.forEach(Device::close);
    }

    private Scheduler open(int count, ParentStreamPolicy parents) {
        return open(count, parents, DeviceSelectionPolicy.ROUND_ROBIN);
    }

    private Scheduler open(int count, ParentStreamPolicy parents, DeviceSelectionPolicy placement) {
        for (int d = 0; d < count; d++) {
            devices.add(new CpuDevice(d, 2, null));
        }
        // A window wide enough that nothing waits for it: every element is placed as it is submitted.
        SchedulerConfig config = SchedulerConfig.DEFAULT.withParentStreams(parents).withInFlightWindow(32);
        scheduler = new Scheduler(devices, config, MultiDeviceConfig.DEFAULT.withPolicy(placement));
        recorder = new ScheduleRecorder();
        scheduler.addObserver(recorder);
        return scheduler;
    }

    /** An array of N ints, {@code a[i] = i + 1}. */
    private TrackedArray array(String name) {
        UnifiedBuffer b = devices.get(0).allocate(4L * N);
        for (int i = 0; i < N; i++) {
            b.setInt(i, i + 1);
        }
        return scheduler.track(name, b, 4L * N);
    }

    /** A flag on device {@code d}, where the gate that waits on it must run (a CPU device takes only its own). */
    private UnifiedBuffer flag(int d) {
        UnifiedBuffer f = devices.get(d).allocate(4);
        flags.add(f);
        return f;
    }

    private void release() {
        for (UnifiedBuffer f : flags) {
            f.setInt(0, 1);
        }
    }

    private int[] read(TrackedArray a) {
        if (!a.hostReadReady()) {
            scheduler.awaitHost(a, AccessMode.READ, "read " + a.name());
        }
        int[] out = new int[N];
        for (int i = 0; i < N; i++) {
            out[i] = a.buffer().getInt(i);
        }
        return out;
    }

    /**
     * The program of the first two tests: {@code gate(x)} on flag 0 and {@code gate(y)} on flag 1 (held until
     * {@link #release}), then {@code w = 2y} and {@code v = 3y}. Returns the stream of each element, checks
     * {@code w} and {@code v} (y = i + 1, as {@link #array} fills it, plus 1 from its gate) once released.
     */
    private Map<Long, String> gatesThenTwoScales(Scheduler s) {
        TestKernels k = new TestKernels(devices.get(0));
        TrackedArray x = array("x");
        TrackedArray y = array("y");
        TrackedArray w = array("w");
        TrackedArray v = array("v");
        s.submit(k.gate(flag(0), x));
        s.submit(k.gate(flag(1), y));
        s.submit(k.scale(w, y, 2));
        s.submit(k.scale(v, y, 3));
        Map<Long, String> at = streams();
        release();
        int[] gotW = read(w);
        int[] gotV = read(v);
        for (int i = 0; i < N; i++) {
            assertEquals(2 * (i + 2), gotW[i], "w[" + i + "] = 2 * (y + 1)");
            assertEquals(3 * (i + 2), gotV[i], "v[" + i + "] = 3 * (y + 1)");
        }
        return at;
    }

    /** Each launched element's stream, {@code cpu device d/id}, by element id. */
    private Map<Long, String> streams() {
        Map<Long, String> out = new LinkedHashMap<>();
        for (RecordedElement e : recorder.snapshot().elements()) {
            if (e.placement() != null) {
                out.put(e.id(), e.placement().deviceName() + "/" + e.placement().streamId());
            }
        }
        return out;
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

    private static String device(String stream) {
        return stream.substring(0, stream.indexOf('/'));
    }

    /**
     * The program: {@code gate(x)} and {@code gate(y)} (held), then two children of the second gate,
     * {@code w = 2y} and {@code v = 3y}. Round-robin gives the gates devices 0 and 1 (its counter is then 0 again).
     *
     * <p>{@code multigpu-early-disjoint} chooses each child's device first, over all devices: {@code w = 2y} gets
     * device 0 (counter 0 → 1). Its parent, {@code gate(y)}, is on device 1, so its stream cannot be continued; on
     * device 0 the child's first parent with a free stream is the transfer of {@code w} there (#5; the transfers
     * come after the tracker's parents, {@code w}'s before {@code y}'s as the kernel lists them), whose stream it
     * continues. {@code v = 3y} gets device 1 (counter 1 → 0), where {@code gate(y)}'s stream is still free: it
     * continues it.
     */
    @Test
    void earlyDisjointChoosesTheDeviceFirstAndContinuesAFreeParentStreamThere() {
        Scheduler s = open(2, ParentStreamPolicy.MULTIGPU_EARLY_DISJOINT);
        Map<Long, String> at = gatesThenTwoScales(s);
        assertEquals(List.of(
                "1 transfer 'x #1: host → cpu device 0' [] @cpu device 0",
                "2 kernel 'gate' [1] @cpu device 0",
                "3 transfer 'y #2: host → cpu device 1' [] @cpu device 1",
                "4 kernel 'gate' [3] @cpu device 1",
                "5 transfer 'w #3: host → cpu device 0' [] @cpu device 0",
                "6 transfer 'y #2: cpu device 1 → cpu device 0' [4] @cpu device 0",
                "7 kernel 'scale' [4, 5, 6] @cpu device 0",
                "8 transfer 'v #4: host → cpu device 1' [] @cpu device 1",
                "9 kernel 'scale' [4, 8] @cpu device 1"), dag().subList(0, 9));
        // A gate has only its transfer as parent, on its device: it continues the transfer's stream.
        assertEquals(at.get(1L), at.get(2L));
        assertEquals(at.get(3L), at.get(4L));
        assertEquals(at.get(5L), at.get(7L), "w = 2y continues the stream of w's transfer on device 0");
        assertNotEquals(at.get(2L), at.get(7L), "not the held gate(x)'s stream: it is no parent");
        assertEquals(at.get(4L), at.get(9L), "v = 3y continues gate(y)'s stream on device 1, still free");
    }

    /**
     * The same program under {@code multigpu-disjoint}: {@code w = 2y} has one parent whose stream is free,
     * {@code gate(y)} on device 1, so the policy chooses among device 1 alone (round-robin restricted to it takes
     * it, and its counter goes 0 → 1), and the child continues that gate's stream: {@code y} is there, so only
     * {@code w} is transferred. {@code v = 3y} finds its only parent's stream given away: the policy chooses over
     * all devices, round-robin at 1 → device 1, and the child takes the stream of its first free parent there,
     * the transfer of {@code v} (#7), not the gate's.
     */
    @Test
    void disjointChoosesAmongTheDevicesOfTheParentsWhoseStreamIsFree() {
        Scheduler s = open(2, ParentStreamPolicy.MULTIGPU_DISJOINT);
        Map<Long, String> at = gatesThenTwoScales(s);
        assertEquals(List.of(
                "1 transfer 'x #1: host → cpu device 0' [] @cpu device 0",
                "2 kernel 'gate' [1] @cpu device 0",
                "3 transfer 'y #2: host → cpu device 1' [] @cpu device 1",
                "4 kernel 'gate' [3] @cpu device 1",
                "5 transfer 'w #3: host → cpu device 1' [] @cpu device 1",
                "6 kernel 'scale' [4, 5] @cpu device 1",
                "7 transfer 'v #4: host → cpu device 1' [] @cpu device 1",
                "8 kernel 'scale' [4, 7] @cpu device 1"), dag().subList(0, 8));
        assertEquals(at.get(3L), at.get(4L));
        assertEquals(at.get(4L), at.get(6L), "w = 2y continues gate(y)'s stream");
        assertEquals(at.get(7L), at.get(8L), "v = 3y continues the stream of v's transfer");
        assertNotEquals(at.get(4L), at.get(8L), "a sibling does not get the stream given to w = 2y");
    }

    /**
     * A child of parents on two of three devices under {@code multigpu-disjoint}: {@code z += x + y} after
     * {@code gate(x)} (device 0) and {@code gate(y)} (device 1; round-robin's counter is then 2). Both parents'
     * streams are free, so round-robin chooses among devices 0 and 1: of those two, the one at 2 mod 2 = 0, device
     * 0 (over all three it would be device 2), and its counter goes to 0. The child continues {@code gate(x)}'s
     * stream (#7, after the transfers of {@code z} and {@code y} to device 0). The next such child,
     * {@code u += y + x} (its parents: {@code u}'s writer, none, then {@code y}'s and {@code x}'s), finds
     * {@code gate(x)}'s stream given and {@code gate(y)}'s free: it chooses among device 1 alone (over all three,
     * the counter at 0 would give device 0) and continues {@code gate(y)}'s stream (#10, after the transfers of
     * {@code u} and {@code x} to device 1).
     */
    @Test
    void disjointFollowsTheParentOnTheChosenDeviceAmongSeveral() {
        Scheduler s = open(3, ParentStreamPolicy.MULTIGPU_DISJOINT);
        TestKernels k = new TestKernels(devices.get(0));
        TrackedArray x = array("x");
        TrackedArray y = array("y");
        TrackedArray z = array("z");
        TrackedArray u = array("u");
        s.submit(k.gate(flag(0), x));
        s.submit(k.gate(flag(1), y));
        s.submit(k.add(z, x, y));
        s.submit(k.add(u, y, x));
        Map<Long, String> at = streams();
        release();
        int[] gotZ = read(z);
        int[] gotU = read(u);
        assertEquals("cpu device 0", device(at.get(7L)), dag().toString());
        assertEquals(at.get(2L), at.get(7L), "z += x + y continues gate(x)'s stream: " + dag());
        assertEquals("cpu device 1", device(at.get(10L)), dag().toString());
        assertEquals(at.get(4L), at.get(10L), "u += y + x continues gate(y)'s stream: " + dag());
        for (int i = 0; i < N; i++) {
            // x and y were i + 1, the gates made them i + 2; z and u were i + 1 too.
            assertEquals((i + 1) + 2 * (i + 2), gotZ[i], "z[" + i + "]");
            assertEquals((i + 1) + 2 * (i + 2), gotU[i], "u[" + i + "]");
        }
    }

    /**
     * When a parent's stream is given: {@code multigpu-early-disjoint} gives it when the child is submitted, to
     * the first child submitted (GrCUDA's order, which has no queue); {@code disjoint} when a child is launched, to
     * the first child launched, the higher-ranked. Everything runs on device 0 ({@code single-gpu}). A host call
     * holding {@code p} keeps {@code p = p * 31 + 1} (#3, after the transfer of {@code p}, #2) from being placed
     * while its children are submitted: {@code a = 2p} (#5, after the transfer of {@code a}, #4), {@code b = 3p} (#7,
     * after #6) and {@code b = b * 31 + 5} (#8, after {@code b}'s last writer #7 only: #7 wrote {@code b} after the
     * transfer read it), which makes {@code b = 3p} rank above {@code a = 2p}. Once the
     * call returns they are launched in one pass, by rank: #2, #3 (on #2's stream), #7, then #5 and #8.
     *
     * <p>Under {@code disjoint}, #7, launched first, continues #3's stream and #5 takes another. Under
     * {@code multigpu-early-disjoint}, #5 was given #3's stream when submitted, and #7 the stream of its other
     * parent on device 0, the transfer #6, complete by then or not: not #3's. In both, #8 continues #7's stream.
     */
    @ParameterizedTest
    @EnumSource(value = ParentStreamPolicy.class, names = {"DISJOINT", "MULTIGPU_EARLY_DISJOINT"})
    void earlyDisjointGivesAParentsStreamInSubmissionOrderAndDisjointInLaunchOrder(ParentStreamPolicy policy)
            throws InterruptedException {
        Scheduler s = open(2, policy, DeviceSelectionPolicy.SINGLE_GPU);
        TestKernels k = new TestKernels(devices.get(0));
        TrackedArray p = array("p");
        TrackedArray a = array("a");
        TrackedArray b = array("b");
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch leave = new java.util.concurrent.CountDownLatch(1);
        Thread host = Thread.ofPlatform().start(() -> {
            try {
                s.callOnHost(ComputationalElement.hostCall("hold p", List.of(new Access(p, AccessMode.READ_WRITE))),
                        () -> {
                            entered.countDown();
                            try {
                                leave.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return null;
                        }, false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            entered.await();
            s.submit(k.step(p, 1));
            s.submit(k.scale(a, p, 2));
            s.submit(k.scale(b, p, 3));
            s.submit(k.step(b, 5));
        } finally {
            leave.countDown();
            host.join();
        }
        s.synchronize();
        Map<Long, String> at = streams();
        assertEquals(List.of(
                "1 host_call 'hold p' [] @host",
                "2 transfer 'p #1: host → cpu device 0' [1] @cpu device 0",
                "3 kernel 'step' [1, 2] @cpu device 0",
                "4 transfer 'a #2: host → cpu device 0' [] @cpu device 0",
                "5 kernel 'scale' [3, 4] @cpu device 0",
                "6 transfer 'b #3: host → cpu device 0' [] @cpu device 0",
                "7 kernel 'scale' [3, 6] @cpu device 0",
                "8 kernel 'step' [7] @cpu device 0"), dag());
        assertEquals(at.get(2L), at.get(3L));
        if (policy == ParentStreamPolicy.DISJOINT) {
            assertEquals(at.get(3L), at.get(7L), "b = 3p, launched first, continues p's step's stream");
            assertNotEquals(at.get(3L), at.get(5L));
        } else {
            assertEquals(at.get(3L), at.get(5L), "a = 2p, submitted first, continues p's step's stream");
            assertNotEquals(at.get(3L), at.get(7L));
        }
        assertEquals(at.get(7L), at.get(8L));
        int[] gotA = read(a);
        int[] gotB = read(b);
        for (int i = 0; i < N; i++) {
            int stepped = (i + 1) * 31 + 1;
            assertEquals(2 * stepped, gotA[i], "a[" + i + "]");
            assertEquals(3 * stepped * 31 + 5, gotB[i], "b[" + i + "]");
        }
    }

    /**
     * On one device the three disjoint policies are one, as in GrCUDA on one GPU: the first child of a running
     * parent continues its stream, a sibling gets another.
     */
    @ParameterizedTest
    @EnumSource(value = ParentStreamPolicy.class, names = {"DISJOINT", "MULTIGPU_EARLY_DISJOINT",
            "MULTIGPU_DISJOINT"})
    void onOneDeviceTheMultiGpuPoliciesAreDisjoint(ParentStreamPolicy policy) {
        Scheduler s = open(1, policy);
        TestKernels k = new TestKernels(devices.get(0));
        TrackedArray x = array("x");
        TrackedArray y1 = array("y1");
        TrackedArray y2 = array("y2");
        s.submit(k.gate(flag(0), x));
        s.submit(k.scale(y1, x, 2));
        s.submit(k.scale(y2, x, 3));
        Map<Long, String> at = streams();
        release();
        int[] got = read(y2);
        assertEquals(at.get(1L), at.get(2L), "the first child continues its parent's stream");
        assertNotEquals(at.get(1L), at.get(3L), "a sibling gets a stream of its own");
        assertEquals(3 * (1 + 2), got[1]);
    }
}
