package dev.polygpu.device.cpu.kernel.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.cpu.kernel.ast.Pos;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which pointer parameters a kernel's source writes through. Each case is a small kernel; the expected set is
 * read off the source by hand (0 is the first parameter).
 */
class ParameterWritesTest {
    private static String written(String source, String kernel) {
        return new TreeSet<>(ParameterWrites.of(source, "k.cu", kernel).keySet()).toString();
    }

    @Test
    void directStoresCompoundAssignmentsAndIncrements() {
        String src = """
                __global__ void k(float *a, const float *b, float *c, int *d, int n) {
                    int i = threadIdx.x;
                    a[i] = b[i];
                    c[i] += 1.0f;
                    d[i]++;
                    float t = b[i] + c[i];
                }""";
        assertEquals("[0, 2, 3]", written(src, "k"));
        Map<Integer, Pos> at = ParameterWrites.of(src, "k.cu", "k");
        assertEquals(3, at.get(0).line());
        assertEquals(4, at.get(2).line());
        assertEquals(5, at.get(3).line());
    }

    @Test
    void aReadOnlyKernelWritesNothingThroughItsParameters() {
        assertEquals("[]", written("""
                __global__ void k(const float *x, float *unused, int n) {
                    __shared__ float s[32];
                    float local[4];
                    int i = threadIdx.x;
                    s[i % 32] = x[i];
                    local[i % 4] = x[i];
                    float *p = s;
                    p[0] = local[0];
                }""", "k"));
    }

    @Test
    void throughLocalPointersOffsetsCastsAndConditionals() {
        assertEquals("[1]", written("""
                __global__ void k(float *a, float *b, int n) {
                    float *q = b + 1;
                    float *r;
                    r = q;
                    r[n] = a[0];
                }""", "k"));
        assertEquals("[0, 1]", written("""
                __global__ void k(float *a, float *b, int n) {
                    float *p = n > 0 ? a : b;
                    *p = 1.0f;
                }""", "k"));
        assertEquals("[0]", written("""
                __global__ void k(const int *a, int n) {
                    ((int *) a)[n] = 1;
                }""", "k"));
    }

    @Test
    void aReassignedParameterMayPointIntoAnother() {
        // flow-insensitive: after a = b, a store through a may be to either
        assertEquals("[0, 1]", written("""
                __global__ void k(float *a, float *b) {
                    a[0] = 0.0f;
                    a = b;
                    a[1] = 1.0f;
                }""", "k"));
    }

    @Test
    void atomicsWriteTheirAddress() {
        assertEquals("[1, 2]", written("""
                __global__ void k(const float *x, float *sum, int *count) {
                    atomicAdd(sum, x[threadIdx.x]);
                    atomicCAS(&count[1], 0, 1);
                }""", "k"));
    }

    @Test
    void throughDeviceFunctions() {
        String src = """
                __device__ void put(float *p, int i, float v) { p[i] = v; }
                __device__ float get(const float *p, int i) { return p[i]; }
                __device__ void twice(float *p, int i) { put(p, i, 2.0f * get(p, i)); }
                __global__ void k(float *a, float *b, float *c, float *d) {
                    put(b, 0, get(a, 0));
                    twice(c + 1, 0);
                    float v = get(d, 1);
                }""";
        assertEquals("[1, 2]", written(src, "k"));
        assertEquals(5, ParameterWrites.of(src, "k.cu", "k").get(1).line());
    }

    @Test
    void structMembersAndTemplateInstantiations() {
        assertEquals("[0]", written("""
                struct P { float x; float y; };
                __global__ void k(P *p, const P *q) {
                    p[threadIdx.x].y = q[0].x;
                }""", "k"));
        assertEquals("[1]", written("""
                template <typename T> __global__ void k(const T *a, T *b, int n) {
                    b[threadIdx.x] = a[threadIdx.x] * n;
                }""", "k<double>"));
    }
}
