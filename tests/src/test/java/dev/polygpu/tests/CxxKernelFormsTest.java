package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A templated kernel written with C++ value-initialization ({@code T acc{};}) and a functional cast inside
 * parentheses ({@code (float(x) / 255)}), built and launched from JavaScript on the CPU device. The script
 * computes the expected values itself and prints how many elements differ.
 */
class CxxKernelFormsTest {
    /**
     * out[i] = px[i] / 255 (in float) + the mean of px[i..i+3] (wrapping), in T. The float quotient is
     * JavaScript's Math.fround of the double quotient: double has more than twice float's precision, so rounding
     * the double quotient of two floats to float gives the correctly rounded float quotient. The mean of four
     * bytes is exact in either type; for T = float the sum is rounded to float, for T = double it is a double.
     */
    private static final String SRC = """
            template <typename T> __global__ void normalize(const unsigned char* px, T* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i >= n) return;
                T acc{};
                for (int j = 0; j < 4; j++) acc += T(px[(i + j) % n]);
                out[i] = (float(px[i]) / 255) + acc / T{4};
            }""";

    @Test
    void javaScript() {
        String out = Guests.eval("js", "const cu = Polyglot.eval('grcuda', 'CU');\n"
                + "const SRC = `" + SRC + "`;\n"
                + """
                const n = 300;
                const host = [];
                const px = cu.DeviceArray('uchar', n);
                for (let i = 0; i < n; i++) px[i] = host[i] = (i * 37 + 11) % 256;
                let bad = 0;
                for (const t of ['float', 'double']) {
                    const out = cu.DeviceArray(t, n);
                    const k = cu.buildkernel(SRC, `normalize<${t}>(px: in pointer uint8, out: out pointer ${t},`
                        + ' n: sint32)');
                    k(3, 128)(px, out, n);
                    for (let i = 0; i < n; i++) {
                        let sum = 0;
                        for (let j = 0; j < 4; j++) sum += host[(i + j) % n];
                        const q = Math.fround(host[i] / 255);
                        const want = t === 'float' ? Math.fround(q + sum / 4) : q + sum / 4;
                        if (out[i] !== want) bad++;
                    }
                }
                console.log('differ', bad);""");
        assertEquals("differ 0", out.strip());
    }
}
