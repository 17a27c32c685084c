package dev.polygpu.device;

import java.util.List;

/** A kernel of a {@link Module}, ready to launch (a {@code CUfunction}). */
public interface KernelFunction {

    /** The name it was looked up by ({@code saxpy}, {@code k<float>}). */
    String name();

    Module module();

    /** The parameters, where the backend knows them; empty otherwise. */
    List<KernelParam> parameters();

    /**
     * The parameters as precompiled code declares them (sizes, not C types) for a kernel of a {@linkplain
     * Device#load loaded image}; empty for kernels compiled from source, whose {@link #parameters()} say more.
     */
    default List<ImageParam> imageParameters() {
        return List.of();
    }

    /** Bytes of statically declared {@code __shared__} memory. */
    int staticSharedBytes();
}
