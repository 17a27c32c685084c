package dev.polygpu.device.cpu.kernel.codegen;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_double;
import static java.lang.constant.ConstantDescs.CD_float;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.polygpu.device.cpu.kernel.ast.CType;
import java.lang.classfile.TypeKind;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;

/** Type descriptors and the mapping of C types to JVM value kinds used by the code generator. */
final class Jvm {
    private Jvm() {
    }

    static final ClassDesc SEGMENT = ClassDesc.of("java.lang.foreign.MemorySegment");
    static final ClassDesc FRAME = ClassDesc.of("dev.polygpu.device.cpu.kernel.LaunchFrame");
    static final ClassDesc CANCELLATION = ClassDesc.of("dev.polygpu.device.cpu.kernel.LaunchCancellation");
    static final ClassDesc STATE = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.BlockState");
    static final ClassDesc MEM = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.Mem");
    static final ClassDesc CONV = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.Conv");
    static final ClassDesc STRIDED_LOOPS = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.StridedLoops");
    static final ClassDesc GENERATED = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.GeneratedKernel");
    static final ClassDesc MATH = ClassDesc.of("dev.polygpu.device.cpu.kernel.rt.CudaMath");
    static final ClassDesc MATH_FLOAT = ClassDesc.of("dev.polygpu.device.cpu.kernel.rt.CudaMathFloat");
    static final ClassDesc DIRECTED_ROUNDING = ClassDesc.of("dev.polygpu.device.cpu.kernel.rt.DirectedRounding");
    static final ClassDesc INTEGER_INTRINSICS = ClassDesc.of("dev.polygpu.device.cpu.kernel.rt.IntegerIntrinsics");
    static final ClassDesc PRINT = ClassDesc.of("dev.polygpu.device.cpu.kernel.exec.DevicePrint");
    static final ClassDesc FAULT = ClassDesc.of("dev.polygpu.device.cpu.kernel.KernelFault");
    static final ClassDesc HALF = ClassDesc.of("dev.polygpu.device.cpu.kernel.rt.CudaHalf");
    static final ClassDesc ATOMICS = ClassDesc.of("dev.polygpu.device.cpu.kernel.rt.Atomics");
    static final ClassDesc DIM3 = ClassDesc.of("dev.polygpu.device.Dim3");
    static final ClassDesc INTEGER = ClassDesc.of("java.lang.Integer");
    static final ClassDesc JAVA_MATH = ClassDesc.of("java.lang.Math");
    static final ClassDesc LONG = ClassDesc.of("java.lang.Long");
    static final ClassDesc FLOAT = ClassDesc.of("java.lang.Float");
    static final ClassDesc DOUBLE = ClassDesc.of("java.lang.Double");
    static final ClassDesc VAR_HANDLE = ClassDesc.of("java.lang.invoke.VarHandle");
    static final ClassDesc STRING = ClassDesc.of("java.lang.String");

    static final MethodTypeDesc RUN_BLOCK = MethodTypeDesc.of(CD_void, FRAME, STATE, CD_int, CD_int, CD_int);
    static final MethodTypeDesc RUN_BLOCKS = MethodTypeDesc.of(CD_int, FRAME, STATE, CD_int, CD_int, CD_int, CD_int);
    static final MethodTypeDesc RESUME = MethodTypeDesc.of(CD_void, FRAME, STATE, CD_int, CD_int, CD_int, CD_int, CD_int);

    /**
     * The class of the CUDA math library function whose overload is chosen by an operand of kind k: the
     * {@code float} overloads, the {@code double} ones, or the integer ones ({@code min}, {@code abs}, bit counts).
     */
    static ClassDesc mathOwner(K k) {
        return switch (k) {
            case F -> MATH_FLOAT;
            case D -> MATH;
            case I, J -> INTEGER_INTRINSICS;
            case P, V -> throw new IllegalArgumentException("no math library overload takes a " + k + " operand");
        };
    }

    /** The JVM value kind a C type is held in. */
    enum K {
        I(TypeKind.INT, CD_int), J(TypeKind.LONG, CD_long), F(TypeKind.FLOAT, CD_float),
        D(TypeKind.DOUBLE, CD_double), P(TypeKind.REFERENCE, CD_Object), V(TypeKind.VOID, CD_void);

        final TypeKind tk;
        final ClassDesc desc;

        K(TypeKind tk, ClassDesc desc) {
            this.tk = tk;
            this.desc = desc;
        }
    }

    static K kind(CType t) {
        if (t instanceof CType.Vector || t instanceof CType.Struct) {
            throw new IllegalStateException("a vector or struct value ('" + t + "') reached code that handles one JVM"
                    + " value (a bug in polygpu's kernel engine)");
        }
        if (t instanceof CType.Prim p) {
            return switch (p) {
                case VOID -> K.V;
                case LONG, ULONG, LONGLONG, ULONGLONG -> K.J;
                case FLOAT, HALF -> K.F;
                case DOUBLE -> K.D;
                default -> K.I;
            };
        }
        return K.P;
    }

    /** The kind each component of a vector is held in (one JVM value per component). */
    static K componentKind(CType.Vector v) {
        return kind(v.component());
    }

    /** True for the types whose values are several JVM values, one per scalar leaf: vectors and structs. */
    static boolean multi(CType t) {
        return t instanceof CType.Vector || t instanceof CType.Struct;
    }

    /** The kinds of the JVM values a vector or struct value consists of, one per scalar leaf in memory order. */
    static K[] leafKinds(CType t) {
        return CType.leaves(t).stream().map(l -> kind(l.type())).toArray(K[]::new);
    }

    static boolean unsigned(CType t) {
        return t instanceof CType.Prim p && p.integer && !p.signed;
    }

    static MethodTypeDesc mt(ClassDesc ret, ClassDesc... args) {
        return MethodTypeDesc.of(ret, args);
    }
}
