/**
 * The functions of the {@code CU} namespace, one class per builtin ({@code buildkernel}, {@code bindkernel},
 * {@code getdevices}, the {@code cuda…} runtime functions, {@code getoptions}, schedule and cluster reports),
 * registered in the one list of {@link dev.polygpu.grcuda.builtins.Builtins}. Argument checks go through
 * {@link dev.polygpu.grcuda.builtins.Args}; functions that use the device extend {@code GrDeviceBuiltin}.
 * Internal to the language.
 */
package dev.polygpu.grcuda.builtins;
