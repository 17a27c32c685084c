package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * {@code cudaGetErrorString} and {@code cudaGetErrorName} take CUDA runtime error codes ({@code cudaError_t}) and
 * answer as the CUDA runtime does. Expected strings: what libcudart 13.0's functions return, printed by a C
 * program compiled with gcc against it ({@code printf("%s", cudaGetErrorString((cudaError_t) 35))}).
 */
class RuntimeErrorCodeTest {
    @Test
    void python() {
        String out = Guests.eval("python", Compat.PY + """
                for c in (35, 0, 700, 2, 222, 12345, -1):
                    print(c, cu.cudaGetErrorName(c), '|', cu.cudaGetErrorString(c))""");
        assertEquals("""
                35 cudaErrorInsufficientDriver | CUDA driver version is insufficient for CUDA runtime version
                0 cudaSuccess | no error
                700 cudaErrorIllegalAddress | an illegal memory access was encountered
                2 cudaErrorMemoryAllocation | out of memory
                222 cudaErrorUnsupportedPtxVersion | the provided PTX was compiled with an unsupported toolchain.
                12345 unrecognized error code | unrecognized error code
                -1 unrecognized error code | unrecognized error code""", out.strip());
    }

    @Test
    void javascript() {
        String out = Guests.eval("js", Compat.JS + "console.log(cu.cudaGetErrorName(35), cu.cudaGetErrorString(1));");
        assertEquals("cudaErrorInsufficientDriver invalid argument", out.strip());
    }

    @Test
    void java() {
        Compat.java(cu -> {
            Value name = cu.getMember("cudaGetErrorName");
            assertEquals("cudaErrorInsufficientDriver", name.execute(35).asString());
            assertEquals("cudaErrorNotReady", name.execute(600).asString());
            assertEquals("device not ready", cu.invokeMember("cudaGetErrorString", 600).asString());
            assertEquals("operation not permitted", cu.invokeMember("cudaGetErrorString", 800).asString());
        });
    }
}
