package dev.polygpu.device.cpu.kernel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Stmt;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Which loops get a reconvergence point at the end of their body: those of warp-level kernels whose iteration
 * can end without stopping at the body's last yield. A loop that ends at an unconditional yield (the usual
 * shuffle reduction) keeps one yield per iteration; kernels with block barriers only get none.
 */
class ReconvergenceTest {
    private record Case(String name, String source, List<Boolean> expected) {
    }

    private static final String SHUFFLE_LOOP = """
            __global__ void k(float *out) {
                float v = threadIdx.x;
                for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
                out[threadIdx.x] = v;
            }""";

    private static final Case[] CASES = {
        new Case("a loop that ends at an unconditional shuffle", SHUFFLE_LOOP, List.of(false)),
        new Case("a loop whose last volatile step is inside an if, and an inner loop without yields", """
                __global__ void k(const int *ptr, float *y, int n) {
                    __shared__ volatile int slot[8][2];
                    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
                    for (int row = w; row < n; row += 8) {
                        slot[w][lane & 1] = ptr[row];
                        float s = 0;
                        for (int j = 0; j < slot[w][1]; j++) s += j;
                        if (lane == 0) slot[w][0] = s;
                    }
                }""", List.of(true, false)),
        new Case("a continue that can skip the last shuffle", """
                __global__ void k(int *out) {
                    int v = threadIdx.x;
                    for (int i = 0; i < 4; i++) {
                        v += __shfl_xor_sync(0xffffffff, v, 1);
                        if (v & 1) continue;
                        v += __shfl_xor_sync(0xffffffff, v, 2);
                    }
                    out[threadIdx.x] = v;
                }""", List.of(true)),
        new Case("a continue after the last shuffle", """
                __global__ void k(int *out) {
                    int v = threadIdx.x;
                    for (int i = 0; i < 4; i++) {
                        v += __shfl_xor_sync(0xffffffff, v, 1);
                        if (v & 1) continue;
                        v++;
                    }
                    out[threadIdx.x] = v;
                }""", List.of(false)),
        new Case("a loop that ends by calling a helper that ends at a shuffle", """
                __device__ int swap(int v) { v *= 3; return __shfl_xor_sync(0xffffffff, v, 1); }
                __global__ void k(int *out) {
                    int v = threadIdx.x;
                    for (int i = 0; i < 4; i++) v = swap(v);
                    out[threadIdx.x] = v;
                }""", List.of(false)),
        new Case("a helper whose early return skips its shuffle", """
                __device__ int swap(int v) { if (v < 0) return v; return __shfl_xor_sync(0xffffffff, v, 1); }
                __global__ void k(int *out) {
                    int v = threadIdx.x;
                    for (int i = 0; i < 4; i++) v = swap(v);
                    out[threadIdx.x] = v;
                }""", List.of(true)),
        new Case("an outer loop that ends with an inner loop of shuffles", """
                __global__ void k(int *out) {
                    int v = threadIdx.x;
                    for (int i = 0; i < 4; i++) {
                        for (int o = 1; o < 32; o *= 2) v += __shfl_xor_sync(0xffffffff, v, o);
                    }
                    out[threadIdx.x] = v;
                }""", List.of(true, false)),
        new Case("a do-while whose last shuffle is in a switch", """
                __global__ void k(int *out) {
                    int v = threadIdx.x, i = 0;
                    do {
                        switch (i) { case 1: v += __shfl_xor_sync(0xffffffff, v, 1); break; default: v++; }
                    } while (++i < 3);
                    out[threadIdx.x] = v;
                }""", List.of(true)),
        new Case("block barriers only", """
                __global__ void k(int *out) {
                    __shared__ int s[64];
                    for (int i = 0; i < 4; i++) {
                        if (threadIdx.x < 32) s[threadIdx.x] = i;
                        __syncthreads();
                        if (i & 1) continue;
                        out[threadIdx.x] += s[63 - threadIdx.x];
                        __syncthreads();
                    }
                }""", List.of(false)),
    };

    @TestFactory
    Stream<DynamicTest> loopsThatNeedAReconvergencePoint() {
        return Stream.of(CASES).map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            Function kernel = FrontEnd.compile(c.source(), "t.cu").kernel("k");
            YieldLowering lowering = new YieldLowering();
            Reconvergence r = new Reconvergence(kernel, lowering);
            List<Boolean> actual = new ArrayList<>();
            for (Stmt body : loopBodies(lowering.body(kernel))) {
                actual.add(r.needsPoint(body));
            }
            assertEquals(c.expected(), actual);
        }));
    }

    /** The bodies of the loops in {@code s}, outer before inner, in source order. */
    private static List<Stmt> loopBodies(Stmt s) {
        List<Stmt> out = new ArrayList<>();
        collect(s, out);
        return out;
    }

    private static void collect(Stmt s, List<Stmt> out) {
        switch (s) {
            case null -> { }
            case Stmt.Block b -> b.statements().forEach(x -> collect(x, out));
            case Stmt.If i -> {
                collect(i.then(), out);
                collect(i.otherwise(), out);
            }
            case Stmt.While w -> {
                out.add(w.body());
                collect(w.body(), out);
            }
            case Stmt.DoWhile w -> {
                out.add(w.body());
                collect(w.body(), out);
            }
            case Stmt.For f -> {
                out.add(f.body());
                collect(f.body(), out);
            }
            case Stmt.Switch sw -> sw.cases().forEach(c -> c.statements().forEach(x -> collect(x, out)));
            default -> { }
        }
    }
}
