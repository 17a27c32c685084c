/**
 * The interop values of the grcuda language that are not arrays or kernels, and the base classes of all of
 * them: {@link dev.polygpu.grcuda.objects.GrObject} (language, meta object, display string), {@link
 * dev.polygpu.grcuda.objects.GrPlainObject} (readable members and the hidden {@code toString}), {@link
 * dev.polygpu.grcuda.objects.GrBuiltin} (functions); namespaces, lists, meta objects, {@code None}, unsigned
 * 64-bit numbers, and {@link dev.polygpu.grcuda.objects.GrDeviceMemory}, what a kernel launch needs from an
 * array. Depends on no other package of the language but the root, so that {@code array} and {@code kernel}
 * can both use it.
 */
package dev.polygpu.grcuda.objects;
