package dev.polygpu.device.cpu.kernel.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cuda.NvccTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The C++ forms the front end accepts (value-initialization, functional casts, direct-initialization,
 * {@code if constexpr}, {@code static_assert}, aliases), how they are typed, and the messages, at line:col, for
 * the C++ constructs it refuses. Which forms nvcc refuses as invalid C++ is checked against nvcc itself.
 */
class CxxFormsTest {
    private static final String K = "struct P { float a; int b; };\n__global__ void k(float* x, int v) {\n";

    private static Function kernel(String source, String name) {
        Function k = FrontEnd.compile(source, "k.cu").kernel(name);
        TreeChecker.check(k);
        return k;
    }

    private static Expr initOf(Function k, int statement) {
        return ((Stmt.VarDecl) k.body().statements().get(statement)).init();
    }

    /** {@code T acc{};}, {@code T(2)} and {@code T z = T();} in a template, for each arithmetic T. */
    @ParameterizedTest
    @ValueSource(strings = {"float", "int", "double"})
    void valueInitializationInATemplate(String t) {
        Function k = kernel("""
                template <typename T> __global__ void k(T* x) {
                    T acc{};
                    T z = T();
                    T w{x[1]};
                    acc += T(2);
                    x[0] = acc + z + w;
                }""", "k<" + t + ">");
        CType type = switch (t) {
            case "float" -> Prim.FLOAT;
            case "int" -> Prim.INT;
            default -> Prim.DOUBLE;
        };
        for (int s = 0; s < 2; s++) {
            Expr zero = initOf(k, s);
            assertEquals(type, zero.type());
            assertEquals(0.0, ((Number) ConstEval.eval(zero, Map.of())).doubleValue(), "the zero of " + t);
        }
        assertInstanceOf(Expr.Deref.class, initOf(k, 2), "T w{x[1]} is x[1] itself: no conversion");
    }

    /** After '(' a type name followed by '(' or '{' starts an expression, not a C cast. */
    @Test
    void parenthesizedFunctionalCastIsNotACast() {
        Function k = kernel(K + "  x[0] = (float(v) / 255);\n  x[1] = (float)(v) / 2;\n}", "k");
        Expr.Assign a = (Expr.Assign) ((Stmt.ExprStmt) k.body().statements().get(0)).expr();
        Expr.Binary div = assertInstanceOf(Expr.Binary.class, a.value());
        assertEquals(Expr.BinaryOp.DIV, div.op());
        assertEquals(Prim.FLOAT, div.type());
        Expr.Assign b = (Expr.Assign) ((Stmt.ExprStmt) k.body().statements().get(1)).expr();
        assertEquals(Expr.BinaryOp.DIV, assertInstanceOf(Expr.Binary.class, b.value()).op());
    }

    @Test
    void directInitializationAndBracedForms() {
        Function k = kernel(K + "  int q(v * 3);\n  float f{1.5f};\n  P p{};\n  float2 e{};\n  float* n{};\n"
                + "  auto a{v};\n  x[0] = q + f + p.a + e.y + (n == nullptr) + a;\n}", "k");
        assertEquals(Expr.BinaryOp.MUL, assertInstanceOf(Expr.Binary.class, initOf(k, 0)).op());
        assertEquals(Prim.FLOAT, initOf(k, 1).type());
        assertInstanceOf(Expr.MakeStruct.class, initOf(k, 2));
        assertInstanceOf(Expr.MakeVector.class, initOf(k, 3));
        assertEquals(new CType.Pointer(Prim.FLOAT), initOf(k, 4).type());
        assertEquals(Prim.INT, initOf(k, 5).type(), "auto a{v} deduces v's type");
    }

    /** The branch 'if constexpr' discards is not analyzed: v >> 1 would not compile for a double. */
    @Test
    void ifConstexprAnalyzesOnlyTheSelectedBranch() {
        String src = """
                template <typename T> __global__ void k(T* x) {
                    if constexpr (sizeof(T) == 8) { x[0] = x[0] / 2; } else { x[0] = x[0] >> 1; }
                }""";
        kernel(src, "k<double>");
        kernel(src, "k<int>");
        CompileException e = assertThrows(CompileException.class, () -> kernel(src.replace("== 8", "== 4"),
                "k<double>"));
        assertEquals("invalid operands to binary expression ('double' and 'int')",
                e.diagnostics().getFirst().message());
    }

    @Test
    void aliasesAndAttributes() {
        Function k = kernel("using real = float;\n[[nodiscard]] __device__ real twice(real v) noexcept {"
                + " return 2 * v; }\n__global__ void k(real* x) {\n  using idx = unsigned;\n"
                + "  if (x[0] > 0) [[likely]] { x[idx(1)] = twice(::fabsf(x[0])); }\n}", "k");
        assertEquals(new CType.Pointer(Prim.FLOAT), k.params.getFirst().type);
    }

    /** A static const local with an initializer is a constant; 'static' on a __shared__ variable adds nothing. */
    @Test
    void staticConstLocalsAndStaticShared() {
        Function k = kernel(K + "  static const float w[2] = {0.5f, 2};\n  static constexpr int n = 2;\n"
                + "  static __shared__ float s[32];\n  s[threadIdx.x] = w[v % n];\n  x[0] = s[0];\n}", "k");
        assertEquals(2L, ConstEval.eval(initOf(k, 1), Map.of()));
    }

    /** A braced list takes its type from the context: the return type, or the assignment's target. */
    @Test
    void bracedListTypedByItsContext() {
        Function k = kernel("__device__ float2 pair(float a) { return {a, 2}; }\n__device__ int one() { return {1};"
                + " }\n" + K + "  P p;\n  p = {1.5f, v};\n  alignas(16) float b[4];\n  b[0] = {};\n"
                + "  x[0] = pair(x[1]).y + p.a + b[0] + one();\n}", "k");
        Expr.Assign a = (Expr.Assign) ((Stmt.ExprStmt) k.body().statements().get(1)).expr();
        assertInstanceOf(Expr.MakeStruct.class, a.value());
        Expr.Assign zero = (Expr.Assign) ((Stmt.ExprStmt) k.body().statements().get(3)).expr();
        assertEquals(0.0, ((Number) ConstEval.eval(zero.value(), Map.of())).doubleValue());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(K + "  x[0] = unsigned int(v);\n}", 3, 10, "'unsigned int(…)' is not valid C++: a "
                        + "functional cast names its type in one word; write '(unsigned int)(x)', 'static_cast<"
                        + "unsigned int>(x)' or a one-word name of the type (such as 'unsigned' or a typedef)"),
                Arguments.of(K + "  x[0] = long long{};\n}", 3, 10, "'long long{…}' is not valid C++: a functional"
                        + " cast names its type in one word; write '(long long)(x)', 'static_cast<long long>(x)' or a"
                        + " one-word name of the type (such as 'unsigned' or a typedef)"),
                Arguments.of(K + "  x[0] = float{1, 2};\n}", 3, 10, "too many values in initializer of "
                        + "'float{…}': a 'float' takes one"),
                Arguments.of(K + "  x[0] = int{{1}};\n}", 3, 10, "only one level of braces is allowed on an "
                        + "initializer for an object of type 'int'"),
                Arguments.of(K + "  x[0] = float(v, 2);\n}", 3, 10, "'float(…)' converts one value, not 2"),
                Arguments.of(K + "  x[0] = float2(1, 2).x;\n}", 3, 10, "vector type 'float2' has no constructors,"
                        + " so 'float2(…)' cannot take 2 values; write make_float2(…) or float2{…}"),
                Arguments.of(K + "  x[0] = P(1, 2).a;\n}", 3, 10, "'P(…)' with 2 values initializes an aggregate "
                        + "with parentheses, which C++17 (nvcc's default) does not allow; write 'P{…}'"),
                Arguments.of(K + "  x[0] = float;\n}", 3, 15, "expected '(' or '{' after the type name 'float' in"
                        + " an expression (a conversion 'float(x)' or a value 'float{}')"),
                Arguments.of(K + "  int q();\n}", 3, 8, "'int q()' declares a function (C++'s most vexing parse),"
                        + " and local function declarations are not supported by the CPU device's kernel engine; to"
                        + " value-initialize the variable write 'int q{};'"),
                Arguments.of(K + "  float2 q(1, 2);\n}", 3, 11, "the initializer '(…)' of 'q' has 2 values; "
                        + "write 'float2 q{…};'"),
                Arguments.of(K + "  auto q = {v};\n}", 3, 8, "'auto q = {…}' deduces a std::initializer_list, "
                        + "which is not supported by the CPU device's kernel engine; write 'auto q = value;' or name"
                        + " the type"),
                Arguments.of(K + "  float2 q = (float2){1, 2};\n}", 3, 22, "compound literals ('(float2){…}') "
                        + "are not supported by the CPU device's kernel engine; write 'float2{…}'"),
                Arguments.of(K + "  auto f = [](int a) { return a; };\n}", 3, 12, "lambda expressions are not "
                        + "supported by the CPU device's kernel engine; write a __device__ function (a template one"
                        + " for generic code) and call it"),
                Arguments.of(K + "  for (float e : x) {}\n}", 3, 16, "range-based for loops ('for (… : range)') "
                        + "are not supported by the CPU device's kernel engine; write an index loop, 'for (int i = "
                        + "0; i < n; i++)'"),
                Arguments.of(K + "  int& r = v;\n}", 3, 6, "reference types ('T&') are not supported by the CPU "
                        + "device's kernel engine; pass a pointer ('T*') or a value"),
                Arguments.of(K + "  x[0] = std::sqrt(x[1]);\n}", 3, 10, "qualified name 'std::sqrt' is not "
                        + "supported: namespaces and class scopes are not supported by the CPU device's kernel "
                        + "engine; CUDA's math functions (sqrt, fabs, min, max, …) and types such as size_t are "
                        + "global: write them without 'std::'"),
                Arguments.of(K + "  x[0] = std::numeric_limits<float>::max();\n}", 3, 10, "qualified name "
                        + "'std::numeric_limits' is not supported: namespaces and class scopes are not supported "
                        + "by the CPU device's kernel engine; use the <float.h> and <limits.h> macros (FLT_MAX, "
                        + "DBL_EPSILON, INT_MAX, …), which are predefined"),
                Arguments.of(K + "  auto b = cg::this_thread_block();\n}", 3, 12, "qualified name "
                        + "'cg::this_thread_block' is not supported: namespaces and class scopes are not supported"
                        + " by the CPU device's kernel engine; cooperative groups are not supported: use "
                        + "__syncthreads() and the warp functions (__shfl_sync, __ballot_sync, …)"),
                Arguments.of(K + "  using namespace std;\n}", 3, 3, "'using namespace' is not supported: "
                        + "namespaces are not supported by the CPU device's kernel engine; name functions and types "
                        + "without a namespace (CUDA's math functions are global)"),
                Arguments.of(K + "  decltype(v) w = v;\n}", 3, 3, "decltype is not supported by the CPU device's"
                        + " kernel engine; write the type (in a template, its template parameter)"),
                Arguments.of(K + "  P p{.a = 1, .b = 2};\n}", 3, 7, "designated initializers ('.member = …') are"
                        + " not supported by the CPU device's kernel engine; give the values in order"),
                Arguments.of(K + "  auto [a, b] = P{};\n}", 3, 8, "structured bindings ('auto [a, b] = …') are "
                        + "not supported by the CPU device's kernel engine; declare each variable and assign it the"
                        + " member or component"),
                Arguments.of(K + "  if constexpr (v > 0) x[0] = 1;\n}", 3, 19, "the condition of 'if constexpr' "
                        + "is not a constant expression"),
                Arguments.of(K + "  static_assert(sizeof(P) == 12, \"P is 12 bytes\");\n}", 3, 3, "static "
                        + "assertion failed: P is 12 bytes"),
                Arguments.of(K + "  static_assert(v > 0);\n}", 3, 19, "the condition of static_assert is not a "
                        + "constant expression"),
                Arguments.of("static_assert(sizeof(float) == 8, \"float is 8 bytes\");\n", 1, 1, "static "
                        + "assertion failed: float is 8 bytes"),
                Arguments.of("template <int N> __device__ int f() {\n  static_assert(N % 32 == 0, \"N: a "
                        + "multiple of 32\");\n  return N;\n}\n__global__ void m(int* x) { x[0] = f<40>(); }\n", 2, 3, "static "
                        + "assertion failed: N: a multiple of 32"),
                Arguments.of(K + "  x[0] = sizeof...(v);\n}", 3, 10, "'sizeof...' is not supported: variadic "
                        + "templates (parameter packs) are not supported by the CPU device's kernel engine; give the"
                        + " template one parameter per type or value"),
                Arguments.of("template <typename... Ts> __global__ void k(Ts... a) {}\n", 1, 19, "variadic "
                        + "templates (parameter packs, 'typename... Ts') are not supported by the CPU device's "
                        + "kernel engine; give the template one parameter per type or value"),
                Arguments.of("template <typename T> struct Box { T v; };\n", 1, 1, "class templates ('template <…>"
                        + " struct Box') are not supported by the CPU device's kernel engine; only function "
                        + "templates are: define a struct for each type"),
                Arguments.of("template <typename T> __global__ void k(T* x) {}\ntemplate <> __global__ void "
                        + "k<float>(float* x) {}\n", 2, 1, "explicit template specializations ('template <>') are"
                        + " not supported by the CPU device's kernel engine; write a function with its own name, or"
                        + " branch on the template parameter with 'if constexpr'"),
                Arguments.of("__device__ float2 operator+(float2 a, float2 b) { return a; }\n", 1, 19, "operator "
                        + "overloading ('operator+') is not supported by the CPU device's kernel engine; write a "
                        + "named __device__ function (such as 'add(a, b)') and call it"),
                Arguments.of("__device__ float f(const float& v) { return v; }\n", 1, 31, "reference types ('T&')"
                        + " are not supported by the CPU device's kernel engine; pass a pointer ('T*') or a value"),
                Arguments.of("__device__ auto f(int a) -> int { return a; }\n", 1, 1, "'auto' return types are not"
                        + " supported by the CPU device's kernel engine; write the return type before the "
                        + "function's name"),
                Arguments.of(K + "  x[0] = v + {1};\n}", 3, 14, "a braced list '{…}' is not an expression here;"
                        + " name its type ('float2{…}')"),
                Arguments.of("template <typename T> __device__ void f(T* x) { typename T::type a; }\n"
                        + "__global__ void m(float* x) { f(x); }\n", 1, 49, "dependent type names ('typename T::…') are not"
                        + " supported by the CPU device's kernel engine, which has no class scopes; use the "
                        + "template's type parameters themselves"),
                Arguments.of(K + "  x[0] = P::a;\n}", 3, 10, "qualified name 'P::a' is not supported: namespaces"
                        + " and class scopes are not supported by the CPU device's kernel engine; types have no "
                        + "members but a struct's data members here: use a global function or constant (FLT_MAX, "
                        + "INT_MAX, …)"),
                Arguments.of(K + "  x[0] = cub::Sum()(x[1], x[2]);\n}", 3, 10, "qualified name 'cub::Sum' is not "
                        + "supported: namespaces and class scopes are not supported by the CPU device's kernel "
                        + "engine; only global names are available (libraries in namespaces, such as CUB and "
                        + "Thrust, are not)"),
                Arguments.of("template <typename T, int N = 4> __global__ void k(T* x) {}\n", 1, 29, "default "
                        + "template arguments are not supported by the CPU device's kernel engine; give every "
                        + "template argument where the template is used ('k<float, 4>')"),
                Arguments.of(K + "  static float s = 1;\n}", 3, 3, "static local variables are not supported by the"
                        + " CPU device's kernel engine unless they are const and initialized ('static const float "
                        + "w[3] = {…};'); declare a __device__ variable at file scope instead"),
                Arguments.of(K + "  x[0] = (int()) & v;\n}", 3, 10, "'(int())' followed by '&' is a cast to the "
                        + "function type 'int()' in C++ (what can be a type is one), which is not allowed; for the "
                        + "value write 'int{}' or '((int()))'"),
                Arguments.of(K + "  x[0] = (bool(short(v))) + 1;\n}", 3, 10, "'(bool(short(v)))' followed by '+' is "
                        + "a cast to the function type 'bool(short(v))' in C++ (what can be a type is one), which is "
                        + "not allowed; for the value write 'bool{}' or '((bool(short(v))))'"),
                Arguments.of("namespace util { }\n", 1, 1, "namespaces are not supported by the CPU device's "
                        + "kernel engine; define the functions, types and constants at file scope"));
    }

    @ParameterizedTest(name = "{3}")
    @MethodSource("refused")
    void refusesWithAMessageThatNamesTheConstruct(String src, int line, int col, String message) {
        CompileException e = assertThrows(CompileException.class, () -> {
            TranslationUnit tu = FrontEnd.compile(src, "k.cu");
            tu.kernelNames().stream().filter(n -> !n.contains("<")).forEach(tu::kernel);
        });
        CompileException.Diagnostic d = e.diagnostics().getFirst();
        assertEquals(message, d.message(), d.toString());
        assertEquals(line, d.line(), d.toString());
        assertEquals(col, d.column(), d.toString());
    }

    /**
     * The forms refused above as invalid C++ are refused by nvcc too, and the narrowing list-initializations
     * accepted here are accepted by nvcc (it only warns, #2361-D). One nvcc run compiles every form, each in a
     * function on its own line, and reports the lines with errors.
     */
    @Test
    void nvccAgreesOnWhatIsValid() throws Exception {
        List<String> invalid = List.of("x[0] = unsigned int(v);", "x[0] = long long{};", "x[0] = float{1, 2};",
                "x[0] = int{{1}};", "x[0] = float2(1, 2).x;", "x[0] = P(1, 2).a;", "if constexpr (v > 0) x[0] = 1;",
                "x[0] = (int()) & v;", "x[0] = (bool(short(v))) + 1;", "x[0] = (float(int())) - v;",
                "x[0] = (bool((short(v)))) + 1;", "x[0] = (float(((int)))) * v;",
                "x[0] = (int(short, unsigned int)) - v;", "x[0] = (int(float (*)(int))) + v;");
        List<String> valid = List.of("int q{x[0]}; float f{v}; x[1] = int{x[2]} + q + f;",
                "x[0] = (float(v) / 255) + unsigned(v) + float{} + int() + P{}.a + float2{}.y;",
                "x[0] = (int()); x[1] = ((int())) & v; x[2] = (float(v)) + 1; x[3] = (bool(+short(v))) + 1;",
                "x[0] = (int(((int)v) & 5u)) & v; x[1] = (char(v == 3)) + v; x[2] = (int((int)v ^ 7ull)) - v;",
                "x[0] = (int((v))) & v; x[1] = (float(v * 2)) * v; x[2] = (int(short(v) + 1)) - v;");
        StringBuilder src = new StringBuilder("struct P { float a; int b; };\n");
        Set<Integer> invalidLines = new TreeSet<>();
        Set<Integer> validLines = new TreeSet<>();
        for (String body : Stream.concat(invalid.stream(), valid.stream()).toList()) {
            int line = src.toString().split("\n", -1).length;
            (invalid.contains(body) ? invalidLines : validLines).add(line);
            src.append("__global__ void k").append(line).append("(float* x, int v) { ").append(body).append(" }\n");
            String alone = "struct P { float a; int b; };\n__global__ void k(float* x, int v) { " + body + " }\n";
            if (invalid.contains(body)) {
                assertThrows(CompileException.class, () -> FrontEnd.compile(alone, "k.cu"), body);
            } else {
                FrontEnd.compile(alone, "k.cu");
            }
        }
        Nvcc run = nvcc(src.toString());
        Set<Integer> errorLines = new TreeSet<>();
        Matcher m = Pattern.compile("k\\.cu\\((\\d+)\\): error").matcher(run.log());
        while (m.find()) {
            errorLines.add(Integer.parseInt(m.group(1)));
        }
        assertEquals(invalidLines, errorLines, "lines nvcc refuses\n" + src + run.log());
        assertTrue(validLines.stream().noneMatch(errorLines::contains), run.log());
    }

    private record Nvcc(int status, String log) {
    }

    private static Nvcc nvcc(String source) throws IOException, InterruptedException {
        Path nvcc = NvccTool.require();
        Path dir = Files.createTempDirectory("cxx-forms-");
        try {
            Files.writeString(dir.resolve("k.cu"), source);
            Process p = new ProcessBuilder(nvcc.toString(), "-ptx", "-arch=sm_90", "-o", "k.ptx", "k.cu")
                    .directory(dir.toFile()).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("nvcc did not finish in 120 s");
            }
            return new Nvcc(p.exitValue(), log);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
