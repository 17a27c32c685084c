/**
 * The grcuda source language, GrCUDA's small expression language ({@code CU}, {@code DeviceArray}, {@code
 * float[10][20]}, {@code BLAS::cublasSaxpy}): {@link dev.polygpu.grcuda.parser.GrParser} parses a source into a
 * {@link dev.polygpu.grcuda.parser.GrExpression}, which {@link dev.polygpu.grcuda.parser.GrRootNode} evaluates
 * against the context's root namespace. Errors give line and column. Internal to the language.
 */
package dev.polygpu.grcuda.parser;
