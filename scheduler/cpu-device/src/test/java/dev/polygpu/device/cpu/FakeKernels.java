package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.CompiledModule;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/** Hand-written stand-ins for what the kernel engine produces, to test the CPU device without it. */
final class FakeKernels {

    private FakeKernels() {
    }

    /** A kernel whose runners come from {@code runners}. */
    record FakeKernel(String name, List<KernelParam> parameters, int staticSharedBytes, Supplier<BlockRunner> runners)
            implements CompiledKernel {
        @Override
        public boolean cooperative() {
            return false;
        }

        @Override
        public BlockRunner newRunner() {
            return runners.get();
        }

        static FakeKernel of(String name, BlockRunner body, KernelParam... params) {
            return new FakeKernel(name, List.of(params), 0, () -> body);
        }
    }

    /** A module holding {@code kernels}, whatever the source. */
    static BiFunction<String, String, CompiledModule> compiler(CompiledKernel... kernels) {
        Map<String, CompiledKernel> byName = new LinkedHashMap<>();
        for (CompiledKernel k : kernels) {
            byName.put(k.name(), k);
        }
        CompiledModule module = new CompiledModule() {
            @Override
            public List<String> kernelNames() {
                return List.copyOf(byName.keySet());
            }

            @Override
            public CompiledKernel kernel(String name) {
                CompiledKernel k = byName.get(name);
                if (k == null) {
                    throw new DeviceException(CudaError.NOT_FOUND, "no kernel '" + name + "'; the module has "
                            + kernelNames());
                }
                return k;
            }
        };
        return (source, file) -> module;
    }

    static KernelParam ptr(String name, ElementType type) {
        return new KernelParam(name, true, type);
    }

    static KernelParam scalar(String name, ElementType type) {
        return new KernelParam(name, false, type);
    }

    /** {@code saxpy(float* y, const float* x, float a, int n)}: y[i] = a * x[i] + y[i]. */
    static FakeKernel saxpy() {
        return FakeKernel.of("saxpy", (f, bx, by, bz) -> {
            float a = Float.intBitsToFloat((int) f.values()[2]);
            int n = (int) f.values()[3];
            for (int t = 0; t < f.block().x(); t++) {
                long i = (long) bx * f.block().x() + t;
                if (i < n) {
                    float x = f.segments()[1].get(ValueLayout.JAVA_FLOAT_UNALIGNED, f.values()[1] + 4 * i);
                    long yAt = f.values()[0] + 4 * i;
                    float y = f.segments()[0].get(ValueLayout.JAVA_FLOAT_UNALIGNED, yAt);
                    f.segments()[0].set(ValueLayout.JAVA_FLOAT_UNALIGNED, yAt, a * x + y);
                }
            }
        }, ptr("y", ElementType.FLOAT), ptr("x", ElementType.FLOAT), scalar("a", ElementType.FLOAT),
                scalar("n", ElementType.INT32));
    }

    /** {@code mark(int* out)}: every thread of the grid adds 1 to its own element (linear, x fastest). */
    static FakeKernel mark() {
        return FakeKernel.of("mark", (f, bx, by, bz) -> {
            MemorySegment out = f.segments()[0];
            long threads = f.block().volume();
            long block = ((long) bz * f.grid().y() + by) * f.grid().x() + bx;
            for (long t = 0; t < threads; t++) {
                long at = f.values()[0] + 4 * (block * threads + t);
                out.set(ValueLayout.JAVA_INT_UNALIGNED, at, out.get(ValueLayout.JAVA_INT_UNALIGNED, at) + 1);
            }
        }, ptr("out", ElementType.INT32));
    }

    /** Reads {@code frame}'s int scalar {@code i}. */
    static int intArg(LaunchFrame frame, int i) {
        return (int) frame.values()[i];
    }
}
