package dev.polygpu.device.cpu.kernel.ast;

import java.util.List;

/**
 * Expressions of the kernel language. The parser builds them with {@code type == null}; semantic analysis
 * returns a new tree in which every node has its C type and these invariants hold (the code generator relies
 * on them and checks none):
 * <ul>
 *   <li>Arrays have decayed: an expression of array type appears only as the operand of {@link AddrOf},
 *       {@code sizeof} (folded away) or as the {@link Decay} node's operand.</li>
 *   <li>{@link Binary} arithmetic, bitwise and comparison operands have both been converted (by {@link Cast})
 *       to {@link Binary#operandType()}; shifts convert each operand by promotion alone, and the left one gives
 *       the type. Logical {@code && ||} operands are scalars of any type; their result is {@code int}.</li>
 *   <li>Pointer arithmetic is explicit: {@link PtrAdd} (index converted to {@code long}), {@link PtrDiff}.
 *       Pointer comparisons are {@link Binary} with a pointer {@link Binary#operandType()}.</li>
 *   <li>Assignments convert the value to the target's type; compound assignments carry the operation type.</li>
 *   <li>Calls convert each argument to its parameter type.</li>
 * </ul>
 */
public sealed interface Expr {
    Pos pos();

    /** The C type; null before semantic analysis. */
    CType type();

    /** Integer constant (also {@code true}/{@code false} as bool and character literals as int). */
    record IntConst(Pos pos, CType type, long value) implements Expr {}

    /** Floating constant; {@code type} is float for an {@code f} suffix, double otherwise. */
    record FloatConst(Pos pos, CType type, double value) implements Expr {}

    /**
     * A string literal, as a byte string (one char below 256 per byte, no terminating NUL). Semantic analysis
     * accepts it only as the format and {@code %s} arguments of {@code printf} and in {@code assert}'s message.
     */
    record StrConst(Pos pos, CType type, String value) implements Expr {}

    /** A variable (parameter, local, shared array). The front end resolves the name to its {@link Var}. */
    record VarRef(Pos pos, CType type, Var var) implements Expr {}

    /** A name before resolution; never present after semantic analysis. */
    record Name(Pos pos, CType type, String name) implements Expr {}

    /** {@code threadIdx.x}, {@code blockIdx.y}, {@code blockDim.z}, {@code gridDim.x}, {@code warpSize}: unsigned int (warpSize: int). */
    record Builtin(Pos pos, CType type, BuiltinVar var, int dim) implements Expr {}

    enum BuiltinVar { THREAD_IDX, BLOCK_IDX, BLOCK_DIM, GRID_DIM, WARP_SIZE }

    record Unary(Pos pos, CType type, UnaryOp op, Expr operand) implements Expr {}

    enum UnaryOp { NEG, PLUS, NOT, BIT_NOT }

    record Binary(Pos pos, CType type, BinaryOp op, CType operandType, Expr left, Expr right) implements Expr {}

    enum BinaryOp {
        ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), SHL("<<"), SHR(">>"),
        BIT_AND("&"), BIT_OR("|"), BIT_XOR("^"),
        LT("<"), GT(">"), LE("<="), GE(">="), EQ("=="), NE("!="),
        LOGICAL_AND("&&"), LOGICAL_OR("||");

        public final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public boolean isComparison() {
            return this == LT || this == GT || this == LE || this == GE || this == EQ || this == NE;
        }
    }

    /** {@code target = value}; value already converted to the target's type. Result: the stored value. */
    record Assign(Pos pos, CType type, Expr target, Expr value) implements Expr {}

    /**
     * {@code target op= value}: computes {@code (operandType) target op value} and converts back to the target's
     * type. For a pointer target ({@code p += n}) {@code op} is ADD or SUB, {@code operandType} is the pointer
     * type and value is a {@code long} index.
     */
    record CompoundAssign(Pos pos, CType type, BinaryOp op, CType operandType, Expr target, Expr value)
            implements Expr {}

    /** {@code ++x}, {@code x--} etc. on an arithmetic or pointer lvalue; result is the old (postfix) or new value. */
    record IncDec(Pos pos, CType type, Expr target, boolean prefix, boolean increment) implements Expr {}

    /** {@code c ? a : b}; a and b converted to {@code type}; c is any scalar. */
    record Conditional(Pos pos, CType type, Expr condition, Expr ifTrue, Expr ifFalse) implements Expr {}

    /** Conversion to {@code type}, explicit or inserted by semantic analysis. */
    record Cast(Pos pos, CType type, Expr operand) implements Expr {}

    /**
     * Bit reinterpretation between same-size types ({@code __float_as_int}, {@code __int_as_float},
     * {@code __float_as_uint}, {@code __uint_as_float}, {@code __double_as_longlong},
     * {@code __longlong_as_double}): the operand's bits read as {@code type}, unlike {@link Cast}.
     */
    record BitCast(Pos pos, CType type, Expr operand) implements Expr {}

    /** {@code *pointer} (and {@code a[i]} as {@code *(a + i)}): an lvalue of the pointee type. */
    record Deref(Pos pos, CType type, Expr pointer) implements Expr {}

    /** {@code &lvalue}: a pointer. */
    record AddrOf(Pos pos, CType type, Expr operand) implements Expr {}

    /** An array used as a value becomes a pointer to its first element. */
    record Decay(Pos pos, CType type, Expr array) implements Expr {}

    /** {@code pointer + index} (or minus, with {@code negate}); the index is a {@code long}. */
    record PtrAdd(Pos pos, CType type, Expr pointer, Expr index, boolean negate) implements Expr {}

    /** {@code a - b} of two pointers: a {@code long} count of elements. */
    record PtrDiff(Pos pos, CType type, Expr left, Expr right) implements Expr {}

    /**
     * Component {@code index} (0 to 3 for {@code .x .y .z .w}) of an expression of {@link CType.Vector} type;
     * {@code type} is the component type. An lvalue when the vector is one ({@code v.x = 1}, {@code p[i].y += 2},
     * {@code p->z}): through a pointer only the component is read or written, as CUDA does.
     */
    record Component(Pos pos, CType type, Expr vector, int index) implements Expr {}

    /** {@code make_float4(a, b, c, d)} or a vector's aggregate initializer: one value per component, converted. */
    record MakeVector(Pos pos, CType type, List<Expr> components) implements Expr {}

    /**
     * Member {@code member} of an expression of {@link CType.Struct} type ({@code s.mass}, {@code p[i].pos},
     * {@code p->vel}); {@code type} is the member's. An lvalue when the struct is one: through a pointer only the
     * member is read or written.
     */
    record Field(Pos pos, CType type, Expr struct, CType.Struct.Member member) implements Expr {}

    /**
     * A struct's aggregate initializer: values whose scalar leaves, one after another, are the struct's leaves
     * (a member of struct or vector type may be one value of that type or its own leaves, an array member its
     * elements), each converted to its type.
     */
    record MakeStruct(Pos pos, CType type, List<Expr> parts) implements Expr {}

    /**
     * {@code T{a, b}}, {@code T{}} or {@code T()} before semantic analysis: a value of {@code type} list-initialized
     * from {@code items} (C++'s explicit type conversion in functional notation; {@code T()} is {@code T{}}, zero for
     * arithmetic and pointer types, every member zero for vectors and structs). An item that is itself a braced
     * list {@code {…}} is one of these with a null type. Becomes a conversion, {@link MakeVector} or
     * {@link MakeStruct}.
     */
    record BracedInit(Pos pos, CType type, List<Expr> items) implements Expr {}

    /** Subscript before semantic analysis ({@code base[index]}); becomes {@link Deref} of {@link PtrAdd}. */
    record Index(Pos pos, CType type, Expr base, Expr index) implements Expr {}

    /** Member access before semantic analysis ({@code threadIdx.x}); becomes {@link Builtin} or an error. */
    record Member(Pos pos, CType type, Expr object, String member) implements Expr {}

    /** Call before semantic analysis: callee name, optional explicit template arguments as written. */
    record CallByName(Pos pos, CType type, String name, List<TemplateArg> templateArgs, List<Expr> args)
            implements Expr {}

    /** A call of a {@code __device__} function (after template instantiation). */
    record Call(Pos pos, CType type, Function function, List<Expr> args) implements Expr {}

    /** A call of a built-in; see {@link Intrinsic} for the argument conventions. */
    record IntrinsicCall(Pos pos, CType type, Intrinsic intrinsic, List<Expr> args) implements Expr {}

    /** {@code a, b}: evaluates both, value of b. */
    record Comma(Pos pos, CType type, Expr left, Expr right) implements Expr {}

    /** {@code sizeof(type)} / {@code sizeof expr} before semantic analysis (folded to an IntConst after). */
    record SizeOf(Pos pos, CType type, CType ofType, Expr ofExpr) implements Expr {}

    /** A template argument as written: a type or a constant expression. */
    record TemplateArg(CType type, Expr value) {}
}
