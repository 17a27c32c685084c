package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.ItaniumMangler;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whole function names from {@link ItaniumMangler#function} against the entries nvcc writes for the same
 * declarations: overloads, namespaces, class types, pointers and cv-qualifiers at several levels, and the
 * substitutions they produce. (Template name prefixes are checked the same way in {@link CxxNamesTest}.)
 */
class ItaniumManglerTest {

    /** The kernels whose entry names the cases record. */
    static final String SOURCE = """
            #include <cstdint>
            struct S { int i; };
            namespace aa { namespace bb {
              struct T { int i; };
              __global__ void inc(int* a, int n) {}
              __global__ void take(T* t, const T* u, S* s) {}
              __global__ void ptrs(aa::bb::T** t, T* u) {}
            } }
            __global__ void none() {}
            __global__ void f(int* a, int* b) {}
            __global__ void over(float* a) {}
            __global__ void over(int* a) {}
            __global__ void over(const int* a, int n) {}
            __global__ void over(signed char c, char d, unsigned char e) {}
            __global__ void top3(const double* a, const double* b, const double* c, long long n) {}
            __global__ void cv(const int n, int* const p, const int* const q, volatile int* v, const volatile int* w) {}
            __global__ void deep(float** a, const float** b, float* const* c, float** d) {}
            __global__ void mixed(S s, S* p, const S* q, S* r, const S* t) {}
            __global__ void ints(short a, unsigned short b, unsigned c, long d, unsigned long e, unsigned long long f,
                                 bool g, double h, uint32_t i, int64_t j, size_t k, void* l, const void* m) {}
            __global__ void cvp(int* volatile const* a, int* const volatile* b) {}
            namespace ns { struct S { int i; }; __global__ void g(S* a, ::S* b, ns::S c) {} __global__ void h(int n) {} }
            namespace aa { __global__ void up(aa::bb::T* t, aa::bb::T* u) {} }
            """;

    /**
     * The entry nvcc 13.0 wrote for each kernel of {@link #SOURCE} ({@code nvcc -ptx -arch=sm_90}, read from the
     * {@code .entry} lines), then the kernel's name and parameter types as the mangler takes them: class names
     * fully qualified, since it does no name lookup ({@code S} inside {@code ns} is written {@code ns::S}).
     */
    static final String[][] CASES = {
        {"_Z4nonev", "none"},
        {"_Z1fPiS_", "f", "int*", "int*"},
        {"_Z4overPf", "over", "float*"},
        {"_Z4overPi", "over", "int *"},
        {"_Z4overPKii", "over", "const int*", "int"},
        {"_Z4overach", "over", "signed char", "char", "unsigned char"},
        {"_Z4top3PKdS0_S0_x", "top3", "const double*", "double const*", "const double *", "long long"},
        {"_Z2cviPiPKiPViPVKi", "cv", "const int", "int* const", "const int* const", "volatile int*",
            "const volatile int*"},
        {"_Z4deepPPfPPKfPKS_S0_", "deep", "float**", "const float**", "float* const*", "float**"},
        {"_Z5mixed1SPS_PKS_S0_S2_", "mixed", "S", "S*", "const S*", "S*", "const S*"},
        {"_Z4intsstjlmybdjlmPvPKv", "ints", "short", "unsigned short", "unsigned", "long", "unsigned long",
            "unsigned long long", "bool", "double", "uint32_t", "int64_t", "size_t", "void*", "const void*"},
        {"_Z3cvpPVKPiS1_", "cvp", "int* volatile const*", "int* const volatile*"},
        {"_ZN2aa2bb3incEPii", "aa::bb::inc", "int*", "int"},
        {"_ZN2aa2bb4takeEPNS0_1TEPKS1_P1S", "aa::bb::take", "aa::bb::T*", "const aa::bb::T*", "S*"},
        {"_ZN2aa2bb4ptrsEPPNS0_1TES2_", "aa::bb::ptrs", "aa::bb::T**", "aa::bb::T*"},
        {"_ZN2ns1gEPNS_1SEP1SS0_", "ns::g", "ns::S*", "::S*", "ns::S"},
        {"_ZN2ns1hEi", "ns::h", "int"},
        {"_ZN2aa2upEPNS_2bb1TES2_", "aa::up", "aa::bb::T*", "aa::bb::T*"},
    };

    private static String mangle(String[] c) {
        return ItaniumMangler.function(c[1], Arrays.asList(c).subList(2, c.length));
    }

    @Test
    void manglesAsNvccDid() {
        for (String[] c : CASES) {
            assertEquals(c[0], mangle(c), Arrays.toString(c));
        }
    }

    @Test
    void thePrefixIsTheStartOfTheWholeName() {
        for (String[] c : CASES) {
            String prefix = ItaniumMangler.namePrefix(c[1]);
            assertTrue(c[0].startsWith(prefix), c[1] + ": " + prefix);
        }
    }

    @Test
    void whatItCannotMangleGivesNull() {
        // A template's whole name holds its return type, which neither the name nor the parameters give.
        assertNull(ItaniumMangler.function("k<float>", List.of("float*")));
        assertNull(ItaniumMangler.function("std::sort", List.of("int*")));
        assertNull(ItaniumMangler.function("f", List.of("int&")));
        assertNull(ItaniumMangler.function("f", List.of("void")));
        assertNull(ItaniumMangler.function("f", List.of("int[4]")));
        assertNull(ItaniumMangler.function("f", List.of("vec<int>*")));
        assertNull(ItaniumMangler.function("f", List.of("int extra")));
        assertNull(ItaniumMangler.function("operator+", List.of("int")));
        assertNull(ItaniumMangler.function(null, List.of()));
        assertNull(ItaniumMangler.function("f", null));
        assertNull(ItaniumMangler.namePrefix("f(int)"));
    }

    /** The recorded entries are what nvcc makes today: compile the source and compare. */
    @Test
    void recordedEntriesAreNvccs() throws Exception {
        NvccTool.require();
        List<String> entries = PtxEntries.parse(NvccTool.ptxOf(SOURCE, "sm_90")).stream()
                .map(PtxEntry::name).toList();
        assertEquals(CASES.length, entries.size(), entries.toString());
        for (String[] c : CASES) {
            assertTrue(entries.contains(c[0]), c[0] + " not in " + entries);
        }
    }
}
