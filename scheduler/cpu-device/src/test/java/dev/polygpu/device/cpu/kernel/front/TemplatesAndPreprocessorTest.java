package dev.polygpu.device.cpu.kernel.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Stmt;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Macros and conditionals, templates and kernel lookup. */
class TemplatesAndPreprocessorTest {
    private static Expr lastExprOf(Function k) {
        return ((Stmt.ExprStmt) k.body().statements().getLast()).expr();
    }

    @Test
    void macrosWithArgumentsNestedStringizeAndPaste() {
        Function k = FrontEnd.compile("""
                #include <cuda_runtime.h>
                #include "helpers.h"
                #define SQR(x) ((x) * (x))
                #define TWICE(x) (2 * SQR(x))
                #define CAT(a, b) a ## b
                #define BLOCK \\
                    256
                #define EMPTY()
                #pragma once
                __global__ void k(float* out) {
                    int CAT(my, Var) = BLOCK EMPTY();
                    #pragma unroll
                    for (int i = 0; i < 4; i++) { myVar += i; }
                    out[0] = TWICE(myVar + 1);
                }""", "k.cu").kernel("k");
        TreeChecker.check(k);
        Stmt.VarDecl d = (Stmt.VarDecl) k.body().statements().getFirst();
        assertEquals("myVar", d.var().name);
        assertEquals(256L, ((Expr.IntConst) d.init()).value());
        Expr.Assign a = (Expr.Assign) lastExprOf(k);
        assertEquals(14, a.value().pos().line());
    }

    @Test
    void conditionalCompilation() {
        Function k = FrontEnd.compile("""
                #define USE_FAST 1
                #if defined(USE_FAST) && USE_FAST > 0 && __CUDA_ARCH__ >= 700
                #define F(x) __expf(x)
                #elif defined USE_SLOW
                #define F(x) expf(x)
                #else
                #error no variant
                #endif
                #ifdef NOT_DEFINED
                garbage that would not parse (
                #if 1
                #endif
                #endif
                #ifndef __CUDACC__
                #error not cuda
                #endif
                #undef USE_FAST
                #ifdef USE_FAST
                #error still defined
                #endif
                #if (1 ? 2 : 3) == 2 && !0 && (5 % 3 == 2) && (1 << 4) == 16
                __global__ void k(float* x) { x[0] = F(x[1]); }
                #endif
                """, "k.cu").kernel("k");
        Expr.Assign a = (Expr.Assign) lastExprOf(k);
        assertEquals(dev.polygpu.device.cpu.kernel.ast.Intrinsic.EXP, ((Expr.IntrinsicCall) a.value()).intrinsic());
    }

    @Test
    void macroArgumentsSpanningLinesAndSelfReference() {
        Function k = FrontEnd.compile("""
                #define foo foo
                #define ADD3(a, b, c) ((a) + (b) + (c))
                __global__ void k(int* x) {
                    int foo = ADD3(1,
                                   2,
                                   3);
                    x[0] = foo;
                }""", "k.cu").kernel("k");
        Stmt.VarDecl d = (Stmt.VarDecl) k.body().statements().getFirst();
        assertEquals("foo", d.var().name);
    }

    private static final String TEMPLATES = """
            template <typename T>
            __device__ T twice(T v) { return v + v; }

            template <typename T, int N>
            __device__ T sumN(const T* __restrict__ p) {
                T s = 0;
                for (int i = 0; i < N; i++) s += p[i];
                return s;
            }

            template <typename T>
            __global__ void scale(T* x, T a, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] = twice(a) * x[i] + sumN<T, 4>(x);
            }

            template <int BLOCK>
            __global__ void reduce(const float* in, float* out) {
                __shared__ float buf[BLOCK];
                buf[threadIdx.x] = in[threadIdx.x];
                __syncthreads();
                for (int s = BLOCK / 2; s > 0; s >>= 1) {
                    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
                    __syncthreads();
                }
                if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
            }

            template <class T, unsigned int B>
            __global__ void both(T* x) { x[0] = (T) B; }

            __global__ void plain(int* x) { x[0] = twice(3) + twice<int>(1); }
            """;

    @Test
    void templateKernelsAndDeduction() {
        TranslationUnit tu = FrontEnd.compile(TEMPLATES, "t.cu");
        assertEquals(List.of("plain", "scale<…>", "reduce<…>", "both<…>"), tu.kernelNames());
        Function f = tu.kernel("scale<float>");
        Function d = tu.kernel("scale< double >");
        assertEquals("scale<float>", f.name);
        assertEquals("scale<double>", d.name);
        assertEquals(new CType.Pointer(Prim.FLOAT), f.params.get(0).type);
        assertEquals(Prim.DOUBLE, d.params.get(1).type);
        assertSame(f, tu.kernel("scale<float>"));
        TreeChecker.check(f);
        TreeChecker.check(d);
        Function r = tu.kernel("reduce<256>");
        assertEquals("reduce<256>", r.name);
        Stmt.VarDecl buf = (Stmt.VarDecl) r.body().statements().getFirst();
        assertEquals(new CType.Array(Prim.FLOAT, 256), buf.var().type);
        TreeChecker.check(r);
        Function b = tu.kernel("both<unsigned int,7>");
        assertEquals("both<unsigned int, 7>", b.name);
        TreeChecker.check(b);
        Function p = tu.kernel("plain");
        TreeChecker.check(p);
        Expr.Assign a = (Expr.Assign) ((Stmt.ExprStmt) p.body().statements().getFirst()).expr();
        Expr.Binary sum = (Expr.Binary) a.value();
        Expr.Call call = assertInstanceOf(Expr.Call.class, sum.left());
        assertEquals("twice<int>", call.function().name);
        assertSame(call.function(), ((Expr.Call) sum.right()).function());
    }

    @Test
    void kernelLookupErrors() {
        TranslationUnit tu = FrontEnd.compile(TEMPLATES, "t.cu");
        DeviceException e = assertThrows(DeviceException.class, () -> tu.kernel("nope"));
        assertEquals(CudaError.NOT_FOUND, e.error());
        assertTrue(e.getMessage().contains("plain, scale<…>, reduce<…>, both<…>"), e.getMessage());
        assertEquals(CudaError.NOT_FOUND, assertThrows(DeviceException.class, () -> tu.kernel("scale")).error());
        assertEquals(CudaError.NOT_FOUND, assertThrows(DeviceException.class, () -> tu.kernel("scale<float, 3>")).error());
        assertEquals(CudaError.NOT_FOUND, assertThrows(DeviceException.class, () -> tu.kernel("twice<float>")).error());
    }

    @Test
    void templateErrorsAreReportedAtInstantiation() {
        TranslationUnit tu = FrontEnd.compile("""
                template <typename T>
                __global__ void k(T* x) {
                    x[0] = undefinedThing;
                }
                template <typename T>
                __global__ void atom(T* x) { atomicAdd(x, 1); }
                """, "t.cu");
        CompileException e = assertThrows(CompileException.class, () -> tu.kernel("k<float>"));
        assertEquals("use of undeclared identifier 'undefinedThing'", e.diagnostics().getFirst().message());
        assertEquals(3, e.diagnostics().getFirst().line());
        assertEquals(12, e.diagnostics().getFirst().column());
        tu.kernel("atom<int>");
        CompileException e2 = assertThrows(CompileException.class, () -> tu.kernel("atom<short>"));
        assertEquals("atomicAdd has no overload for 'short*'", e2.diagnostics().getFirst().message());
    }

    @Test
    void externCAndPrototypesAndTypedefs() {
        TranslationUnit tu = FrontEnd.compile("""
                typedef float real;
                typedef unsigned int uint32;
                __device__ real helper(real a, real b);
                extern "C" __global__ void k1(real* x) { x[0] = helper(x[0], 2); }
                extern "C" {
                __global__ void __launch_bounds__(256, 2) k2(uint32* x) { x[0] = (uint32) 1; }
                }
                static __device__ __forceinline__ real helper(real a, real b) { return a * b; }
                __host__ __device__ inline int h2(int v) { return v; }
                __device__ __noinline__ int h3(int v) { return h2(v); }
                """, "k.cu");
        assertEquals(List.of("k1", "k2"), tu.kernelNames());
        TreeChecker.check(tu.kernel("k1"));
        TreeChecker.check(tu.kernel("k2"));
    }

    @Test
    void overloadedDeviceFunctions() {
        Function k = FrontEnd.compile("""
                __device__ float f(float v) { return v; }
                __device__ double f(double v) { return v; }
                __device__ int f(int v) { return v; }
                __global__ void k(double* x) { x[0] = f(1.0f) + f(2.0) + f(3); }
                """, "k.cu").kernel("k");
        TreeChecker.check(k);
        Expr.Assign a = (Expr.Assign) lastExprOf(k);
        Expr.Binary outer = (Expr.Binary) a.value();
        assertEquals(Prim.INT, ((Expr.Call) ((Expr.Cast) outer.right()).operand()).type());
    }
}
