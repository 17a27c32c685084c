package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * Freeing a device array twice is an error, "device array already freed", as in GrCUDA (and as cudaFree of
 * freed memory is in CUDA), for 1-D and multi-dimensional arrays; {@code isMemoryFreed} stays true.
 */
class DoubleFreeTest {
    private static final String FRAGMENT = "device array already freed";

    @Test
    void python() {
        for (String make : new String[] {"cu.DeviceArray('float', 10)", "cu.DeviceArray('int', 3, 4)"}) {
            Compat.fails("python", Compat.PY + "a = " + make + "\na.free()\na.free()", FRAGMENT);
        }
        String out = Guests.eval("python", Compat.PY + """
                a = cu.DeviceArray('float', 10, 2, 'F')
                a.free()
                print(a.isMemoryFreed)""");
        assertEquals("True", out.strip());
    }

    @Test
    void javascript() {
        String out = Guests.eval("js", Compat.JS + """
                for (const a of [cu.DeviceArray('double', 5), cu.DeviceArray('char', 2, 3)]) {
                    a.free();
                    try { a.free(); console.log('freed twice'); }
                    catch (e) { console.log(String(e).includes('%s'), a.isMemoryFreed); }
                }""".formatted(FRAGMENT));
        assertEquals("true true\ntrue true", out.strip());
    }

    @Test
    void java() {
        Compat.java(cu -> {
            for (Value a : new Value[] {cu.invokeMember("DeviceArray", "long", 7),
                    cu.invokeMember("DeviceArray", "float", 2, 2, 2)}) {
                a.invokeMember("freeMemory");
                PolyglotException e = assertThrows(PolyglotException.class, () -> a.invokeMember("free"));
                Compat.assertGuestError(e, FRAGMENT);
                assertTrue(a.getMember("isMemoryFreed").asBoolean());
            }
        });
    }
}
