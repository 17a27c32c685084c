package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * GrCUDA's launch form {@code k(grid, block, stream)}: a third launch argument that is not a number is the
 * stream (GrCUDA's documented launch forms). The kernel squares 0..99; the expected squares are i * i.
 */
class StreamLaunchArgumentTest {
    private static final String SRC = "__global__ void sq(float *x, int n) {"
            + " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * x[i]; }";
    private static final String SIG = "sq(x: inout pointer float, n: sint32)";

    @Test
    void python() {
        String out = Guests.eval("python", Compat.PY + """
                k = cu.buildkernel('%s', '%s')
                x = cu.DeviceArray('float', 100)
                for i in range(100): x[i] = i
                s = cu.cudaStreamCreate()
                k(4, 32, s)(x, 100)
                cu.cudaStreamSynchronize(s)
                k((2,), [64], s)(x, 10)
                cu.cudaStreamSynchronize(s)
                print(x[9], x[3], x[99], x[50])""".formatted(SRC, SIG));
        assertEquals("6561.0 81.0 9801.0 2500.0", out.strip());
    }

    @Test
    void javascript() {
        String out = Guests.eval("js", Compat.JS + """
                const k = cu.buildkernel('%s', '%s');
                const x = cu.DeviceArray('float', 100);
                for (let i = 0; i < 100; i++) x[i] = i;
                const s = cu.cudaStreamCreate();
                k(4, 32, s)(x, 100);
                cu.cudaStreamSynchronize(s);
                console.log(x[9], x[99]);""".formatted(SRC, SIG));
        assertEquals("81 9801", out.strip());
    }

    @Test
    void java() {
        Compat.java(cu -> {
            Value k = cu.invokeMember("buildkernel", SRC, SIG);
            Value x = cu.invokeMember("DeviceArray", "float", 100);
            for (int i = 0; i < 100; i++) {
                x.setArrayElement(i, i);
            }
            Value s = cu.invokeMember("cudaStreamCreate");
            k.execute(4, 32, s).execute(x, 100);
            cu.invokeMember("cudaStreamSynchronize", s);
            assertEquals(49f, x.getArrayElement(7).asFloat());
            assertEquals(9801f, x.getArrayElement(99).asFloat());
            // shared memory bytes and a stream still work as the 3rd and 4th arguments
            k.execute(4, 32, 0, s).execute(x, 100);
            cu.invokeMember("cudaStreamSynchronize", s);
            assertEquals(2401f, x.getArrayElement(7).asFloat());
        });
    }

    @Test
    void aThirdArgumentThatIsNeitherANumberNorAStreamIsRefused() {
        Compat.fails("python", Compat.PY + """
                k = cu.buildkernel('%s', '%s')
                k(4, 32, 'fast')""".formatted(SRC, SIG),
                "argument 3 must be a number of shared memory bytes or a stream from cudaStreamCreate(), got");
        Compat.java(cu -> {
            Value k = cu.invokeMember("buildkernel", SRC, SIG);
            Value e = cu.invokeMember("cudaEventCreate");
            PolyglotException ex = assertThrows(PolyglotException.class, () -> k.execute(4, 32, e));
            Compat.assertGuestError(ex, "kernel 'sq': argument 3 must be a number of shared memory bytes or a"
                    + " stream from cudaStreamCreate(), got event");
        });
    }
}
