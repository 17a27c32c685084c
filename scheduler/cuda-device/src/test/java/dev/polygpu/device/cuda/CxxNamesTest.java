package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.CxxNames;
import dev.polygpu.device.DeviceException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CxxNamesTest {

    /**
     * Kernel names as users write them and the entry nvcc 13.0 gives each (read from its PTX for the source below,
     * where each template is instantiated by taking the kernel's address). The part before the return type or
     * first parameter type is what {@link CxxNames#mangledPrefix} must produce.
     */
    static final String SOURCE = """
            #include <cstdint>
            #include <cuda_fp16.h>
            struct S { int i; };
            namespace ns {
              struct S { int i; };
              __global__ void k(unsigned* u) {}
              template <typename A, typename B> __global__ void k2(A* a) {}
              namespace in {
                __global__ void k(double* d) {}
                template <typename A> __global__ void k3(A* a) {}
              }
            }
            __global__ void square(float* a, int n) {}
            __global__ void noargs() {}
            __global__ void over(float* a) {}
            __global__ void over(int* a) {}
            template <typename T> __global__ void tk(T* a, T v) {}
            template <typename T, int N> __global__ void tn(T* a) {}
            template <typename T, long N> __global__ void tl(T* a) {}
            template <typename A, typename B> __global__ void two(A* a) {}
            template <int N> __global__ void kn(int* a) {}
            template <unsigned N> __global__ void ku(int* a) {}
            template <char C> __global__ void kc(int* a) {}
            template <bool B> __global__ void kb(int* a) {}
            template <typename A> __global__ void k1(A a) {}
            """;

    /** name expression → the entry nvcc 13.0 made of it, and the prefix (the rest is return and parameter types). */
    static final String[][] CASES = {
        {"square", "_Z6squarePfi", "_Z6square"},
        {"noargs", "_Z6noargsv", "_Z6noargs"},
        {"ns::k", "_ZN2ns1kEPj", "_ZN2ns1kE"},
        {"ns::in::k", "_ZN2ns2in1kEPd", "_ZN2ns2in1kE"},
        {"tk<float>", "_Z2tkIfEvPT_S0_", "_Z2tkIfE"},
        {"tk<unsigned int>", "_Z2tkIjEvPT_S0_", "_Z2tkIjE"},
        {"tk<double*>", "_Z2tkIPdEvPT_S1_", "_Z2tkIPdE"},
        {"tk<char>", "_Z2tkIcEvPT_S0_", "_Z2tkIcE"},
        {"tk<unsigned long long>", "_Z2tkIyEvPT_S0_", "_Z2tkIyE"},
        {"tk<const float*>", "_Z2tkIPKfEvPT_S2_", "_Z2tkIPKfE"},
        {"tk<bool>", "_Z2tkIbEvPT_S0_", "_Z2tkIbE"},
        {"tn<float, 4>", "_Z2tnIfLi4EEvPT_", "_Z2tnIfLi4EE"},
        {"tn<long, -3>", "_Z2tnIlLin3EEvPT_", "_Z2tnIlLin3EE"},
        {"tn<bool, 0>", "_Z2tnIbLi0EEvPT_", "_Z2tnIbLi0EE"},
        {"tl<int, 7l>", "_Z2tlIiLl7EEvPT_", "_Z2tlIiLl7EE"},
        {"two<S, S>", "_Z3twoI1SS0_EvPT_", "_Z3twoI1SS0_E"},
        {"two<float*, float*>", "_Z3twoIPfS0_EvPT_", "_Z3twoIPfS0_E"},
        {"two<const float*, float*>", "_Z3twoIPKfPfEvPT_", "_Z3twoIPKfPfE"},
        {"two<ns::S, S>", "_Z3twoIN2ns1SE1SEvPT_", "_Z3twoIN2ns1SE1SE"},
        {"ns::k2<ns::S, ns::S>", "_ZN2ns2k2INS_1SES1_EEvPT_", "_ZN2ns2k2INS_1SES1_EE"},
        {"ns::in::k3<ns::S*>", "_ZN2ns2in2k3IPNS_1SEEEvPT_", "_ZN2ns2in2k3IPNS_1SEEE"},
        {"kn<-7>", "_Z2knILin7EEvPi", "_Z2knILin7EE"},
        {"ku<7u>", "_Z2kuILj7EEvPi", "_Z2kuILj7EE"},
        {"kc<'a'>", "_Z2kcILc97EEvPi", "_Z2kcILc97EE"},
        {"kb<true>", "_Z2kbILb1EEvPi", "_Z2kbILb1EE"},
        {"k1<signed char>", "_Z2k1IaEvT_", "_Z2k1IaE"},
        {"k1<unsigned char>", "_Z2k1IhEvT_", "_Z2k1IhE"},
        {"k1<short int>", "_Z2k1IsEvT_", "_Z2k1IsE"},
        {"k1<unsigned short>", "_Z2k1ItEvT_", "_Z2k1ItE"},
        {"k1<long long>", "_Z2k1IxEvT_", "_Z2k1IxE"},
        {"k1<unsigned long>", "_Z2k1ImEvT_", "_Z2k1ImE"},
        {"k1<double>", "_Z2k1IdEvT_", "_Z2k1IdE"},
        {"k1<float**>", "_Z2k1IPPfEvT_", "_Z2k1IPPfE"},
        {"k1<uint32_t>", "_Z2k1IjEvT_", "_Z2k1IjE"},
        {"k1<size_t>", "_Z2k1ImEvT_", "_Z2k1ImE"},
        {"k1<long double>", "_Z2k1IeEvT_", "_Z2k1IeE"},
        {"k1<const volatile int*>", "_Z2k1IPVKiEvT_", "_Z2k1IPVKiE"},
        {"k1<__half>", "_Z2k1I6__halfEvT_", "_Z2k1I6__halfE"},
        {"two<char const*, const char*>", "_Z3twoIPKcS1_EvPT_", "_Z3twoIPKcS1_E"},
        {"two<float*, float* const>", "_Z3twoIPfKS0_EvPT_", "_Z3twoIPfKS0_E"},
        {"two<S*, S>", "_Z3twoIP1SS0_EvPT_", "_Z3twoIP1SS0_E"},
        {"two<S, const S*>", "_Z3twoI1SPKS0_EvPT_", "_Z3twoI1SPKS0_E"},
    };

    @Test
    void prefixesOfTheIssuesExamples() {
        assertEquals("_Z6square", CxxNames.mangledPrefix("square"));
        assertEquals("_ZN2ns1kE", CxxNames.mangledPrefix("ns::k"));
        assertEquals("_Z1kIfE", CxxNames.mangledPrefix("k<float>"));
        assertEquals("_Z1kIfLi4EE", CxxNames.mangledPrefix("k<float, 4>"));
        assertEquals("_Z1kIfLi4EE", CxxNames.mangledPrefix(" k < float,4 > "));
        assertEquals("_ZN2ns1kE", CxxNames.mangledPrefix("::ns::k"));
    }

    @Test
    void prefixesOfTheRecordedNvccNames() {
        for (String[] c : CASES) {
            assertEquals(c[2], CxxNames.mangledPrefix(c[0]), c[0]);
            assertTrue(c[1].startsWith(c[2]), c[0]);
        }
    }

    @Test
    void moreLiteralsAndTypes() {
        assertEquals("_Z1kILi16EE", CxxNames.mangledPrefix("k<0x10>"));
        assertEquals("_Z1kILi8EE", CxxNames.mangledPrefix("k<010>"));
        assertEquals("_Z1kILm5EE", CxxNames.mangledPrefix("k<5ul>"));
        assertEquals("_Z1kILx5EE", CxxNames.mangledPrefix("k<5LL>"));
        assertEquals("_Z1kILy5EE", CxxNames.mangledPrefix("k<5ull>"));
        assertEquals("_Z1kILb0EE", CxxNames.mangledPrefix("k<false>"));
        assertEquals("_Z1kILi0EE", CxxNames.mangledPrefix("k<-0>"));
        assertEquals("_Z1kIvE", CxxNames.mangledPrefix("k<void>"));
        assertEquals("_Z1kIKiE", CxxNames.mangledPrefix("k<const int>"));
        assertEquals("_Z1kIE", CxxNames.mangledPrefix("k<>"));
        assertEquals("_ZN1a1b1c1dE", CxxNames.mangledPrefix("a::b::c::d"));
    }

    @Test
    void namesItCannotMangleGiveNull() {
        for (String n : List.of("", "k<", "k<float", "k<vec<float>>", "std::k", "k<std::size_t>", "k<float&>",
                "k<1.5f>", "k<'\\n'>", "k<4294967296>", "k<-1u>", "operator()", "1k", "k()", "k<float> x",
                "ns::k<float>::x", "k<signed unsigned>", "k<int int>")) {
            assertNull(CxxNames.mangledPrefix(n), n);
        }
        assertNull(CxxNames.mangledPrefix(null));
    }

    private static List<String> recordedEntries() {
        Set<String> entries = new LinkedHashSet<>(List.of("saxpy", "_Z4overPf", "_Z4overPi"));
        for (String[] c : CASES) {
            entries.add(c[1]);
        }
        return List.copyOf(entries);
    }

    @Test
    void resolvesEveryRecordedName() {
        List<String> entries = recordedEntries();
        for (String[] c : CASES) {
            assertEquals(c[1], CxxNames.resolve(c[0], Map.of(), entries), c[0]);
        }
    }

    @Test
    void exactNameFirstThenLoweredNameThenPrefix() {
        List<String> entries = List.of("saxpy", "_Z6squarePfi", "_Z1kIfEvPT_", "_Z1kILi4EEvPf", "_Z1kv");
        assertEquals("saxpy", CxxNames.resolve("saxpy", Map.of("saxpy", "_Z6squarePfi"), entries));
        assertEquals("_Z6squarePfi", CxxNames.resolve("_Z6squarePfi", Map.of(), entries));
        // A lowered name wins over the prefix (here one that names another entry, to tell the two apart).
        assertEquals("_Z1kILi4EEvPf", CxxNames.resolve("k<float>", Map.of("k<float>", "_Z1kILi4EEvPf"), entries));
        // A lowered name the module does not have is passed over.
        assertEquals("_Z1kIfEvPT_", CxxNames.resolve("k<float>", Map.of("k<float>", "_Z9somethingv"), entries));
        // 'k' is the non-template k(), not one of the instantiations that share its prefix _Z1k.
        assertEquals("_Z1kv", CxxNames.resolve("k", Map.of(), entries));
        assertEquals("_Z1kILi4EEvPf", CxxNames.resolve("k<4>", null, entries));
    }

    @Test
    void aMissingKernelIsNotFoundAndTheMessageListsTheModulesKernels() {
        List<String> entries = List.of("saxpy", "_Z6squarePfi", "_Z2tkIfEvPT_S0_");
        DeviceException e = assertThrows(DeviceException.class, () -> CxxNames.resolve("saxpi", Map.of(), entries));
        assertEquals(CudaError.NOT_FOUND, e.error());
        assertEquals("module has no kernel 'saxpi'; it has [saxpy, _Z6squarePfi, _Z2tkIfEvPT_S0_]", e.detail());
        e = assertThrows(DeviceException.class, () -> CxxNames.resolve("k.cu", "tk<double>", Map.of(), entries));
        assertEquals("module 'k.cu' has no kernel 'tk<double>'; it has [saxpy, _Z6squarePfi, _Z2tkIfEvPT_S0_]",
                e.detail());
        // A template's bare name is not one of its instantiations.
        assertEquals(CudaError.NOT_FOUND, assertThrows(DeviceException.class,
                () -> CxxNames.resolve("tk", Map.of(), entries)).error());
        // A name that cannot be mangled is simply not found.
        assertEquals(CudaError.NOT_FOUND, assertThrows(DeviceException.class,
                () -> CxxNames.resolve("tk<vec<float>>", Map.of(), entries)).error());
        assertEquals(CudaError.INVALID_VALUE, assertThrows(DeviceException.class,
                () -> CxxNames.resolve(null, Map.of(), entries)).error());
    }

    @Test
    void overloadsAreReportedAsSuch() {
        DeviceException e = assertThrows(DeviceException.class,
                () -> CxxNames.resolve("over", Map.of(), recordedEntries()));
        assertEquals(CudaError.NOT_FOUND, e.error());
        assertTrue(e.detail().startsWith("module has several kernels named 'over' (overloads): [_Z4overPf,"
                + " _Z4overPi]"), e.detail());
        // Either overload is found by its entry name.
        assertEquals("_Z4overPi", CxxNames.resolve("_Z4overPi", Map.of(), recordedEntries()));
    }

    /** The recorded names are what nvcc makes today: compile the source and compare, then resolve on real PTX. */
    @Test
    void recordedNamesAreNvccs() throws Exception {
        NvccTool.require();
        StringBuilder src = new StringBuilder(SOURCE);
        int i = 0;
        for (String[] c : CASES) {
            if (c[0].contains("<")) {
                src.append("static void* ref").append(i++).append(" __attribute__((unused)) = (void*)&")
                        .append(c[0]).append(";\n");
            }
        }
        List<String> entries = PtxEntries.parse(NvccTool.ptxOf(src.toString(), "compute_75")).stream()
                .map(PtxEntry::name).toList();
        for (String[] c : CASES) {
            assertTrue(entries.contains(c[1]), c[0] + " → " + c[1] + " not in " + entries);
            assertEquals(c[1], CxxNames.resolve(c[0], Map.of(), entries), c[0]);
        }
        assertTrue(entries.containsAll(List.of("_Z4overPf", "_Z4overPi")), entries.toString());
        Map<String, String> none = new LinkedHashMap<>();
        assertEquals(CudaError.NOT_FOUND, assertThrows(DeviceException.class,
                () -> CxxNames.resolve("over", none, entries)).error());
    }
}
