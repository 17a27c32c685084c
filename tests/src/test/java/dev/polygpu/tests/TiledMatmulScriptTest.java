package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared-memory tiled matrix multiply of the CUDA samples, built and launched by a JavaScript guest through
 * the polyglot API. Its tile loop steps two indices, {@code for (int a = aBegin, b = bBegin; a <= aEnd;
 * a += aStep, b += bStep)}, around two barriers, and each thread must come back from a barrier with both
 * intact (they were once reset, and the multiply never ended). The script multiplies on the host too (small
 * integers, so every float sum is exact) and prints how many elements differ.
 */
// A loop that reruns its start never ends: the separate thread lets the timeout fail the test instead of hanging.
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TiledMatmulScriptTest {
    private static final String SCRIPT = """
            const SRC = `
            #define BS 16
            extern "C" __global__ void matmul(float *C, const float *A, const float *B, int wA, int wB) {
                int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
                int aBegin = wA * BS * by, aEnd = aBegin + wA - 1, aStep = BS;
                int bBegin = BS * bx, bStep = BS * wB;
                float sum = 0.0f;
                for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
                    __shared__ float As[BS][BS];
                    __shared__ float Bs[BS][BS];
                    As[ty][tx] = A[a + wA * ty + tx];
                    Bs[ty][tx] = B[b + wB * ty + tx];
                    __syncthreads();
                    for (int k = 0; k < BS; ++k) {
                        sum += As[ty][k] * Bs[k][tx];
                    }
                    __syncthreads();
                }
                C[wB * BS * by + BS * bx + wB * ty + tx] = sum;
            }`;
            const cu = Polyglot.eval('grcuda', 'CU');
            const matmul = cu.buildkernel(SRC,
                'matmul(C: out pointer float, A: in pointer float, B: in pointer float, wA: sint32, wB: sint32)');
            const hA = 32, wA = 48, wB = 32;
            const A = cu.DeviceArray('float', hA * wA);
            const B = cu.DeviceArray('float', wA * wB);
            const C = cu.DeviceArray('float', hA * wB);
            for (let i = 0; i < hA; i++) for (let k = 0; k < wA; k++) A[i * wA + k] = (i + 2 * k) % 7 - 3;
            for (let k = 0; k < wA; k++) for (let j = 0; j < wB; j++) B[k * wB + j] = (3 * k + j) % 5 - 2;
            matmul([wB / 16, hA / 16], [16, 16])(C, A, B, wA, wB);
            let wrong = 0;
            for (let i = 0; i < hA; i++) {
                for (let j = 0; j < wB; j++) {
                    let s = 0;
                    for (let k = 0; k < wA; k++) s += ((i + 2 * k) % 7 - 3) * ((3 * k + j) % 5 - 2);
                    if (C[i * wB + j] !== s) wrong++;
                }
            }
            console.log('mismatches ' + wrong + ' of ' + hA * wB);
            """;

    @Test
    void tiledMatrixMultiplyFromJavaScript() {
        assertEquals("mismatches 0 of 1024", Guests.eval("js", SCRIPT).strip());
    }
}
