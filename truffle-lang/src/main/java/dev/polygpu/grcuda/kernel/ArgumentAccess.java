package dev.polygpu.grcuda.kernel;

/**
 * How a kernel uses a pointer argument, from its signature's direction: what the scheduler needs to order
 * launches (a reader after a writer waits; two readers need not, under {@code with-const}). Scalars are
 * passed by value and are always {@link #READ}.
 */
public enum ArgumentAccess {
    /** {@code in}, {@code const}, legacy {@code const pointer}: the kernel only reads. */
    READ,
    /** {@code out}: the kernel only writes; the previous contents are not a dependency. */
    WRITE,
    /** {@code inout}, legacy plain {@code pointer}: the kernel reads and writes. */
    READ_WRITE;

    public boolean reads() {
        return this != WRITE;
    }

    public boolean writes() {
        return this != READ;
    }
}
