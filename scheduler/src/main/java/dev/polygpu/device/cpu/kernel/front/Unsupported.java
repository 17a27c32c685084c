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

    /** The vector-like types the engine rejects: dim3 and the half-precision ones ({@link VectorTypes} has the rest). */
    static boolean isVectorType(String name) {
        return name.equals("dim3") || name.equals("__half") || name.equals("half") || name.equals("__half2")
                || name.equals("__nv_bfloat16");
    }

    /** The message for a declaration with a type that {@link #isVectorType} accepts: what it is and what to use. */
    static String vectorTypeMessage(String name) {
        String engine = " is not supported by the CPU device's kernel engine";
        if (name.equals("dim3")) {
            return "type 'dim3' is not supported in kernel code by the CPU device's kernel engine; use blockDim.x, "
                    + "gridDim.y … directly or int variables";
        }
        return "half-precision type '" + name + "'" + engine + "; use float, and float arrays for the data";
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
        if (name.startsWith("__half") || name.startsWith("__float2half") || name.startsWith("__h")) {
            return "half-precision functions ('" + name + "')" + " are not supported by the CPU device's kernel engine";
        }
        if (name.startsWith("__shfl") || name.startsWith("__any") || name.startsWith("__all")
                || name.startsWith("__ballot")) {
            return "'" + name + "' (a legacy warp function without _sync or an unknown variant)" + ENGINE;
        }
        return null;
    }
}
