package dev.polygpu.device.cpu.kernel.front;

import java.util.Set;

/** Names of CUDA features the CPU device's kernel engine rejects, so that the message says what and why. */
final class Unsupported {
    private Unsupported() {}

    static final String ENGINE = " is not supported by the CPU device's kernel engine";

    private static final Set<String> HOST_FUNCTIONS = Set.of("fprintf", "sprintf", "puts", "malloc",
            "free", "calloc", "realloc", "memcpy", "memset", "memmove", "__assert_fail", "exit", "abort", "__brkpt", "cudaMalloc", "cudaFree",
            "cudaMemcpy", "cudaDeviceSynchronize", "__prof_trigger", "rand", "srand", "curand_init", "curand",
            "curand_uniform", "curand_normal", "cooperative_groups", "this_thread_block", "tiled_partition");

    private static final Set<String> TEXTURE = Set.of("texture", "surface", "cudaTextureObject_t",
            "cudaSurfaceObject_t", "tex1D", "tex2D", "tex3D", "tex1Dfetch", "surf2Dread", "surf2Dwrite",
            "tex2DLayered", "texCubemap");

    /**
     * The vector-like types the engine rejects: dim3, {@code __half2} and the bf16 ones ({@link VectorTypes} has the
     * vector types, {@code __half} is supported).
     */
    static boolean isVectorType(String name) {
        return name.equals("dim3") || name.equals("__half2") || name.equals("half2") || name.equals("__nv_bfloat16")
                || name.equals("__nv_bfloat162") || name.equals("nv_bfloat16") || name.equals("nv_bfloat162");
    }

    /** The message for a declaration with a type that {@link #isVectorType} accepts: what it is and what to use. */
    static String vectorTypeMessage(String name) {
        String engine = " is not supported by the CPU device's kernel engine";
        if (name.equals("dim3")) {
            return "type 'dim3' is not supported in kernel code by the CPU device's kernel engine; use blockDim.x, "
                    + "gridDim.y … directly or int variables";
        }
        if (name.contains("bfloat16")) {
            return "bfloat16 type '" + name + "'" + engine + "; use float (or __half, which is supported)";
        }
        return "paired half type '" + name + "'" + engine + "; use two __half values (or a __half array)";
    }

    static boolean isTextureType(String name) {
        return name.equals("texture") || name.equals("surface") || name.equals("cudaTextureObject_t")
                || name.equals("cudaSurfaceObject_t");
    }

    /** The message for a call of an unsupported function, or null if the name is simply unknown. */
    static String callMessage(String name) {
        if (HOST_FUNCTIONS.contains(name)) {
            return name + ENGINE;
        }
        if (name.equals("__globaltimer")) {
            return "'__globaltimer' is not a CUDA C function (nvcc 13 does not declare it; a GPU's global timer is"
                    + " read with inline assembly, which the CPU device's kernel engine does not support); use clock64()"
                    + " to measure intervals";
        }
        if (TEXTURE.contains(name)) {
            return "texture and surface functions ('" + name + "')" + " are not supported by the CPU device's kernel engine";
        }
        boolean scalarConversion = name.matches("__half2(float|u?int|u?ll|u?short|u?char)(_r[nzdu])?");
        if (name.startsWith("__half2") && !scalarConversion || name.contains("half2_")
                || name.endsWith("2half2") || name.contains("bfloat16") || name.startsWith("__h") && name.endsWith("2")) {
            return "paired-half and bfloat16 functions ('" + name + "')" + ENGINE + "; __half and its scalar"
                    + " functions (__hadd, __float2half, …) are";
        }
        if (name.startsWith("__half") || name.startsWith("__float2half") || name.startsWith("__h")
                || name.contains("2half")) {
            return "half-precision function '" + name + "'" + ENGINE + "; the supported ones are the conversions"
                    + " __float2half(_rn), __double2half, __half2float, __int2half_rn and the other integer ones,"
                    + " __half2int_rz …, the arithmetic __hadd __hsub __hmul __hdiv __hfma __hneg __habs __hmax"
                    + " __hmin, and the comparisons __heq __hne __hlt __hle __hgt __hge (and their unordered"
                    + " …u forms) and __hisnan";
        }
        if (name.startsWith("__shfl") || name.startsWith("__any") || name.startsWith("__all")
                || name.startsWith("__ballot")) {
            return "'" + name + "' (a legacy warp function without _sync or an unknown variant)" + ENGINE;
        }
        return null;
    }
}
