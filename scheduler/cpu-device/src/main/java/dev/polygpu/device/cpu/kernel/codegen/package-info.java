/**
 * The kernel engine's code generator: each kernel of a typed AST becomes a hidden JVM class written with
 * {@code java.lang.classfile}, {@code __device__} functions inlined; kernels with barriers or warp intrinsics
 * are lowered to resumable code that yields at those points. {@link
 * dev.polygpu.device.cpu.kernel.codegen.KernelCompiler} is the entry point; the rest is package-private.
 */
package dev.polygpu.device.cpu.kernel.codegen;
