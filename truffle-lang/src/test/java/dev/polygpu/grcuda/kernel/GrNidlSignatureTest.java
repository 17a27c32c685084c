package dev.polygpu.grcuda.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Parsing of NIDL and legacy signatures: table-driven, what each parses to and where each error is. */
class GrNidlSignatureTest {

    static Stream<Arguments> nidl() {
        return Stream.of(
                Arguments.of("square(x: inout pointer float, y: out pointer float, n: sint32)",
                        "square(x: inout pointer float, y: out pointer float, n: sint32)", "RW W R"),
                Arguments.of("  f ( a : in pointer double , b:const pointer sint64 )  ",
                        "f(a: in pointer double, b: in pointer sint64)", "R R"),
                Arguments.of("k<float>(x: inout pointer float, n: sint32)",
                        "k<float>(x: inout pointer float, n: sint32)", "RW R"),
                Arguments.of("reduce<float, 256>(x: in pointer float)", "reduce<float, 256>(x: in pointer float)", "R"),
                Arguments.of("noargs()", "noargs()", ""),
                Arguments.of("t(a: sint8, b: sint16, c: uint8, d: uint16, e: uint32, f: uint64, g: char, h: bool,"
                        + " i: double, j: in sint32)",
                        "t(a: sint8, b: sint16, c: uint8, d: uint16, e: uint32, f: uint64, g: sint8, h: bool,"
                        + " i: double, j: sint32)", "R R R R R R R R R R"));
    }

    @ParameterizedTest
    @MethodSource
    void nidl(String text, String shown, String accesses) {
        NidlSignature s = NidlSignature.parse(text);
        assertEquals(shown, s.toString());
        assertEquals(accesses, accesses(s));
    }

    static Stream<Arguments> legacy() {
        return Stream.of(
                Arguments.of("square", "pointer, pointer, sint32",
                        "square(arg1: inout pointer, arg2: inout pointer, arg3: sint32)", "RW RW R"),
                Arguments.of("f", "const pointer, pointer const,pointer, float",
                        "f(arg1: in pointer, arg2: in pointer, arg3: inout pointer, arg4: float)", "R R RW R"),
                Arguments.of("k<int>", "", "k<int>()", ""));
    }

    @ParameterizedTest
    @MethodSource
    void legacy(String name, String types, String shown, String accesses) {
        NidlSignature s = NidlSignature.parseLegacy(name, types);
        assertEquals(shown, s.toString());
        assertEquals(accesses, accesses(s));
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("square(x inout pointer float)", 10,
                        "expected ':' after parameter name 'x'"),
                Arguments.of("square(x: pointer float)", 11,
                        "pointer parameter 'x' needs a direction: in, out or inout"),
                Arguments.of("square(x: inout pointer flot)", 25,
                        "unknown type 'flot' for pointer parameter 'x'; types are sint8, sint16, sint32, sint64,"
                        + " uint8, uint16, uint32, uint64, float, double, char, bool"),
                Arguments.of("square(x: in pointer float n: sint32)", 28,
                        "expected ',' or ')' after parameter 'x'"),
                Arguments.of("square(n: out sint32)", 8,
                        "scalar parameter 'n' cannot be 'out'; only pointers can be written"),
                Arguments.of("square x: sint32)", 8, "expected '(' after kernel name 'square'"),
                Arguments.of("(n: sint32)", 1, "expected a kernel name, got '('"),
                Arguments.of("k<float(n: sint32)", 2, "unclosed '<' in the template name"),
                Arguments.of("f(a: sint32, a: float)", 14, "parameter 'a' appears twice"),
                Arguments.of("f(a: sint32) x", 14, "unexpected 'x' after the signature"),
                Arguments.of("f(a: )", 6, "expected a type for parameter 'a'"));
    }

    @ParameterizedTest
    @MethodSource
    void errors(String text, int column, String problem) {
        SignatureException e = assertThrows(SignatureException.class, () -> NidlSignature.parse(text));
        assertEquals(column, e.column(), e.getMessage());
        String expected = "signature error at column " + column + ": " + problem;
        assertEquals(expected, e.getMessage().substring(0, Math.min(expected.length(), e.getMessage().length())));
        assertEquals(" in \"" + text + "\"", e.getMessage().substring(e.getMessage().lastIndexOf(" in \"")));
    }

    static Stream<Arguments> legacyErrors() {
        return Stream.of(
                Arguments.of("pointer, sint", 10, "unknown type 'sint' for parameter 2; types are"),
                Arguments.of("const float", 7, "expected 'pointer' after 'const'"),
                Arguments.of("pointer pointer", 9, "unexpected 'p' after the signature"),
                Arguments.of("pointer,", 9, "expected a type for parameter 2"));
    }

    @ParameterizedTest
    @MethodSource
    void legacyErrors(String types, int column, String problem) {
        SignatureException e = assertThrows(SignatureException.class, () -> NidlSignature.parseLegacy("k", types));
        assertEquals(column, e.column(), e.getMessage());
        assertEquals("signature error at column " + column + ": " + problem,
                e.getMessage().substring(0, ("signature error at column " + column + ": " + problem).length()));
    }

    private static String accesses(NidlSignature s) {
        StringBuilder sb = new StringBuilder();
        for (NidlSignature.Param p : s.params()) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(switch (p.access()) {
                case READ -> "R";
                case WRITE -> "W";
                case READ_WRITE -> "RW";
            });
        }
        return sb.toString();
    }
}
