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
    /**
     * A copy of an array from one location that holds it up to date to another (a device, or the host), which
     * a scheduler with several devices adds before an element that needs the array where it is not.
     */
    TRANSFER,
    /** A host read of array elements: a synchronization point that runs on the host. */
    HOST_READ,
    /** A host write of array elements: a synchronization point that runs on the host. */
    HOST_WRITE,
    /**
     * A call of a host function on arrays (a function of a shared library bound with {@code bind}): it runs on
     * the host thread that submits it, after the elements it depends on, and the elements that depend on it wait
     * for it to return ({@link Scheduler#callOnHost}).
     */
    HOST_CALL;

    /** True for the elements that run on the host thread that submits them rather than on a stream. */
    public boolean onHost() {
        return this == HOST_READ || this == HOST_WRITE || this == HOST_CALL;
    }
}
