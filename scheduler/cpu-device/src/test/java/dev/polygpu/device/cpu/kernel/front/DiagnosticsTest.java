package dev.polygpu.device.cpu.kernel.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rejected constructs and syntax errors: exact message and line:col. */
class DiagnosticsTest {
    static CompileException.Diagnostic firstError(String src) {
        CompileException e = assertThrows(CompileException.class, () -> FrontEnd.compile(src, "k.cu"));
        return e.diagnostics().getFirst();
    }

    static Stream<Arguments> errors() {
        String k = "__global__ void k(float* x, int n) {\n";
        return Stream.of(
                Arguments.of(k + "  puts(\"n\");\n}", 2, 3, "puts is not supported by the CPU device's kernel engine"),
                Arguments.of(k + "  x[0] = foo;\n}", 2, 10, "use of undeclared identifier 'foo'"),
                Arguments.of(k + "  __globaltimer();\n}", 2, 3, "'__globaltimer' is not a CUDA C function (nvcc 13 does not declare it; a GPU's global timer is read"
                        + " with inline assembly, which the CPU device's kernel engine does not support); use clock64()"
                        + " to measure intervals"),
                Arguments.of(k + "  __nanosleep();\n}", 2, 3, "function '__nanosleep' expects 1 argument, but 0 were given"),
                Arguments.of(k + "  __nanosleep(x);\n}", 2, 15, "no matching function for call to '__nanosleep': argument 1 has type 'float*'"),
                Arguments.of(k + "  bar(1);\n}", 2, 3, "no function named 'bar'"),
                // duplicate and clashing type specifiers (found by bench/fuzz --invalid; nvcc refuses them too)
                Arguments.of(k + "  unsigned unsigned int u = 1;\n}", 2, 12, "duplicate 'unsigned' in a type"),
                Arguments.of(k + "  int int* p = 0;\n}", 2, 7, "duplicate 'int' in a type"),
                Arguments.of(k + "  signed char signed c = 0;\n}", 2, 15, "duplicate 'signed' in a type"),
                Arguments.of(k + "  char int c = 0;\n}", 2, 8, "cannot combine 'char' with 'int'"),
                Arguments.of(k + "  float int f = 0;\n}", 2, 9, "cannot combine 'float' with 'int'"),
                Arguments.of(k + "  short short s = 0;\n}", 2, 9, "duplicate 'short' in a type"),
                Arguments.of(k + "  goto end;\n}", 2, 3, "goto is not supported by the CPU device's kernel engine"),
                Arguments.of(k + "  end: ;\n}", 2, 3, "labels are not supported by the CPU device's kernel engine"),
                Arguments.of("union P { int a; };\n", 1, 1, "unions are not supported by the CPU device's kernel engine "
                        + "(their members share memory); use a struct, or reinterpret values with "
                        + "__float_as_int/__int_as_float or a pointer cast"),
                Arguments.of(k + "  float s, c;\n  sincosf(x[n++], &s, &c);\n}", 3, 12, "the first argument of 'sincosf' has side effects, which the CPU device's kernel engine would repeat; assign it to a variable first"),
                Arguments.of(k + "  double s, c;\n  sincosf(x[0], &s, &c);\n}", 3, 17, "argument 2 of 'sincosf' must be a 'float*', not 'double*'"),
                Arguments.of("enum class Mode { A, B };\n", 1, 6, "scoped enums ('enum class') are not supported by the CPU device's kernel engine; use a plain 'enum' or constants such as 'const int A = 0;'"),
                Arguments.of(k + "  enum { A, B } e;\n}", 2, 3, "enum definitions are supported only at file scope, as 'enum Name { A, B };' (the CPU device's kernel engine)"),
                Arguments.of(k + "  float2 v = {1, 2};\n  x[0] = v * 2.0f;\n}", 3, 12, "invalid operand of type 'float2' to '*': CUDA defines no arithmetic, comparison or logical operators on vector types (helper_math.h from the CUDA samples adds some, and is not built in); operate on the components (.x, .y, .z, .w)"),
                Arguments.of(k + "  __half2 h;\n}", 2, 3, "paired half type '__half2' is not supported by the CPU device's kernel engine; use two __half values (or a __half array)"),
                Arguments.of("__global__ void k(__nv_bfloat16* x) {}\n", 1, 19, "bfloat16 type '__nv_bfloat16' is not supported by the CPU device's kernel engine; use float (or __half, which is supported)"),
                Arguments.of(k + "  uchar4 c;\n  x[0] = c.s;\n}", 3, 11, "no member named 's' in 'uchar4' (its components are .x, .y, .z, .w)"),
                Arguments.of(k + "  dim3 d;\n}", 2, 3, "type 'dim3' is not supported in kernel code by the CPU device's kernel engine; use blockDim.x, gridDim.y … directly or int variables"),
                Arguments.of(k + "  float m = frexpf(x[0], &x[1]);\n}", 2, 26, "argument 2 of 'frexpf' must be an 'int*', not 'float*'"),
                Arguments.of(k + "  int e;\n  float m = frexpf(x[n++], &e);\n}", 3, 21, "the first argument of 'frexpf' has side effects, which the CPU device's kernel engine would repeat; assign it to a variable first"),
                Arguments.of(k + "  double ip;\n  x[0] = modff(x[1], &ip);\n}", 3, 22, "argument 2 of 'modff' must be a 'float*', not 'double*'"),
                Arguments.of(k + "  x[0] = ldexpf(x[1]);\n}", 2, 10, "function 'ldexpf' expects 2 arguments, but 1 was given"),
                Arguments.of(k + "  x[0] = jnf(2.5, x[1]);\n}", 2, 14, "argument 1 of 'jnf' is the order and must be an integer, not 'double'; for a fractional order there is no CUDA function"),
                Arguments.of(k + "  x[0] = ynf(x[1]);\n}", 2, 10, "function 'ynf' expects 2 arguments, but 1 was given"),
                Arguments.of(k + "  double d[3];\n  x[0] = normf(3, d);\n}", 3, 19, "argument 2 of 'normf' must be a 'const float*', not 'double*'; 'norm' takes that"),
                Arguments.of(k + "  x[0] = remquof(x[1], x[2], x);\n}", 2, 30, "argument 3 of 'remquof' must be an 'int*', not 'float*'"),
                Arguments.of(k + "  int q;\n  x[0] = remquof(x[1], x[n++], &q);\n}", 3, 25, "the second argument of 'remquof' has side effects, which the CPU device's kernel engine would repeat; assign it to a variable first"),
                Arguments.of(k + "  double s, c;\n  sincospif(x[0], &s, &c);\n}", 3, 19, "argument 2 of 'sincospif' must be a 'float*', not 'double*'"),
                Arguments.of(k + "  x[0] = __nv_isnand(x[1]);\n}", 2, 10, "no function named '__nv_isnand'"),
                Arguments.of(k + "  x[0] = make_float2(1, 2);\n}", 2, 10, "cannot convert 'float2' to 'float' in assignment"),
                Arguments.of("__managed__ float c[4];\n", 1, 1, "__managed__ variables are not supported by the CPU device's kernel engine"),
                // file-scope __shared__ follows C's rules: declared before use, once, without an initializer
                Arguments.of(k + "  x[0] = late[0];\n}\nextern __shared__ float late[];\n", 2, 10, "use of undeclared identifier 'late'"),
                Arguments.of("__shared__ float t[4];\n__shared__ int t[8];\n", 2, 16, "redefinition of 't'"),
                Arguments.of("const int N = 4;\nextern __shared__ float N[];\n", 2, 25, "redefinition of 'N'"),
                Arguments.of("__shared__ float t[2] = {1, 2};\n", 1, 18, "initialization is not supported for __shared__ variables"),
                Arguments.of("extern __shared__ float s;\n", 1, 25, "extern __shared__ variable 's' must be an array"),
                Arguments.of("__shared__ float t[];\n", 1, 18, "array size missing in declaration of 't'"),
                Arguments.of(k + "  int* p = new int[4];\n}", 2, 12, "'new' is not supported by the CPU device's kernel engine; use a local array of constant size, __shared__ memory, or a buffer passed as a kernel argument"),
                Arguments.of(k + "  asm(\"nop\");\n}", 2, 3, "inline assembly is not supported by the CPU device's kernel engine"),
                Arguments.of("__device__ int f(int a, ...) { return a; }\n", 1, 25, "variadic functions are not supported by the CPU device's kernel engine"),
                Arguments.of(k + "  void (*fp)(int);\n}", 2, 8, "function pointers are not supported by the CPU device's kernel engine"),
                Arguments.of("texture<float, 1> tex;\n", 1, 1, "texture and surface types are not supported by the CPU device's kernel engine"),
                Arguments.of(k + "  try { } catch (...) { }\n}", 2, 3, "exceptions are not supported by the CPU device's kernel engine"),
                Arguments.of(k + "  int a = n\n  x[0] = a;\n}", 3, 3, "expected ';' at end of declaration"),
                Arguments.of(k + "  x[0] = n\n}", 3, 1, "expected ';' after expression"),
                Arguments.of(k + "  x[0] = (n + 1;\n}", 2, 16, "expected ')'"),
                Arguments.of(k + "  x[0] = * ;\n}", 2, 12, "expected expression"),
                Arguments.of(k + "  const int c = 1;\n  c = 2;\n}", 3, 3, "expression is not assignable: variable 'c' is const"),
                Arguments.of(k + "  n + 1 = 2;\n}", 2, 5, "expression is not assignable"),
                Arguments.of(k + "  int a[4]; int b[4];\n  a = b;\n}", 3, 3, "expression is not assignable"),
                Arguments.of("__device__ float sq(float v) { return v * v; }\n" + k + "  x[0] = sq(1, 2);\n}", 3, 10,
                        "function 'sq' expects 1 argument, but 2 were given"),
                Arguments.of("__device__ int f(int v) { return v <= 0 ? 0 : f(v - 1); }\n", 1, 47,
                        "recursive __device__ function 'f' is not supported by the CPU device's kernel engine; rewrite it as a loop (with a local array as an explicit stack if it needs one)"),
                Arguments.of("__device__ int g(int v);\n__device__ int f(int v) { return g(v); }\n"
                        + "__device__ int g(int v) { return f(v); }\n", 2, 34, "recursive __device__ function 'g' is not supported by the CPU device's kernel engine; rewrite it as a loop (with a local array as an explicit stack if it needs one)"),
                Arguments.of("__global__ void a() {}\n__global__ void b() { a(); }\n", 2, 23,
                        "cannot call __global__ function 'a' from device code"),
                Arguments.of(k + "  short s; atomicAdd(&s, 1);\n}", 2, 12, "atomicAdd has no overload for 'short*'"),
                Arguments.of(k + "  int a[n];\n}", 2, 9, "array size is not a constant expression"),
                Arguments.of(k + "  break;\n}", 2, 3, "'break' statement not in loop or switch statement"),
                Arguments.of(k + "  while (int r = n) n--;\n}", 2, 10, "a declaration in the condition of 'while' is not"
                        + " supported by the CPU device's kernel engine; declare the variable before the 'while'"),
                Arguments.of(k + "  for (int i = 0; int r = n - i; i++) x[i] = r;\n}", 2, 19, "a declaration in the"
                        + " condition of 'for' is not supported by the CPU device's kernel engine; declare the variable"
                        + " before the 'for'"),
                Arguments.of(k + "  x = x * 2;\n}", 2, 9, "invalid operands to binary expression ('float*' and 'int')"),
                Arguments.of(k + "  int* ip = x;\n}", 2, 13, "cannot convert 'float*' to 'int*' in initialization of 'ip'"),
                Arguments.of(k + "  x[0] = threadIdx.w;\n}", 2, 19, "no member named 'w' in 'threadIdx'"),
                Arguments.of("#if 1\n__global__ void k() {}\n", 3, 1, "unterminated conditional directive"),
                Arguments.of("#error stop here\n", 1, 1, "#error stop here"),
                Arguments.of("__global__ int k() { return 0; }\n", 1, 16, "__global__ function 'k' must have a void return type"),
                Arguments.of(k + "  switch (n) { case 1: break; case 1: break; }\n}", 2, 36, "duplicate case value '1'"));
    }

    @ParameterizedTest(name = "{3}")
    @MethodSource("errors")
    void reportsConstruct(String src, int line, int col, String message) {
        CompileException.Diagnostic d = firstError(src);
        assertEquals(message, d.message(), d.toString());
        assertEquals(line, d.line(), d.toString());
        assertEquals(col, d.column(), d.toString());
        assertEquals("k.cu", d.file());
    }

    @Test
    void collectsErrorsOfSeveralFunctionsWithoutCascading() {
        CompileException e = assertThrows(CompileException.class, () -> FrontEnd.compile("""
                __global__ void a(float* x) { x[0] = undefinedA; }
                __global__ void b(float* x) { float y = undefinedB; x[0] = y; }
                __global__ void c(float* x) { x[0] = 1; }
                """, "m.cu"));
        assertEquals(2, e.diagnostics().size(), e.getMessage());
        assertTrue(e.getMessage().contains("m.cu:1:38: error: use of undeclared identifier 'undefinedA'"), e.getMessage());
        assertTrue(e.getMessage().contains("m.cu:2:41: error: use of undeclared identifier 'undefinedB'"), e.getMessage());
        assertEquals("__global__ void b(float* x) { float y = undefinedB; x[0] = y; }", e.diagnostics().get(1).sourceLine());
    }

    @Test
    void syntaxErrorsInSeveralFunctions() {
        CompileException e = assertThrows(CompileException.class, () -> FrontEnd.compile("""
                __global__ void a(float* x) { x[0] = 1 }
                __global__ void b(float* x) { x[0] = 2; }
                __global__ void c(float* x) { x[0] = ; }
                """, "m.cu"));
        assertEquals(2, e.diagnostics().size(), e.getMessage());
        assertEquals(1, e.diagnostics().get(0).line());
        assertEquals(40, e.diagnostics().get(0).column());
        assertEquals(3, e.diagnostics().get(1).line());
    }

    @Test
    void macroErrorsPointAtTheInvocation() {
        CompileException.Diagnostic d = firstError("#define BAD(v) ((v) + missing)\n__global__ void k(float* x) {\n  x[0] = BAD(1);\n}");
        assertEquals("use of undeclared identifier 'missing'", d.message());
        assertEquals(3, d.line());
        assertEquals(10, d.column());
    }
}
