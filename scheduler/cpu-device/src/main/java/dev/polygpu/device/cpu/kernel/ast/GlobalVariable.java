package dev.polygpu.device.cpu.kernel.ast;

/**
 * A file-scope {@code __device__} or {@code __constant__} variable of a compiled source, as the module allocates
 * it: one instance per module, zero-filled and then initialized with {@code initial}, which holds the
 * constant initializer's bytes in the device's (little-endian) layout, as long as the variable's type
 * ({@link Var#type}), with zeros for elements the initializer leaves out.
 *
 * @param var      the variable every function of the module refers to ({@link Var.Kind#DEVICE} or
 *                 {@link Var.Kind#CONSTANT})
 * @param readOnly kernel code may not write it: {@code __constant__}, or declared {@code const}
 * @param initial  the initial contents, {@code var.type.size()} bytes
 */
public record GlobalVariable(Var var, boolean readOnly, byte[] initial) {

    /** {@code __constant__ array 'w'}, {@code __device__ variable 'counter'}: how messages name it. */
    public String describe() {
        return (var.kind == Var.Kind.CONSTANT ? "__constant__ " : "__device__ ")
                + (var.type instanceof CType.Array ? "array" : "variable") + " '" + var.name + "'";
    }
}
