package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Small integer kernels whose results depend on their order, and elements that launch them. */
final class TestKernels {
    static final String SOURCE = """
            extern "C" __global__ void gate(int* flag, int* x, int n) {
                while (atomicAdd(flag, 0) == 0) { }
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += 1;
            }
            extern "C" __global__ void hold(int* flag, int* x, int n) {
                atomicExch(flag + 1, 1);
                while (atomicAdd(flag, 0) == 0) { }
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += 1;
            }
            extern "C" __global__ void step(int* x, int s, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] * 31 + s;
            }
            extern "C" __global__ void inc(int* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += 1;
            }
            extern "C" __global__ void scale(int* y, const int* x, int a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * a;
            }
            extern "C" __global__ void add(int* z, const int* x, const int* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) z[i] += x[i] + y[i];
            }
            extern "C" __global__ void fault(int* x, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i == 0) x[n + 1000000] = 1;
            }
            """;
    private static final int N = SchedulerTest.N;
    /** Reads the int at a byte offset of a segment with acquire semantics: the hold kernel's mark. */
    private static final VarHandle RUNNING = ValueLayout.JAVA_INT.varHandle();
    private static final LaunchConfig CONFIG = LaunchConfig.of(2, N / 2);

    private final Device device;
    private final Module module;

    TestKernels(Device device) {
        this.device = device;
        this.module = device.compile(SOURCE, "test-kernels.cu");
    }

    TrackedArray array(Scheduler s, String name) {
        UnifiedBuffer b = device.allocate(4L * N);
        return s.track(name, b, 4L * N);
    }

    static int[] ints(TrackedArray a) {
        int[] out = new int[N];
        for (int i = 0; i < N; i++) {
            out[i] = a.buffer().getInt(i);
        }
        return out;
    }

    KernelFunction stepFunction() {
        return module.function("step");
    }

    private ComputationalElement kernel(String name, List<Access> accesses, KernelArgs args) {
        return kernel(name, accesses, args, CONFIG);
    }

    private ComputationalElement kernel(String name, List<Access> accesses, KernelArgs args, LaunchConfig config) {
        return ComputationalElement.kernel(name, accesses, new Work.Kernel(module.function(name), config, args,
                new KernelSource(SOURCE, name, name + "(...)")), null);
    }

    /** Waits until {@code flag} (untracked, set by the test) is non-zero, then adds 1 to x. */
    ComputationalElement gate(UnifiedBuffer flag, TrackedArray x) {
        // One block: it occupies one worker of the CPU device while it waits, leaving the others to the rest.
        return kernel("gate", List.of(new Access(x, AccessMode.READ_WRITE)),
                KernelArgs.builder().pointer(flag).pointer(x.buffer()).i32(N).build(), LaunchConfig.of(1, N));
    }

    /**
     * A {@link #gate} that also sets {@code flag[1]} (so {@code flag} holds two ints) once its block runs: a test
     * that must know the gate occupies a worker, not merely that it was submitted, waits with
     * {@link #awaitHolding}. Until then a block of a higher-priority stream may still take the worker first.
     */
    ComputationalElement hold(UnifiedBuffer flag, TrackedArray x) {
        if (flag.byteSize() < 8) {
            throw new IllegalArgumentException("hold needs a flag of two ints, got " + flag.byteSize() + " bytes");
        }
        return kernel("hold", List.of(new Access(x, AccessMode.READ_WRITE)),
                KernelArgs.builder().pointer(flag).pointer(x.buffer()).i32(N).build(), LaunchConfig.of(1, N));
    }

    /** Waits (at most 30 s) until the {@link #hold} kernel given {@code flag} has started running. */
    static void awaitHolding(UnifiedBuffer flag) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((int) RUNNING.getAcquire(flag.hostView(), 4L) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the hold kernel did not start within 30 s");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }

    ComputationalElement step(TrackedArray x, int s) {
        return kernel("step", List.of(new Access(x, AccessMode.READ_WRITE)),
                KernelArgs.builder().pointer(x.buffer()).i32(s).i32(N).build());
    }

    ComputationalElement inc(TrackedArray x) {
        return kernel("inc", List.of(new Access(x, AccessMode.READ_WRITE)),
                KernelArgs.builder().pointer(x.buffer()).i32(N).build());
    }

    ComputationalElement scale(TrackedArray y, TrackedArray x, int a) {
        return kernel("scale", List.of(new Access(y, AccessMode.WRITE), new Access(x, AccessMode.READ)),
                KernelArgs.builder().pointer(y.buffer()).pointer(x.buffer()).i32(a).i32(N).build());
    }

    ComputationalElement add(TrackedArray z, TrackedArray x, TrackedArray y) {
        return kernel("add", List.of(new Access(z, AccessMode.READ_WRITE), new Access(x, AccessMode.READ),
                new Access(y, AccessMode.READ)),
                KernelArgs.builder().pointer(z.buffer()).pointer(x.buffer()).pointer(y.buffer()).i32(N).build());
    }

    /** y += x, as {@code add(y, x, zero)} would, with x read and y read-written. */
    ComputationalElement addInto(TrackedArray y, TrackedArray x) {
        return kernel("add", List.of(new Access(y, AccessMode.READ_WRITE), new Access(x, AccessMode.READ)),
                KernelArgs.builder().pointer(y.buffer()).pointer(x.buffer()).pointer(zero()).i32(N).build());
    }

    private UnifiedBuffer zero;

    private UnifiedBuffer zero() {
        if (zero == null) {
            zero = device.allocate(4L * N);
        }
        return zero;
    }

    /** Writes far past the end of x: a kernel fault. */
    ComputationalElement fault(TrackedArray x) {
        return kernel("fault", List.of(new Access(x, AccessMode.WRITE)),
                KernelArgs.builder().pointer(x.buffer()).i32(N).build());
    }
}
