/**
 * The typed AST of the kernel engine: what the front end produces and the code generator consumes. Types
 * ({@link dev.polygpu.device.cpu.kernel.ast.CType}), expressions and statements (sealed interfaces of records),
 * functions, variables and intrinsics, with source positions for messages. {@link
 * dev.polygpu.device.cpu.kernel.ast.Expr} states the invariants the code generator relies on. Data only; no
 * behaviour beyond small helpers.
 */
package dev.polygpu.device.cpu.kernel.ast;
