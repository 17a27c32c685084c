package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

/**
 * Integer kernels with different access patterns, for the differential, heap and stress tests, and the
 * elements that launch them on arrays of {@code n} ints. Each kernel's plain-Java meaning is written beside it
 * in {@link RandomProgram}.
 *
 * <p>A factory made {@link #lyingAboutEveryStep() lying about step} declares the array {@code step} writes as
 * only read: a scheduler given its elements misses the edges after each step, which is what the meta-tests use
 * to show that the differential test catches a missing dependency. The write is declared instead on a private
 * alias of the array's buffer that no other element names, so it orders nothing; without it the scheduler
 * would pass the buffer read-only and the CPU device would fail the step outright (that check has tests of its
 * own), and the meta-tests would no longer show what the differential comparison notices. Such a factory
 * counts the steps it made, so it is for one run. Factories are thread-safe.
 */
final class DiffKernels {
    static final String SOURCE = """
            extern "C" __global__ void step(int* x, int s, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = x[i] * 31 + s;
            }
            extern "C" __global__ void scale(int* y, const int* x, int a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * a;
            }
            extern "C" __global__ void add(int* z, const int* x, const int* y, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) z[i] += x[i] + y[i];
            }
            extern "C" __global__ void mix(int* w, const int* a, const int* b, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) w[i] = a[i] * 7 - b[(i + 1) % n];
            }
            extern "C" __global__ void addc(int* x, int c, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += c;
            }
            extern "C" __global__ void chain(int* y, const int* x, int s, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) y[i] = x[i] * 31 + s;
            }
            """;
    /** Threads per block; a launch over n ints has ceil(n / THREADS) blocks, so chaos can scramble them. */
    static final int THREADS = 64;

    private final KernelFunction step;
    private final KernelFunction scale;
    private final KernelFunction add;
    private final KernelFunction mix;
    private final KernelFunction addc;
    private final KernelFunction chain;
    /** Null, or the source each element carries (what a scheduler with several devices builds the kernel from). */
    private final String source;
    /** Which elements made by {@link #step} (numbered from 0) declare their array as only read. */
    private final IntPredicate lyingSteps;
    private final AtomicInteger steps = new AtomicInteger();

    DiffKernels(Device device) {
        this(device, false);
    }

    /**
     * The kernels built on {@code device}; with {@code withSource}, each element carries its source, so that a
     * scheduler with several devices may run it on any of them (and a cluster layer may take it).
     */
    DiffKernels(Device device, boolean withSource) {
        this.source = withSource ? SOURCE : null;
        Module m = device.compile(SOURCE, "diff-kernels.cu");
        this.step = m.function("step");
        this.scale = m.function("scale");
        this.add = m.function("add");
        this.mix = m.function("mix");
        this.addc = m.function("addc");
        this.chain = m.function("chain");
        this.lyingSteps = i -> false;
    }

    private DiffKernels(DiffKernels k, IntPredicate lyingSteps) {
        this.source = k.source;
        this.step = k.step;
        this.scale = k.scale;
        this.add = k.add;
        this.mix = k.mix;
        this.addc = k.addc;
        this.chain = k.chain;
        this.lyingSteps = lyingSteps;
    }

    /**
     * The same kernels, but every element made by {@link #step} declares the array it read-writes as only
     * read: a broken submitter, whose scheduler misses the edges from each step to the readers after it.
     */
    DiffKernels lyingAboutEveryStep() {
        return new DiffKernels(this, i -> true);
    }

    /** Like {@link #lyingAboutEveryStep()}, but only the first step made lies: one missing edge, or a few. */
    DiffKernels lyingAboutTheFirstStep() {
        return new DiffKernels(this, i -> i == 0);
    }

    private static LaunchConfig grid(int n) {
        return LaunchConfig.of((n + THREADS - 1) / THREADS, THREADS);
    }

    private ComputationalElement kernel(KernelFunction f, String label, List<Access> accesses,
            KernelArgs args, LaunchConfig config) {
        KernelSource from = source == null ? null : new KernelSource(source, f.name(), f.name());
        return ComputationalElement.kernel(label, accesses, new Work.Kernel(f, config, args, from), null);
    }

    /** x = x * 31 + s */
    ComputationalElement step(TrackedArray x, int s, int n) {
        List<Access> declared = List.of(new Access(x, AccessMode.READ_WRITE));
        if (lyingSteps.test(steps.getAndIncrement())) {
            TrackedArray alias = x.owner.track(x.name() + " (undeclared alias)", x.buffer(), x.bytes());
            declared = List.of(new Access(x, AccessMode.READ), new Access(alias, AccessMode.READ_WRITE));
        }
        return kernel(step, "step", declared, KernelArgs.builder().pointer(x.buffer()).i32(s).i32(n).build(),
                grid(n));
    }

    /** y = x * a */
    ComputationalElement scale(TrackedArray y, TrackedArray x, int a, int n) {
        return kernel(scale, "scale", List.of(new Access(y, AccessMode.WRITE), new Access(x, AccessMode.READ)),
                KernelArgs.builder().pointer(y.buffer()).pointer(x.buffer()).i32(a).i32(n).build(), grid(n));
    }

    /** z += x + y */
    ComputationalElement add(TrackedArray z, TrackedArray x, TrackedArray y, int n) {
        return kernel(add, "add", List.of(new Access(z, AccessMode.READ_WRITE), new Access(x, AccessMode.READ),
                new Access(y, AccessMode.READ)),
                KernelArgs.builder().pointer(z.buffer()).pointer(x.buffer()).pointer(y.buffer()).i32(n).build(),
                grid(n));
    }

    /** w[i] = a[i] * 7 - b[(i + 1) % n]; w must be neither a nor b (other elements of b are read). */
    ComputationalElement mix(TrackedArray w, TrackedArray a, TrackedArray b, int n) {
        return kernel(mix, "mix", List.of(new Access(w, AccessMode.WRITE), new Access(a, AccessMode.READ),
                new Access(b, AccessMode.READ)),
                KernelArgs.builder().pointer(w.buffer()).pointer(a.buffer()).pointer(b.buffer()).i32(n).build(),
                grid(n));
    }

    /** x += c (commutative: what threads sharing a counter array do) */
    ComputationalElement addc(TrackedArray x, int c, int n) {
        return kernel(addc, "addc", List.of(new Access(x, AccessMode.READ_WRITE)),
                KernelArgs.builder().pointer(x.buffer()).i32(c).i32(n).build(), grid(n));
    }

    /** y = x * 31 + s, as one block of n threads: the heap test's tiny launch */
    ComputationalElement chain(TrackedArray y, TrackedArray x, int s, int n) {
        return kernel(chain, "chain", List.of(new Access(y, AccessMode.WRITE), new Access(x, AccessMode.READ)),
                KernelArgs.builder().pointer(y.buffer()).pointer(x.buffer()).i32(s).i32(n).build(),
                LaunchConfig.of(1, n));
    }
}
