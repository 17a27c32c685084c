package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A JavaScript program runs the warp-cooperative CSR sparse matrix-vector product of GrCUDA's HITS and
 * conjugate-gradient benchmarks through {@code buildkernel} on the CPU device and checks every row of every
 * launch against its own float arithmetic in the kernel's order: lanes 0 and 1 of each warp write the row's
 * bounds into {@code volatile __shared__} slots inside {@code if (lane < 2)}, every lane reads them, and the warp
 * reduces its partial sums through volatile shared memory, with no {@code __syncwarp}.
 */
class WarpSynchronousGuestTest {
    private static final String SCRIPT = """
            const cu = Polyglot.eval("grcuda", "CU");
            const SRC = `
            __global__ void spmv(const int *ptr, const int *cols, const float *vals, const float *x, float *y,
                                 int n) {
                __shared__ volatile int space[8][2];
                __shared__ volatile float red[256];
                int t = threadIdx.x;
                int lane = t & 31;
                int w = t >> 5;
                for (int row = blockIdx.x * 8 + w; row < n; row += gridDim.x * 8) {
                    if (lane < 2) {
                        space[w][lane] = ptr[row + lane];
                    }
                    int start = space[w][0];
                    int end = space[w][1];
                    float sum = 0.0f;
                    for (int j = start + lane; j < end; j += 32) {
                        sum += vals[j] * x[cols[j]];
                    }
                    red[t] = sum;
                    if (lane < 16) red[t] = sum = sum + red[t + 16];
                    if (lane < 8) red[t] = sum = sum + red[t + 8];
                    if (lane < 4) red[t] = sum = sum + red[t + 4];
                    if (lane < 2) red[t] = sum = sum + red[t + 2];
                    if (lane < 1) red[t] = sum = sum + red[t + 1];
                    if (lane == 0) {
                        y[row] = red[t];
                    }
                }
            }`;
            const N = 1000;
            const LAUNCHES = 20;
            let state = 12345;
            function next() {
                state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
                return state / 4294967296;
            }
            const ptr = [0];
            for (let i = 0; i < N; i++) ptr.push(ptr[i] + Math.floor(next() * 81));
            const nnz = ptr[N];
            const cols = [], vals = [], x = [];
            for (let j = 0; j < nnz; j++) {
                cols.push(Math.floor(next() * N));
                vals.push(Math.fround(next() * 2 - 1));
            }
            for (let i = 0; i < N; i++) x.push(Math.fround(next() * 2 - 1));
            // The kernel's order: lane l sums products l, l + 32, ... of its row; the tree adds lane l + off into l.
            const expected = [];
            for (let row = 0; row < N; row++) {
                const part = [];
                for (let l = 0; l < 32; l++) {
                    let s = 0;
                    for (let j = ptr[row] + l; j < ptr[row + 1]; j += 32) {
                        s = Math.fround(s + Math.fround(vals[j] * x[cols[j]]));
                    }
                    part.push(s);
                }
                for (let off = 16; off > 0; off >>= 1) {
                    for (let l = 0; l < off; l++) part[l] = Math.fround(part[l] + part[l + off]);
                }
                expected.push(part[0]);
            }
            function device(type, values) {
                const a = cu.DeviceArray(type, values.length);
                for (let i = 0; i < values.length; i++) a[i] = values[i];
                return a;
            }
            const dptr = device("int", ptr), dcols = device("int", cols), dvals = device("float", vals);
            const dx = device("float", x);
            const k = cu.buildkernel(SRC, "spmv(ptr: in pointer sint32, cols: in pointer sint32, "
                + "vals: in pointer float, x: in pointer float, y: out pointer float, n: sint32)");
            let wrong = 0, first = "";
            for (let launch = 0; launch < LAUNCHES; launch++) {
                const y = cu.DeviceArray("float", N);
                for (let i = 0; i < N; i++) y[i] = NaN;
                k(50, 256)(dptr, dcols, dvals, dx, y, N);
                for (let row = 0; row < N; row++) {
                    if (!Object.is(y[row], expected[row])) {
                        if (wrong === 0) first = " (first: launch " + launch + ", row " + row + ": " + y[row]
                            + " instead of " + expected[row] + ")";
                        wrong++;
                    }
                }
            }
            console.log("rows " + N + " x " + LAUNCHES + " launches, wrong " + wrong + first);
            """;

    @Test
    @Timeout(600)
    void everyRowOfEveryLaunchIsRight() {
        assertEquals("rows 1000 x 20 launches, wrong 0", Guests.eval("js", SCRIPT).strip());
    }
}
