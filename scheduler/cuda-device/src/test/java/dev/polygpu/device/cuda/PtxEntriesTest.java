package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PtxEntriesTest {

    private static PtxParam p(String type, int bytes) {
        return new PtxParam(type, bytes);
    }

    private static PtxParam p(String type, int bytes, int align, String name) {
        return new PtxParam(type, bytes, align, name);
    }

    /** The parameters with only their types and sizes (names dropped, alignment that of the element type). */
    static List<PtxParam> typesAndSizes(List<PtxParam> params) {
        return params.stream().map(q -> new PtxParam(q.ptxType(), q.bytes())).toList();
    }

    @Test
    void readsEntriesVisibleOrNotWithTheirParameters() {
        String ptx = """
                .version 8.0
                .target sm_75
                .address_size 64

                .visible .entry saxpy(
                \t.param .u64 saxpy_param_0,
                \t.param .f32 saxpy_param_1,
                \t.param .u32 saxpy_param_2
                )
                {
                \tret;
                }
                .entry hidden(
                \t.param .align 8 .b8 hidden_param_0[24],
                \t.param .u8 hidden_param_1,
                \t.param .u16 hidden_param_2,
                \t.param .f64 hidden_param_3
                )
                .maxntid 256, 1, 1
                {
                \tret;
                }
                .visible .entry _Z6novoidv()
                {
                \tret;
                }
                """;
        List<PtxEntry> entries = PtxEntries.parse(ptx);
        assertEquals(List.of(
                new PtxEntry("saxpy", List.of(p(".u64", 8, 8, "saxpy_param_0"), p(".f32", 4, 4, "saxpy_param_1"),
                        p(".u32", 4, 4, "saxpy_param_2"))),
                new PtxEntry("hidden", List.of(p(".b8", 24, 8, "hidden_param_0"), p(".u8", 1, 1, "hidden_param_1"),
                        p(".u16", 2, 2, "hidden_param_2"), p(".f64", 8, 8, "hidden_param_3"))),
                new PtxEntry("_Z6novoidv", List.of())), entries);
    }

    @Test
    void pointerAttributesArraysOfWiderElementsAndCommentsAreHandled() {
        String ptx = """
                // .visible .entry commented_out(.param .u64 x)
                /* .entry also_not(
                   .param .u32 y) */
                .visible .entry k(
                \t.param .u64 .ptr .global .align 4 k_param_0, // the output
                \t.param .u64 .ptr .align 8 k_param_1,
                \t.param .b32 k_param_2[4],
                \t.param .s32 k_param_3
                )
                {
                }
                .func (.param .b32 r) helper(.param .b32 a)
                {
                }
                """;
        // The .align after .ptr is the pointee's: the parameter itself is aligned as its type.
        assertEquals(List.of(new PtxEntry("k", List.of(p(".u64", 8, 8, "k_param_0"), p(".u64", 8, 8, "k_param_1"),
                p(".b32", 16, 4, "k_param_2"), p(".s32", 4, 4, "k_param_3")))), PtxEntries.parse(ptx));
    }

    @Test
    void aParameterThatIsNotPtxIsInvalidPtx() {
        DeviceException e = assertThrows(DeviceException.class,
                () -> PtxEntries.parse(".visible .entry k(\n .param .u64 k_param_0,\n garbage\n)\n{}\n"));
        assertEquals(CudaError.INVALID_PTX, e.error());
        assertEquals("cannot read parameter 'garbage' of PTX entry 'k' [CUDA_ERROR_INVALID_PTX]", e.getMessage());
    }

    @Test
    void imageParametersSayHowThePtxDeclaresThem() {
        assertEquals(new ImageParam("a", 8, 8, ".u64"), p(".u64", 8, 8, "a").image());
        assertEquals(new ImageParam("s", 12, 4, ".align 4 .b8[12]"), p(".b8", 12, 4, "s").image());
        assertEquals(new ImageParam(null, 16, 4, ".align 4 .b32[4]"), p(".b32", 16, 4, null).image());
        assertEquals(new ImageParam("v", 16, 16, ".align 16 .f32[4]"), p(".f32", 16, 16, "v").image());
        assertEquals(new ImageParam("w", 8, 16, ".align 16 .u64"), p(".u64", 8, 16, "w").image());
    }

    @Test
    void impossibleSizesAndAlignmentsAreInvalidPtx() {
        for (String[] c : new String[][] {
                {".param .align 3 .b8 x[4]", "not a power of two"},
                {".param .b8 x[0]", "no elements"},
                {".param .b8 x[99999999999]", "out of range: 99999999999"},
                {".param .b32 x[1000000]", "more than 1048576 bytes"}}) {
            DeviceException e = assertThrows(DeviceException.class,
                    () -> PtxEntries.parse(".visible .entry k(\n " + c[0] + "\n)\n{}\n"));
            assertEquals(CudaError.INVALID_PTX, e.error());
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }

    @Test
    void noEntries() {
        assertEquals(List.of(), PtxEntries.parse(".version 8.0\n.target sm_75\n.func f()\n{\n}\n"));
    }

    /**
     * Real nvcc output. Expected sizes are those of the C types on the device (LP64): pointers and long long 8,
     * float and int 4, char and bool 1, unsigned short 2, and a struct {double; int} 16 bytes aligned to 8.
     */
    @Test
    void readsNvccOutput() throws Exception {
        NvccTool.require();
        String src = NvccTool.conformanceKernel("SAXPY") + """
                struct S { double d; int i; };
                extern "C" __global__ void mixed(S s, char c, bool b, unsigned short us, long long ll, double* d) {}
                static __global__ void internal(int* a) { a[0] = 1; }
                extern "C" __global__ void none() {}
                """;
        for (String arch : List.of("compute_75", "compute_90")) {
            String ptx = NvccTool.ptxOf(src, arch);
            // A static kernel is an .entry without .visible; its name is mangled (internal linkage).
            assertTrue(ptx.contains("\n.entry _Z8internalPi("), ptx);
            Map<String, List<PtxParam>> byName = new HashMap<>();
            for (PtxEntry e : PtxEntries.parse(ptx)) {
                byName.put(e.name(), typesAndSizes(e.params()));
            }
            assertEquals(Set.of("saxpy", "mixed", "_Z8internalPi", "none"), byName.keySet(), arch);
            assertEquals(List.of(p(".u64", 8), p(".u64", 8), p(".f32", 4), p(".u32", 4)), byName.get("saxpy"));
            assertEquals(List.of(p(".b8", 16), p(".u8", 1), p(".u8", 1), p(".u16", 2), p(".u64", 8), p(".u64", 8)),
                    byName.get("mixed"));
            assertEquals(List.of(p(".u64", 8)), byName.get("_Z8internalPi"));
            assertEquals(List.of(), byName.get("none"));
        }
    }
}
