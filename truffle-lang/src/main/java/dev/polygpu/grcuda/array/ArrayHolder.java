package dev.polygpu.grcuda.array;

import dev.polygpu.grcuda.objects.GrDeviceMemory;

/** What the array classes share for copies: their memory and where in it they start. */
sealed interface ArrayHolder extends GrDeviceMemory permits GrWholeArray, GrArrayView {

    ArrayMemory memory();

    /** Index of the first element in {@link #memory()}. */
    long firstElement();

    /** True if the {@link #elementCount()} elements lie one after the other from {@link #firstElement()}. */
    @Override
    boolean isContiguous();
}
