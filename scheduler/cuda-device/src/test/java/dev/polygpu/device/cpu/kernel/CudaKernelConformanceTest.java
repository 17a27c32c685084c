package dev.polygpu.device.cpu.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.cuda.CudaProbe;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The kernel engine's conformance cases run on a real GPU: the same CUDA C and the same Java models of its
 * semantics, so a case that passes on the CPU device and fails here shows where the CPU device is not CUDA.
 * Skips, with the probe's reason, where no GPU can be used. The one case that is the CPU engine's own limit
 * (it rejects recursion, which CUDA runs) is replaced by a check that the GPU runs it.
 */
@Tag("gpu")
class CudaKernelConformanceTest extends KernelConformanceTest {
    /** Hides the CPU device's setup: the suite's cases run on CUDA device 0 instead. */
    @BeforeAll
    static void open() {
        CudaProbe.Result probe = CudaProbe.result();
        assumeTrue(probe.usable(), () -> "no usable GPU: " + probe.reason());
        dev = CudaDevice.open(0);
    }

    @Override
    @Test
    void recursionIsRejected() {
        String src = """
                __device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
                __device__ int odd(int n);
                __device__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }
                __device__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }
                extern "C" __global__ void k(int* out) { out[0] = fact(5); out[1] = even(10); out[2] = even(7); }
                """;
        UnifiedBuffer out = dev.allocate(12);
        dev.defaultStream().launch(dev.compile(src, "recursion.cu").function("k"), LaunchConfig.of(1, 1),
                KernelArgs.builder().pointer(out).build());
        dev.synchronize();
        assertEquals(120, out.getInt(0));
        assertEquals(1, out.getInt(1));
        assertEquals(0, out.getInt(2));
        out.free();
    }
}
