/**
 * The kernel engine's front end: preprocessor, lexer, parser and semantic analysis of CUDA C into a typed AST
 * ({@code kernel.ast}), checking the whole source at once as NVRTC does. C's promotions and conversions and
 * pointer arithmetic are made explicit, templates are instantiated by name, intrinsics resolved to their
 * variant; errors carry line and column. {@link dev.polygpu.device.cpu.kernel.front.FrontEnd} and
 * {@link dev.polygpu.device.cpu.kernel.front.TranslationUnit} are its entry points; the rest is
 * package-private.
 */
package dev.polygpu.device.cpu.kernel.front;
