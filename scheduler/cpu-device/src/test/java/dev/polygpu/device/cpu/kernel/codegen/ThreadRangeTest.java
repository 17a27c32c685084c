package dev.polygpu.device.cpu.kernel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleTests;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Regions whose body is {@code if (tid < s)} or {@code if (tid == k)} visit only the {@code threadIdx.x} that pass
 * ({@link ThreadRange}), checked against nvcc's PTX on the PTX interpreter: the tree reduction's steps, 2D blocks
 * (the comparison is on x only), bounds past the block, negative, unsigned ones that wrap, 64-bit ones, and
 * {@code ==} with a bound outside the block.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThreadRangeTest {
    private static final long SEED = 0x7a4e_3b21L;

    /** A tree reduction over a 2D block's rows, then a few comparisons of each kind on x. */
    private static final String KERNEL = """
            extern "C" __global__ void NAME(const int *in, int *out, int k) {
                __shared__ int s[256];
                unsigned int tid = threadIdx.x;
                int row = threadIdx.y * blockDim.x;
                s[row + tid] = in[blockIdx.x * blockDim.x * blockDim.y + row + tid];
                __syncthreads();
                for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {
                    if (tid < h) {
                        s[row + tid] += s[row + tid + h];
                    }
                    __syncthreads();
                }
                int v = s[row];
                __syncthreads();
                if (threadIdx.x < k - 3) {
                    s[row + threadIdx.x] = v + 1;
                }
                __syncthreads();
                if ((int) threadIdx.x < k - 20) {
                    s[row + threadIdx.x] += 2;
                }
                __syncthreads();
                if (tid == (unsigned int) (k + 1)) {
                    s[row + tid] *= 3;
                }
                __syncthreads();
                if ((long long) threadIdx.x < (long long) k * 1000000000LL - 1) {
                    s[row + threadIdx.x] ^= 0x40;
                }
                __syncthreads();
                if (tid == 0) {
                    out[blockIdx.x * blockDim.y + threadIdx.y] = v;
                }
                out[gridDim.x * blockDim.y + blockIdx.x * blockDim.x * blockDim.y + row + tid] = s[row + tid];
            }
            """;

    @Test
    void theRegionsOfTheseIfsVisitOnlyTheirThreads() {
        RegionForm form = RegionFormProbe.form(NamedKernels.named(KERNEL, "k"), "k");
        long ranged = form.regions.stream().filter(r -> r.range != null).count();
        // The five ifs that are a region by themselves; the last region has the final store beside its if.
        assertEquals(5, ranged);
    }

    @Test
    void rangedRegionsAgreeWithNvccsPtx() {
        OracleTests.assumeNvcc();
        Random r = new Random(SEED);
        List<OracleCase> cases = new ArrayList<>();
        int[][] shapes = {{32, 4, 2}, {64, 2, 3}, {16, 8, 1}};
        // k: small, negative (the unsigned comparison wraps to a huge bound; the signed one passes no thread),
        // past the block, and one whose == picks a thread
        int[] ks = {5, -7, 100, 20};
        for (int[] sh : shapes) {
            for (int k : ks) {
                String name = "r" + sh[0] + "x" + sh[1] + "k" + (k < 0 ? "m" + -k : k);
                int threads = sh[0] * sh[1] * sh[2];
                cases.add(new OracleCase(name, NamedKernels.named(KERNEL, name), name,
                        new LaunchConfig(Dim3.of(sh[2]), new Dim3(sh[0], sh[1], 1), 0),
                        List.of(OracleTests.randomInts("in", r, threads),
                                OracleTests.randomInts("out", r, sh[2] * sh[1] + threads), OracleTests.intScalar(k))));
            }
        }
        OracleTests.assertAllEqual(cases, SEED);
    }

    /** The region form of a kernel, for looking at its regions. */
    static final class RegionFormProbe {
        private RegionFormProbe() {
        }

        static RegionForm form(String source, String kernel) {
            YieldLowering lowering = new YieldLowering();
            Plan plan = new Plan(FrontEnd.compile(source, "t.cu").kernel(kernel), lowering,
                    dev.polygpu.device.cpu.kernel.exec.ModuleMemory.EMPTY);
            return RegionForm.of(plan);
        }
    }
}
