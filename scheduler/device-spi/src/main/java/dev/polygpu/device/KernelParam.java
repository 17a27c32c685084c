package dev.polygpu.device;

/**
 * A kernel parameter as the device knows it: its name and either a pointer (with the pointee's element type,
 * or null for {@code void*}) or a scalar element type. Backends that cannot see parameter types (precompiled
 * code) report {@link KernelFunction#parameters()} as empty.
 */
public record KernelParam(String name, boolean pointer, ElementType type) {
    @Override
    public String toString() {
        return (type == null ? "void" : type.cName) + (pointer ? "* " : " ") + name;
    }
}
