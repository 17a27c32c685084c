package dev.polygpu.runtime;

/**
 * What another machine needs to build a kernel again: its CUDA C source, the name it was looked up by
 * ({@code square}, {@code k<float>}) and the signature it was built with (NIDL or legacy form, as the user
 * wrote it). Immutable; it crosses machines only through the cluster's explicit wire format, never through
 * Java serialization.
 */
public record KernelSource(String source, String name, String signature) {
    public KernelSource {
        if (source == null || name == null || signature == null) {
            throw new IllegalArgumentException("kernel source, name and signature must not be null");
        }
    }
}
