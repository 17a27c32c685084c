package dev.polygpu.device.cuda;

import static dev.polygpu.device.ElementType.BOOL;
import static dev.polygpu.device.ElementType.DOUBLE;
import static dev.polygpu.device.ElementType.FLOAT;
import static dev.polygpu.device.ElementType.INT16;
import static dev.polygpu.device.ElementType.INT32;
import static dev.polygpu.device.ElementType.INT64;
import static dev.polygpu.device.ElementType.INT8;
import static dev.polygpu.device.ElementType.UINT16;
import static dev.polygpu.device.ElementType.UINT32;
import static dev.polygpu.device.ElementType.UINT64;
import static dev.polygpu.device.ElementType.UINT8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelParam;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KernelSignaturesTest {

    private static KernelParam ptr(String name, ElementType t) {
        return new KernelParam(name, true, t);
    }

    private static KernelParam val(String name, ElementType t) {
        return new KernelParam(name, false, t);
    }

    @Test
    void theConformanceKernels() throws Exception {
        assertEquals(Map.of("saxpy", List.of(ptr("y", FLOAT), ptr("x", FLOAT), val("a", FLOAT), val("n", INT32))),
                KernelSignatures.parse(NvccTool.conformanceKernel("SAXPY")));
        assertEquals(Map.of("mark", List.of(ptr("out", INT32))),
                KernelSignatures.parse(NvccTool.conformanceKernel("MARK")));
    }

    /** Module variables ({@code __constant__}, {@code __device__}) around kernels: only the kernels are read. */
    static final String WITH_GLOBALS = """
            #define TAPS 3
            __constant__ float weights[TAPS] = {0.25f, 0.5f, 0.25f};
            __device__ unsigned int counter;
            static __device__ int table[2][2] = {{1, 2}, {3, 4}};
            __device__ __constant__ double scale = 2.0;

            __device__ void bump(unsigned int* c) { atomicAdd(c, 1u); }

            extern "C" __global__ void smooth(const float* in, float* out, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i > 0 && i < n - 1) out[i] = weights[0] * in[i - 1] + weights[1] * in[i] + weights[2] * in[i + 1];
                bump(&counter);
            }

            template <typename T>
            __global__ void scaled(T* a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) a[i] = a[i] * (T) scale + table[i % 2][0];
            }

            __global__ void readCounter(unsigned int* out) { *out = counter; }
            """;

    @Test
    void moduleVariablesAreNotMistakenForKernels() {
        // a template's T* is a pointer of no known element type
        assertEquals(Map.of("smooth", List.of(ptr("in", FLOAT), ptr("out", FLOAT), val("n", INT32)),
                "scaled", List.of(ptr("a", null), val("n", INT32)),
                "readCounter", List.of(ptr("out", UINT32))), KernelSignatures.parse(WITH_GLOBALS));
    }

    @Test
    void everyArithmeticTypeAndItsSpellings() {
        String src = """
                __global__ void k(bool b, char c, signed char sc, unsigned char uc, short s, short int si,
                                  unsigned short us, int i, signed sg, unsigned u, unsigned int ui, long l,
                                  long int li, long long ll, unsigned long ul, unsigned long long ull,
                                  long long int lli, float f, double d, int8_t i8, uint8_t u8, int16_t i16,
                                  uint16_t u16, int32_t i32, uint32_t u32, int64_t i64, uint64_t u64, size_t sz) {}
                """;
        assertEquals(List.of(val("b", BOOL), val("c", INT8), val("sc", INT8), val("uc", UINT8), val("s", INT16),
                val("si", INT16), val("us", UINT16), val("i", INT32), val("sg", INT32), val("u", UINT32),
                val("ui", UINT32), val("l", INT64), val("li", INT64), val("ll", INT64), val("ul", UINT64),
                val("ull", UINT64), val("lli", INT64), val("f", FLOAT), val("d", DOUBLE), val("i8", INT8),
                val("u8", UINT8), val("i16", INT16), val("u16", UINT16), val("i32", INT32), val("u32", UINT32),
                val("i64", INT64), val("u64", UINT64), val("sz", UINT64)), KernelSignatures.parse(src).get("k"));
    }

    @Test
    void qualifiersPointersArraysAndUnnamedParameters() {
        String src = """
                __global__ void k(const float* __restrict__ a, volatile int *b, float * const restrict c,
                                  const unsigned char d[], void* e, float** f, double, const long long* ,
                                  __grid_constant__ const int g, struct Point* h) {}
                """;
        assertEquals(List.of(ptr("a", FLOAT), ptr("b", INT32), ptr("c", FLOAT), ptr("d", UINT8), ptr("e", null),
                ptr("f", null), val("", DOUBLE), ptr("", INT64), val("g", INT32), ptr("h", null)),
                KernelSignatures.parse(src).get("k"));
    }

    @Test
    void prefixesCommentsStringsAndPreprocessorLinesAreSkipped() {
        String src = """
                #include <cstdint>
                #define N 256 \\
                    /* __global__ void in_macro(int x) */
                // __global__ void commented(int x) {}
                /* __global__ void blocked(int x) {} */
                __device__ const char* msg = "__global__ void in_string(int x)";
                __device__ char q = '"';
                extern "C" __global__ void __launch_bounds__(256, 2) a(float* x) {}
                extern "C" {
                  static __global__ void b(int n) {}
                  __global__ __launch_bounds__(128) void c(double* d, int n) {}
                }
                template <typename T, int M>
                __global__ void d(T* out, int n) {}
                namespace ns { __global__ void e(unsigned* u) {} }
                __global__ void f(void) {}
                __global__ void g() {}
                """;
        Map<String, List<KernelParam>> sigs = KernelSignatures.parse(src);
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), List.copyOf(sigs.keySet()));
        assertEquals(List.of(ptr("x", FLOAT)), sigs.get("a"));
        assertEquals(List.of(val("n", INT32)), sigs.get("b"));
        assertEquals(List.of(ptr("d", DOUBLE), val("n", INT32)), sigs.get("c"));
        assertEquals(List.of(ptr("out", null), val("n", INT32)), sigs.get("d"));
        assertEquals(List.of(ptr("u", UINT32)), sigs.get("e"));
        assertEquals(List.of(), sigs.get("f"));
        assertEquals(List.of(), sigs.get("g"));
    }

    @Test
    void functionsWithParametersThatCannotBeTypedAreLeftOut() {
        String src = """
                struct S { int i; };
                template <typename T> __global__ void tscalar(T* out, T v) {}
                __global__ void bystruct(S s, int* out) {}
                __global__ void byref(int& r) {}
                __global__ void half(__half h) {}
                __global__ void longdouble(long double x) {}
                __global__ void nested(ns::S* p) {}
                __global__ void funcptr(void (*f)(int)) {}
                __global__ void matrix(float m[4][4]) {}
                __global__ void fine(int* out) {}
                """;
        assertEquals(Map.of("fine", List.of(ptr("out", INT32))), KernelSignatures.parse(src));
    }

    @Test
    void overloadsAreLeftOutButADeclarationAndItsDefinitionCountOnce() {
        String src = """
                __global__ void over(float* a);
                __global__ void over(int* a) {}
                namespace x { __global__ void twice(int n) {} }
                namespace y { __global__ void twice(float f) {} }
                __global__ void declared(float*, int);
                __global__ void declared(float* data, int n) { }
                __global__ void later(double* v);
                template <> __global__ void spec<float>(float* a, double b) {}
                """;
        Map<String, List<KernelParam>> sigs = KernelSignatures.parse(src);
        assertEquals(Map.of("declared", List.of(ptr("data", FLOAT), val("n", INT32)),
                "later", List.of(ptr("v", DOUBLE))), sigs);
    }

    @Test
    void aDefaultArgumentIsIgnored() {
        assertEquals(List.of(ptr("a", FLOAT), val("n", INT32)),
                KernelSignatures.parse("__global__ void k(float* a, int n = 16) {}").get("k"));
    }
}
