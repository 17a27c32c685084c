package dev.polygpu.runtime;

/** What a computational element does; it decides how the element is shown in DAG and trace exports. */
public enum ElementKind {
    /** A kernel launch. */
    KERNEL,
    /** A device copy between arrays. */
    COPY,
    /** A device fill of an array range. */
    FILL,
    /** A prefetch of an array to the device. */
    PREFETCH,
    /** A host read of array elements: a synchronization point that runs on the host. */
    HOST_READ,
    /** A host write of array elements: a synchronization point that runs on the host. */
    HOST_WRITE;

    /** True for the elements that run on the host thread that submits them rather than on a stream. */
    public boolean onHost() {
        return this == HOST_READ || this == HOST_WRITE;
    }
}
