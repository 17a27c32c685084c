package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleOptions;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * bench/fuzz's case 1585 (seed 7), reduced by hand: a local array that is still to be read, while an inlined
 * template function fills a local array of its own. nvcc 13.0's optimized PTX gives both arrays one 32-byte
 * stack slot and reads the first after the second has overwritten it; its {@code -G} PTX, g++ and the engine
 * keep them apart (docs/fuzzing.md, "What it has found").
 */
class LocalArraysLiveTogetherTest {
    private static final String SOURCE = """
            template <typename T>
            __device__ T t4(T a, T b, int k) {
                T r = a;
                T arr[4] = {a, b, b, a};
                arr[(k >> 2) & 3] = r;
                for (int i = 0; i < (k & 3); i++) {
                    if (arr[i] > r) r = arr[i];
                }
                return r;
            }
            extern "C" __global__ void m(const int* in, int* out) {
                int a6[8] = {84, 0, 0, 0, 0, 0, 0, 0};
                double d = t4<double>(0.0, 0.5, in[0]);
                int x = a6[(int)d & 7];
                out[0] = x + t4<int>(0, 0, (int)t4<double>(0.0, 0.0, (int)d));
            }
            """;

    /**
     * in[0] = 1: t4(0.0, 0.5, 1) stores r = 0.0 at arr[0] and looks at arr[0] only, so d = 0.0; x = a6[0] = 84;
     * t4(0.0, 0.0, 0) and t4(0, 0, 0) return their first argument, 0. So out[0] = 84.
     */
    @Test
    void theEngineReadsTheFirstArrayAsItWasWritten() {
        try (CpuDevice dev = new CpuDevice(1)) {
            UnifiedBuffer in = ints(dev, new int[] {1});
            UnifiedBuffer out = ints(dev, new int[1]);
            run(dev, dev.compile(SOURCE, "live.cu").function("m"), 1, 1,
                    KernelArgs.builder().pointer(in).pointer(out).build());
            assertArrayEquals(new int[] {84}, readInts(out, 1));
        }
    }

    @Test
    void nvccsUnoptimizedPtxAgreesWithTheEngine() {
        OracleTests.assumeNvcc();
        OracleCase c = new OracleCase("live", SOURCE, "m", LaunchConfig.of(1, 1), List.of(
                new OracleArg.Buffer("in", OracleType.I32, le(1), 0),
                new OracleArg.Buffer("out", OracleType.I32, le(0), 0)));
        try (DifferentialOracle g = DifferentialOracle.create(OracleOptions.DEFAULTS.withOptimized(false))) {
            assertInstanceOf(OracleResult.Equal.class, g.check(c));
        }
    }

    private static byte[] le(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }
}
