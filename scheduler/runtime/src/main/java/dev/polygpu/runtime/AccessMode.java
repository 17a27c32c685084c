package dev.polygpu.runtime;

/**
 * How a computational element uses an array: what the dependency tracker orders by. Scalars are passed by
 * value and never appear here.
 */
public enum AccessMode {
    /** Only reads ({@code in}, {@code const}, a host element read, the source of a copy). */
    READ,
    /** Only writes: the previous contents are not an input ({@code out}, the destination of a copy or fill). */
    WRITE,
    /** Reads and writes ({@code inout}, a legacy plain {@code pointer}). */
    READ_WRITE;

    public boolean reads() {
        return this != WRITE;
    }

    public boolean writes() {
        return this != READ;
    }
}
