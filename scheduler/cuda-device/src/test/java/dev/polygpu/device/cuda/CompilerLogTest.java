package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.CompileException.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Logs as nvcc 13.0 printed them (captured from real runs), read against the user's source. */
class CompilerLogTest {

    @Test
    void frontEndErrorsWithColumnsFromTheCaretAndWarningsDropped() {
        String source = "extern \"C\" __global__ void bad(float* a) {\n  int x = ;\n  a[0] = undefined_thing;\n"
                + "  int unused;\n}\n";
        String log = """
                bad.cu(2): error: expected an expression
                    int x = ;
                            ^

                bad.cu(3): error: identifier "undefined_thing" is undefined
                    a[0] = undefined_thing;
                           ^

                bad.cu(4): warning #177-D: variable "unused" was declared but never referenced
                    int unused;
                        ^

                Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

                2 errors detected in the compilation of "bad.cu".
                """;
        assertEquals(List.of(
                new Diagnostic("kernels/bad one.cu", 2, 11, "expected an expression", "  int x = ;"),
                new Diagnostic("kernels/bad one.cu", 3, 10, "identifier \"undefined_thing\" is undefined",
                        "  a[0] = undefined_thing;")),
                new CompilerLog("bad.cu", "kernels/bad one.cu", source, List.of()).errors(log));
    }

    @Test
    void tabsInTheSourceLine() {
        // nvcc echoed "\tint x = \t;" as "   int x = ;" with the caret under ';' (index 11).
        assertEquals(11, CompilerLog.columnOf("   int x = ;", 11, "\tint x = \t;"));
        assertEquals(2, CompilerLog.columnOf("   int x = ;", 3, "\tint x = \t;"));
        assertEquals(0, CompilerLog.columnOf("  something else", 5, "int x;"));
        // The echo is the preprocessed line: __global__ is shown expanded (nvcc 13.0, caret under ';').
        assertEquals(36, CompilerLog.columnOf("  __attribute__((global)) void j(int* a) { a[0] = ; }", 50,
                "__global__ void j(int* a) { a[0] = ; }"));
        assertEquals(0, CompilerLog.columnOf("  int x;", 30, "int x;"));
    }

    @Test
    void errorsOnAppendedLinesNameTheExpression() {
        String source = "template<typename T> __global__ void k(T* a) {}\n\tint x = \t;";
        String log = """
                u.cu(2): error: expected an expression
                   int x = ;
                           ^

                u.cu(4): error: identifier "nosuch" is undefined
                  static void* __polygpu_ref_1 __attribute__((unused)) = (void*)&k<nosuch>;
                                                                                   ^

                2 errors detected in the compilation of "u.cu".
                """;
        assertEquals(List.of(
                new Diagnostic("u", 2, 11, "expected an expression", "\tint x = \t;"),
                new Diagnostic("u", 0, 0, "in name expression 'k<nosuch>': identifier \"nosuch\" is undefined", null)),
                new CompilerLog("u.cu", "u", source, List.of("k<float>", "k<nosuch>")).errors(log));
    }

    @Test
    void preprocessorErrorsNvccFatalAndOtherFiles() {
        String source = "#include \"nope.h\"\n";
        String log = """
                /tmp/polygpu-nvcc-123/inc.cu:1:10: fatal error: nope.h: No such file or directory
                    1 | #include "nope.h"
                      |          ^~~~~~~~
                compilation terminated.
                e.cu:1:2: error: #error boom
                /usr/local/cuda/include/x.h(7): error: something in a header
                nvcc fatal   : Unsupported gpu architecture 'compute_60'
                """;
        assertEquals(List.of(
                new Diagnostic("inc", 1, 10, "fatal error: nope.h: No such file or directory", "#include \"nope.h\""),
                new Diagnostic("e.cu", 1, 2, "#error boom", null),
                new Diagnostic("/usr/local/cuda/include/x.h", 7, 0, "something in a header", null),
                new Diagnostic("inc", 0, 0, "nvcc: Unsupported gpu architecture 'compute_60'", null)),
                new CompilerLog("inc.cu", "inc", source, List.of()).errors(log));
    }

    @Test
    void lineCount() {
        assertEquals(2, new CompilerLog("a.cu", "a", "x\ny", List.of()).userLineCount());
        assertEquals(2, new CompilerLog("a.cu", "a", "x\ny\n", List.of()).userLineCount());
        assertEquals(0, new CompilerLog("a.cu", "a", "", List.of()).userLineCount());
    }
}
