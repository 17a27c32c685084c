package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.SchedulerConfig.DependencyPolicy;
import dev.polygpu.runtime.SchedulerConfig.ExecutionPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler passes the arrays an element only reads read-only under {@code WITH_CONST} and nothing under
 * {@code NO_CONST}, so that on the CPU device a kernel that writes where its element said it reads fails,
 * at the host access or synchronization that waits for it, instead of racing.
 */
@Timeout(60)
class SchedulerReadOnlyTest {
    private static final int N = 512;
    private static final long SEED = 90_210L;
    private static final String SOURCE = """
            extern "C" __global__ void twice(int* y, int* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    y[i] = 2 * x[i];
                    x[i] = -1;
                }
            }
            extern "C" __global__ void twiceAliased(int* y, int* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    x[i] = 2 * y[i];
                }
            }
            """;
    private static final LaunchConfig CONFIG = LaunchConfig.of(N / 128, 128);

    private final CpuDevice device = new CpuDevice(2);
    private final Module module = device.compile(SOURCE, "read-only.cu");
    private final List<Scheduler> schedulers = new ArrayList<>();

    @AfterEach
    void close() {
        for (Scheduler s : schedulers) {
            s.close();
        }
        device.close();
    }

    private Scheduler scheduler(SchedulerConfig config) {
        Scheduler s = new Scheduler(device, config);
        schedulers.add(s);
        return s;
    }

    private static int[] randomInts() {
        Random r = new Random(SEED);
        int[] v = new int[N];
        for (int i = 0; i < N; i++) {
            v[i] = r.nextInt(20_001) - 10_000;
        }
        return v;
    }

    private TrackedArray array(Scheduler s, String name, int[] contents) {
        UnifiedBuffer b = device.allocate(4L * N);
        for (int i = 0; i < N; i++) {
            b.setInt(i, contents[i]);
        }
        return s.track(name, b, 4L * N);
    }

    private static int[] ints(TrackedArray a) {
        int[] out = new int[N];
        for (int i = 0; i < N; i++) {
            out[i] = a.buffer().getInt(i);
        }
        return out;
    }

    /** twice(y, x): declared to write y and only read x, though it writes x too. */
    private ComputationalElement twice(TrackedArray y, TrackedArray x, AccessMode xMode) {
        return ComputationalElement.kernel("twice", List.of(new Access(y, AccessMode.WRITE), new Access(x, xMode)),
                new Work.Kernel(module.function("twice"), CONFIG,
                        KernelArgs.builder().pointer(y.buffer()).pointer(x.buffer()).i32(N).build(), null), null);
    }

    private static void assertNamesKernelAndParameter(DeviceException e) {
        String m = e.getMessage();
        assertEquals(CudaError.NOT_PERMITTED, e.error(), m);
        assertTrue(m.contains("kernel 'twice'") && m.contains("parameter 'x' (argument 2")
                && m.contains("read-only") && m.contains("'inout'"), m);
    }

    @Test
    void underWithConstAWriteToAnArrayDeclaredReadFailsAtTheHostReadThatWaitsForIt() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withDependencies(DependencyPolicy.WITH_CONST));
        int[] in = randomInts();
        TrackedArray x = array(s, "x", in);
        TrackedArray y = array(s, "y", new int[N]);
        s.submit(twice(y, x, AccessMode.READ));
        DeviceException e = assertThrows(DeviceException.class, () -> s.awaitHost(y, AccessMode.READ, "read y"));
        assertNamesKernelAndParameter(e);
        assertDoesNotThrow(() -> s.synchronize(), "the failure is reported once");

        // The scheduler and the device keep working: declared honestly, the same kernel runs.
        TrackedArray x2 = array(s, "x2", in);
        s.submit(twice(y, x2, AccessMode.READ_WRITE));
        s.awaitHost(y, AccessMode.READ, "read y");
        s.awaitHost(x2, AccessMode.READ, "read x2");
        int[] doubled = new int[N];
        int[] minusOne = new int[N];
        for (int i = 0; i < N; i++) {
            doubled[i] = 2 * in[i];
            minusOne[i] = -1;
        }
        assertArrayEquals(doubled, ints(y));
        assertArrayEquals(minusOne, ints(x2));
    }

    @Test
    void aFailureOfAnElementThatWritesNothingDeclaredIsThrownBySynchronize() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray x = array(s, "x", randomInts());
        // y is an untracked scratch buffer: the element declares only its read of x.
        UnifiedBuffer y = device.allocate(4L * N);
        s.submit(ComputationalElement.kernel("twice", List.of(new Access(x, AccessMode.READ)),
                new Work.Kernel(module.function("twice"), CONFIG,
                        KernelArgs.builder().pointer(y).pointer(x.buffer()).i32(N).build(), null), null));
        assertNamesKernelAndParameter(assertThrows(DeviceException.class, s::synchronize));
    }

    @Test
    void underSyncTheSubmitThrows() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withExecution(ExecutionPolicy.SYNC));
        TrackedArray x = array(s, "x", randomInts());
        TrackedArray y = array(s, "y", new int[N]);
        assertNamesKernelAndParameter(assertThrows(DeviceException.class, () -> s.submit(twice(y, x,
                AccessMode.READ))));
    }

    @Test
    void underNoConstNothingIsReadOnly() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withDependencies(DependencyPolicy.NO_CONST));
        int[] in = randomInts();
        TrackedArray x = array(s, "x", in);
        TrackedArray y = array(s, "y", new int[N]);
        s.submit(twice(y, x, AccessMode.READ));
        s.synchronize();
        for (int i = 0; i < N; i++) {
            assertEquals(2 * in[i], ints(y)[i], "y[" + i + "] (seed " + SEED + ")");
            assertEquals(-1, ints(x)[i], "x[" + i + "]");
        }
    }

    @Test
    void anArrayPassedForAReadAndAWriteParameterStaysWritable() {
        // twiceAliased(x, x) declared as (in, inout): the element writes x, so neither pointer is read-only.
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        int[] in = randomInts();
        TrackedArray x = array(s, "x", in);
        s.submit(ComputationalElement.kernel("twiceAliased",
                List.of(new Access(x, AccessMode.READ), new Access(x, AccessMode.READ_WRITE)),
                new Work.Kernel(module.function("twiceAliased"), CONFIG,
                        KernelArgs.builder().pointer(x.buffer()).pointer(x.buffer()).i32(N).build(), null), null));
        s.awaitHost(x, AccessMode.READ, "read x");
        for (int i = 0; i < N; i++) {
            assertEquals(2 * in[i], ints(x)[i], "x[" + i + "] (seed " + SEED + ")");
        }
    }

    @Test
    void markReadOnlyMarksPointersIntoArraysOnlyRead() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray a = array(s, "a", new int[N]);
        TrackedArray b = array(s, "b", new int[N]);
        UnifiedBuffer untracked = device.allocate(16);
        KernelArgs args = KernelArgs.builder().pointer(a.buffer()).pointer(b.buffer(), 8).pointer(untracked)
                .pointer(null).i32(3).pointer(a.buffer(), 4).build();
        Work.Kernel k = new Work.Kernel(module.function("twice"), CONFIG, args, null);

        KernelArgs marked = k.markReadOnly(List.of(new Access(a, AccessMode.READ), new Access(b, AccessMode.WRITE)))
                .args();
        boolean[] expected = {true, false, false, false, false, true};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], marked.isReadOnly(i), "argument " + (i + 1) + " of " + marked);
        }
        assertSame(k, k.markReadOnly(List.of(new Access(a, AccessMode.READ_WRITE))), "nothing to mark");
        Work.Kernel once = k.markReadOnly(List.of(new Access(a, AccessMode.READ)));
        assertFalse(once.markReadOnly(List.of(new Access(a, AccessMode.WRITE))).args().hasReadOnly(),
                "marks are replaced, not added to");
    }
}
