package dev.polygpu.grcuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Misuses that must give a clear guest error (issue #31's small items of the runtime). */
class GrSmallErrorsTest {
    private Context context;
    private Value cu;

    @BeforeEach
    void open() {
        context = Context.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").allowAllAccess(true)
                .build();
        cu = context.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        context.close();
    }

    private String error(String function, Object... args) {
        PolyglotException e = assertThrows(PolyglotException.class, () -> cu.getMember(function).execute(args));
        assertTrue(e.isGuestException(), e.toString());
        return e.getMessage();
    }

    @Test
    void destroyingAStreamOrAnEventTwiceIsAnErrorAsFreeingTwiceIs() {
        Value s = cu.getMember("cudaStreamCreate").execute();
        cu.getMember("cudaStreamDestroy").execute(s);
        String m = error("cudaStreamDestroy", s);
        assertTrue(m.startsWith("cudaStreamDestroy: stream ") && m.endsWith(" was already destroyed"), m);

        Value e = cu.getMember("cudaEventCreate").execute();
        cu.getMember("cudaEventDestroy").execute(e);
        String n = error("cudaEventDestroy", e);
        assertTrue(n.startsWith("cudaEventDestroy: ") && n.endsWith(" was already destroyed"), n);
    }

    @Test
    void aSizeGivenAsAStringIsNamedAsTheSizeNotAsTheOrder() {
        assertEquals("DeviceArray: argument 2 (the size of dimension 1) must be an integer, got the string \"10\";"
                + " pass the number itself (a last argument that is a string is the order, \"C\" or \"F\")",
                error("DeviceArray", "float", "10"));
        assertTrue(error("DeviceArray", "float", 3, "4").contains("argument 3 (the size of dimension 2)"));
        assertEquals("DeviceArray: the order must be \"C\" (row-major) or \"F\" (column-major), got \"X\"",
                error("DeviceArray", "float", 3, 4, "X"));
    }

    @Test
    void anAddressInAnErrorIsAWholeNumberAndHexNotAFloatingPointNumber() {
        Value a = cu.getMember("DeviceArray").execute("float", 4);
        long address = a.getMember("pointer").asLong();
        a.invokeMember("free");
        // As JavaScript passes it: a double. The address is no longer allocated.
        String m = error("cudaMemset", (double) address, 0, 4);
        assertTrue(m.contains("0x" + Long.toHexString(address)), m);
        assertFalse(m.contains("E1"), m);
    }
}
