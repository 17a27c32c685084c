package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.SourceSection;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A grcuda error names where the guest program was: the guest stack trace of the error starts at the frame that
 * made the failing call, with that call's line, not at the frame's caller (which is all there was when the
 * error had no location; an error raised at the top level then had no guest frame at all). Each case fails on
 * line 4 of a JavaScript function {@code f}, called from line 6.
 */
class ErrorLocationTest {
    private static final String KERNEL = "const k = cu.buildkernel('__global__ void oob(float *x, int n) {"
            + " x[threadIdx.x + n] += 1; }', 'oob(x: inout pointer float, n: sint32)');\n";

    /** {name, execution policy, line 3 (set-up), line 4 (the failing call)}. */
    private static final String[][] CASES = {
            {"a CU function", "async", "const p = cu.cudaMalloc(16); cu.cudaFree(p);", "cu.cudaFree(p);"},
            {"DeviceArray", "async", "", "cu.DeviceArray('floot', 3);"},
            {"DeviceArray.map", "async", "", "cu.DeviceArray.map('char', [300]);"},
            {"an array method", "async", "const y = cu.DeviceArray('float', 3); y.free();",
                    "y.copyFrom(cu.DeviceArray('float', 3));"},
            {"configuring a kernel", "async", "", "k(0, 32);"},
            {"a launch that faults, run synchronously", "sync", "", "k(1, 32)(x, 90);"},
            {"an element read that waits for a kernel that faulted", "async", "k(1, 32)(x, 90);", "x[0];"},
            {"a read through a row of a multi-dimensional array, after a kernel that faulted", "async",
                    "const m = cu.DeviceArray('float', 10, 10); k(1, 32)(m, 90);", "m[1][2];"},
            {"a write through a row, after a kernel that faulted", "async",
                    "const m = cu.DeviceArray('float', 10, 10); k(1, 32)(m, 90);", "m[1][2] = 5;"},
    };

    @TestFactory
    Stream<DynamicTest> theFailingCallIsTheFirstGuestFrame() {
        return Stream.of(CASES).map(c -> DynamicTest.dynamicTest(c[0], () -> {
            String script = "const cu = Polyglot.eval('grcuda', 'CU');\n"
                    + KERNEL.replace("\n", " const x = cu.DeviceArray('float', 100);\n")
                    + "function f() { " + c[2] + "\n"
                    + "  " + c[3] + "\n"
                    + "}\n"
                    + "f();\n";
            List<String> frames = framesOfTheError(script, c[1]);
            assertTrue(frames.size() >= 2, () -> frames + "\nscript:\n" + script);
            assertEquals("f line 4", frames.get(0), () -> frames + "\nscript:\n" + script);
            assertEquals(":program line 6", frames.get(1), () -> frames + "\nscript:\n" + script);
        }));
    }

    /** The guest frames of the error that {@code script} ends with, innermost first: {@code "f line 4"}. */
    private static List<String> framesOfTheError(String script, String executionPolicy) {
        try (Context context = Context.newBuilder("js", "grcuda")
                .engine(Guests.engine())
                .allowAllAccess(true)
                .allowPolyglotAccess(PolyglotAccess.ALL)
                .option("grcuda.ExecutionPolicy", executionPolicy)
                .out(new ByteArrayOutputStream())
                .build()) {
            PolyglotException e = assertThrows(PolyglotException.class,
                    () -> context.eval(Source.create("js", script)), () -> "no error from:\n" + script);
            assertTrue(e.isGuestException() && !e.isInternalError(), () -> "not a guest error: " + e);
            List<String> frames = new ArrayList<>();
            for (PolyglotException.StackFrame f : e.getPolyglotStackTrace()) {
                if (f.isGuestFrame() && f.getLanguage().getId().equals("js")) {
                    SourceSection s = f.getSourceLocation();
                    assertNotNull(s, () -> "frame " + f.getRootName() + " has no location: " + e.getMessage());
                    frames.add(f.getRootName() + " line " + s.getStartLine());
                }
            }
            return frames;
        }
    }
}
