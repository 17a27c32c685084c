/**
 * The {@code grcuda} Truffle language ({@link dev.polygpu.grcuda.GrCUDALanguage}): its options, read once per
 * context into immutable settings ({@link dev.polygpu.grcuda.GrOptions}, {@link dev.polygpu.grcuda.GrSettings},
 * {@link dev.polygpu.grcuda.ClusterSettings}), the per-context state with its device and scheduler ({@link
 * dev.polygpu.grcuda.GrContext}), the one factory of guest errors ({@link dev.polygpu.grcuda.GrError}), schedule
 * exports and interruptible waits. Sub-packages: {@code parser} (the expression language of a source), {@code
 * objects} (interop values and their base classes), {@code builtins} (the functions of {@code CU}), {@code
 * array} and {@code kernel}. The language reaches the device and scheduler only through the scheduler module's
 * public API; public types here are for the launcher and tests, with no compatibility promised.
 */
package dev.polygpu.grcuda;
