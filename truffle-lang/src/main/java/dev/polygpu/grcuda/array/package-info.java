/**
 * GrCUDA-compatible device arrays: the {@code DeviceArray} function of {@code CU}, the 1-D and
 * multi-dimensional arrays it creates, and the views {@code m[i]} of the latter. Every array lives in the
 * unified memory of the context's device; the host reads and writes it in place, always through
 * {@link dev.polygpu.grcuda.array.ArrayAccess}. Public: the array classes (kernels see them as
 * {@link dev.polygpu.grcuda.objects.GrDeviceMemory}) and {@code ArrayAccess}; the rest is package-private.
 */
package dev.polygpu.grcuda.array;
