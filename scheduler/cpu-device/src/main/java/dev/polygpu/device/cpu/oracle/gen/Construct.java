package dev.polygpu.device.cpu.oracle.gen;

import java.util.Locale;

/**
 * Everything the generator can put into a kernel, each with a default weight (0: off in the default profile)
 * and a note on why a construct is off by default. A {@link Profile} sets the weights; {@link Coverage} counts
 * how often each one was emitted.
 */
public enum Construct {
    // Scalar types a value may have.
    TYPE_BOOL(Group.TYPES, 2, "bool values and variables"),
    TYPE_8(Group.TYPES, 3, "char, signed char, unsigned char"),
    TYPE_16(Group.TYPES, 3, "short, unsigned short"),
    TYPE_32(Group.TYPES, 10, "int, unsigned int"),
    TYPE_64(Group.TYPES, 5, "long, unsigned long, long long, unsigned long long"),
    TYPE_FLOAT(Group.TYPES, 5, "float"),
    TYPE_DOUBLE(Group.TYPES, 3, "double"),
    TYPE_HALF(Group.TYPES, 2, "__half values and arithmetic"),
    // Expressions.
    INT_ARITH(Group.EXPRESSIONS, 10, "integer + - * (plain where it cannot overflow, else a checked helper)"),
    DIV_MOD(Group.EXPRESSIONS, 4, "integer / and % with the divisor made safe"),
    SHIFT(Group.EXPRESSIONS, 4, "<< and >> with the count masked to the width"),
    BITWISE(Group.EXPRESSIONS, 6, "& | ^ ~"),
    COMPARE(Group.EXPRESSIONS, 5, "< <= > >= == != between any arithmetic types"),
    LOGICAL(Group.EXPRESSIONS, 3, "&& || !"),
    NEGATE(Group.EXPRESSIONS, 2, "unary minus"),
    TERNARY(Group.EXPRESSIONS, 4, "c ? a : b with the usual arithmetic conversions"),
    COMMA(Group.EXPRESSIONS, 1, "the comma operator"),
    CAST(Group.EXPRESSIONS, 6, "C casts and static_cast between arithmetic types"),
    FUNCTIONAL_CAST(Group.EXPRESSIONS, 1, "T(x) casts"),
    VALUE_INIT(Group.EXPRESSIONS, 1, "T{}, ((T())) and T v{} value-initialization"),
    FLOAT_TO_INT(Group.EXPRESSIONS, 4, "floating to integer conversions, clamped into range first"),
    LITERAL_FORMS(Group.EXPRESSIONS, 3, "hex, octal, character, unsuffixed wide and hex-float literals"),
    FLOAT_ARITH(Group.EXPRESSIONS, 8, "floating + - * / (IEEE, exact)"),
    EXACT_MATH(Group.EXPRESSIONS, 4, "sqrt, fma, fabs, floor, ceil, trunc, rint, round, fmin, fmax, fmod, ... (0 ulp)"),
    ROUNDED_INTRINSICS(Group.EXPRESSIONS, 2, "__fadd_rn, __fmul_rn, __fdiv_rn, __frcp_rn, __dadd_rn, __float2int_rn, ..."),
    DIRECTED_ROUNDING(Group.EXPRESSIONS, 2, "__fadd_rz, __fmul_ru, __fmaf_rd, __dadd_rz, __dsub_rd, ..."),
    MATH_FUNCTIONS(Group.EXPRESSIONS, 3, "sinf, expf, log, pow, ... into buffers compared within CUDA's ulp bound"),
    INT_INTRINSICS(Group.EXPRESSIONS, 3, "__popc, __clz, __brev, __mul24, min, max, abs, ..."),
    EXTRA_INT_INTRINSICS(Group.EXPRESSIONS, 2, "__ffs, __umulhi, __mulhi, __umul64hi, __brevll, __byte_perm, __sad, "
            + "__usad, __funnelshift_l, __rhadd"),
    BIT_CAST(Group.EXPRESSIONS, 2, "__float_as_int, __int_as_float, __double_as_longlong, __longlong_as_double"),
    MACRO(Group.EXPRESSIONS, 2, "#define constants and function-like macros"),
    // Memory.
    INPUT_READ(Group.MEMORY, 8, "reads of read-only input buffers at masked indices"),
    VECTOR_LOAD(Group.MEMORY, 2, "whole-vector loads from input buffers (reinterpret_cast<const int4*>)"),
    LOCAL_ARRAY(Group.MEMORY, 4, "local arrays with initializers, read and written at masked indices"),
    LOCAL_POINTER(Group.MEMORY, 2, "pointers into local arrays"),
    GLOBAL_POINTER(Group.MEMORY, 2, "pointers into the thread's own slots of a global buffer, and into inputs"),
    SCRATCH(Group.MEMORY, 3, "the thread's own slots of a global buffer written and read back"),
    SHARED_EXCHANGE(Group.MEMORY, 4, "shared memory: own slot written, __syncthreads, another thread's slot read"),
    SHARED_OWN(Group.MEMORY, 2, "a thread's own shared slot read and written, also through a pointer"),
    DYNAMIC_SHARED(Group.MEMORY, 1, "extern __shared__ arrays sized by the launch"),
    CONSTANT_MEMORY(Group.MEMORY, 2, "__constant__ tables read at masked indices"),
    DEVICE_VARIABLE(Group.MEMORY, 1, "__device__ arrays, each thread its own slot"),
    STRUCT(Group.MEMORY, 3, "structs: locals, aggregate initializers, members, copies, parameters"),
    STRUCT_ARRAY_POINTER(Group.MEMORY, 1, "arrays of structs and pointers to structs (->)"),
    VECTOR_TYPES(Group.MEMORY, 3, "int2, float4, uchar4, ...: make_T, components, copies"),
    // Control flow.
    IF(Group.CONTROL, 8, "if and if/else"),
    SWITCH(Group.CONTROL, 2, "switch with fall-through, default and break"),
    FOR(Group.CONTROL, 4, "for loops"),
    FOR_MULTI_DECL(Group.CONTROL, 2, "for loops with several declarators and comma updates"),
    FOR_MULTI_DECL_BARRIER(Group.CONTROL, 1, "for loops with several declarators and a barrier in the body"),
    WHILE(Group.CONTROL, 2, "while loops"),
    DO_WHILE(Group.CONTROL, 2, "do/while loops"),
    BREAK(Group.CONTROL, 3, "break out of loops and switches"),
    CONTINUE(Group.CONTROL, 2, "continue"),
    NESTED_LOOP(Group.CONTROL, 2, "loops inside loops"),
    BLOCK_SCOPE(Group.CONTROL, 1, "nested { } scopes"),
    BARRIER(Group.CONTROL, 2, "__syncthreads in uniform control flow, in loops and branches too"),
    STRIDED_LOOP(Group.CONTROL, 2, "grid-stride and block-stride loops (for, while; up and down) stepping by a "
            + "block-uniform amount, between barriers too"),
    // Functions.
    DEVICE_FUNCTION(Group.FUNCTIONS, 4, "__device__ functions with scalar, struct, vector and pointer parameters"),
    OVERLOAD(Group.FUNCTIONS, 1, "overloaded __device__ functions"),
    TEMPLATE_TYPE(Group.FUNCTIONS, 2, "function templates over a type, explicit and deduced"),
    TEMPLATE_INT(Group.FUNCTIONS, 1, "function templates over an int"),
    NESTED_SAME_CALL(Group.FUNCTIONS, 1, "a call inside the arguments of a call of the same function, directly or "
            + "through another function"),
    // Warps and blocks.
    SHFL(Group.WARP, 2, "__shfl_sync"),
    SHFL_UP(Group.WARP, 1, "__shfl_up_sync"),
    SHFL_DOWN(Group.WARP, 1, "__shfl_down_sync"),
    SHFL_XOR(Group.WARP, 1, "__shfl_xor_sync"),
    WIDE_LANE_ARGS(Group.WARP, 2, "shuffle lanes, deltas and lane masks outside 0..31 (PTX's shfl takes their low "
            + "5 bits)"),
    BALLOT(Group.WARP, 1, "__ballot_sync"),
    VOTE(Group.WARP, 1, "__all_sync, __any_sync"),
    ACTIVEMASK(Group.WARP, 1, "__activemask right after a __syncwarp, where the warp is converged"),
    WARP_BRANCH(Group.WARP, 2, "branches on warp-uniform conditions holding warp intrinsics"),
    SYNCWARP_EXCHANGE(Group.WARP, 1, "shared memory exchanged within a warp across __syncwarp"),
    VOLATILE_SHARED(Group.WARP, 1, "volatile shared memory in divergent branches"),
    REDUCE_SYNC(Group.WARP, 1, "__reduce_add/min/max_sync (int, unsigned), __reduce_and/or/xor_sync"),
    SYNCTHREADS_COUNT(Group.WARP, 1, "__syncthreads_count/_and/_or"),
    COLLECTIVE_IN_CONDITIONAL(Group.WARP, 2,
            "warp intrinsics and barriers inside operands of &&, || and ?: and in loop conditions, where what "
            + "decides their evaluation is uniform enough"),
    // Atomics.
    ATOMIC_GLOBAL(Group.ATOMICS, 3, "atomicAdd/Or/And/Xor/Min/Max on global memory, one operation per slot"),
    ATOMIC_SHARED(Group.ATOMICS, 2, "shared accumulators updated atomically and read after a barrier"),
    ATOMIC_FLOAT_EXACT(Group.ATOMICS, 1, "float atomicAdd of small integers (exact, so order-independent)"),
    ATOMIC_CAS(Group.ATOMICS, 1, "atomicCAS with one compare/value pair per slot (order-independent)"),
    // Other.
    PRINTF(Group.OTHER, 1, "printf from one thread, its return value hashed"),
    LAUNCH_2D(Group.OTHER, 2, "two- and three-dimensional blocks and grids");

    /**
     * The constructs that put warp-level collectives (or block collectives inside expressions) into a kernel; a
     * kernel without them has only plain block barriers.
     */
    static final java.util.Set<Construct> WARP_COLLECTIVES = java.util.EnumSet.of(SHFL, SHFL_UP, SHFL_DOWN, SHFL_XOR,
            WIDE_LANE_ARGS, BALLOT, VOTE, ACTIVEMASK, WARP_BRANCH, SYNCWARP_EXCHANGE, VOLATILE_SHARED, REDUCE_SYNC,
            SYNCTHREADS_COUNT, COLLECTIVE_IN_CONDITIONAL);

    /** Groups for the coverage table. */
    public enum Group {
        TYPES, EXPRESSIONS, MEMORY, CONTROL, FUNCTIONS, WARP, ATOMICS, OTHER
    }

    public final Group group;
    public final int defaultWeight;
    public final String description;

    Construct(Group group, int defaultWeight, String description) {
        this.group = group;
        this.defaultWeight = defaultWeight;
        this.description = description;
    }

    /** The name on the command line: lower case with dashes ({@code for-multi-decl}). */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The construct named {@code s} on a command line (dashes or underscores, any case); null if none. */
    public static Construct byFlagName(String s) {
        String n = s.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (Construct c : values()) {
            if (c.name().equals(n)) {
                return c;
            }
        }
        return null;
    }
}
