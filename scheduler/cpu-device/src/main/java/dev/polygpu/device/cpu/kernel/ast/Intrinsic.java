package dev.polygpu.device.cpu.kernel.ast;

/**
 * The built-in functions of CUDA C that the kernel engine implements. Semantic analysis resolves a call by
 * name to one of these and converts the arguments to the variant's parameter types (for the math functions,
 * {@code float} or {@code double} by the argument as C++ overloading does; {@code sqrtf} is always float);
 * the result type of the {@link Expr.IntrinsicCall} tells the code generator which variant to emit.
 */
public enum Intrinsic {
    // Block- and warp-level synchronization. The sync ones are yield points of the block scheduler.
    SYNCTHREADS("__syncthreads"),
    SYNCTHREADS_COUNT("__syncthreads_count"),
    SYNCTHREADS_AND("__syncthreads_and"),
    SYNCTHREADS_OR("__syncthreads_or"),
    SYNCWARP("__syncwarp"),
    /**
     * Not callable: the step boundary semantic analysis puts before and after each statement that uses a
     * {@code volatile} pointer or array ({@link Var#volatileAccess}). The lanes of a warp that reach it together
     * go on together, whatever their mask, so warp-synchronous code sees the lock step it was written for.
     */
    WARP_STEP("a warp step at a volatile access"),
    /**
     * Not callable: the point at the end of a loop's body where the code generator makes the lanes of a warp
     * that go round the loop again wait for the lanes still inside this iteration, as a GPU's warp reconverges
     * there before it branches back (see {@code codegen.Reconvergence}).
     */
    WARP_RECONVERGE("the end of a loop iteration"),
    THREADFENCE("__threadfence"),
    THREADFENCE_BLOCK("__threadfence_block"),
    THREADFENCE_SYSTEM("__threadfence_system"),

    // Warp intrinsics (32 lanes): (mask, value, lane|delta|laneMask[, width]); votes: (mask, predicate).
    SHFL("__shfl_sync"),
    SHFL_UP("__shfl_up_sync"),
    SHFL_DOWN("__shfl_down_sync"),
    SHFL_XOR("__shfl_xor_sync"),
    BALLOT("__ballot_sync"),
    ANY("__any_sync"),
    ALL("__all_sync"),
    /**
     * {@code __activemask()}: the lanes of the warp that reach the call together (a yield point with no mask of
     * its own, served like {@link #WARP_STEP}), so inside a branch it names the lanes that took the branch.
     */
    ACTIVEMASK("__activemask"),
    /**
     * Warp reductions (sm_80 and later): (mask, value), every lane of the mask gets the sum (wrapping), minimum or
     * maximum (int or unsigned, by the call's type) or the bitwise and, or, xor (unsigned) of their values.
     */
    REDUCE_ADD("__reduce_add_sync"),
    REDUCE_MIN("__reduce_min_sync"),
    REDUCE_MAX("__reduce_max_sync"),
    REDUCE_AND("__reduce_and_sync"),
    REDUCE_OR("__reduce_or_sync"),
    REDUCE_XOR("__reduce_xor_sync"),

    /**
     * {@code __nanosleep(ns)}: the calling thread waits about {@code ns} nanoseconds (at most 1 ms per call, as
     * on a GPU). Not a yield point: the threads of a block sleep side by side on one clock (see
     * {@code exec.SleepClock}).
     */
    NANOSLEEP("__nanosleep"),
    CLOCK64("clock64"),

    /**
     * {@code printf(format, args...)}: the first argument is the format ({@link Expr.StrConst}), the others are
     * promoted as C's default argument promotions do and checked against it; the result is their count.
     */
    PRINTF("printf"),
    /**
     * {@code assert(cond)}: (int test, {@link Expr.StrConst} expression text, file, {@link Expr.IntConst} line,
     * function); a false test prints CUDA's message and fails the launch with cudaErrorAssert.
     */
    ASSERT("assert"),
    /** {@code __trap()}: fails the launch (cudaErrorLaunchFailure), as a GPU's trap does. */
    TRAP("__trap"),

    // Bit manipulation.
    POPC("__popc"),
    POPCLL("__popcll"),
    FFS("__ffs"),
    FFSLL("__ffsll"),
    CLZ("__clz"),
    CLZLL("__clzll"),
    BREV("__brev"),
    BREVLL("__brevll"),

    // Integer intrinsics with fixed parameter and result types (rt.IntegerIntrinsics).
    MULHI("__mulhi"), UMULHI("__umulhi"), MUL64HI("__mul64hi"), UMUL64HI("__umul64hi"),
    MUL24("__mul24"), UMUL24("__umul24"), BYTE_PERM("__byte_perm"),
    FUNNELSHIFT_L("__funnelshift_l"), FUNNELSHIFT_LC("__funnelshift_lc"),
    FUNNELSHIFT_R("__funnelshift_r"), FUNNELSHIFT_RC("__funnelshift_rc"),
    SAD("__sad"), USAD("__usad"), RHADD("__rhadd"), UHADD("__uhadd"), URHADD("__urhadd"),
    /** {@code __dp4a}, {@code __dp2a_lo}, {@code __dp2a_hi} of ints; the U variants are the unsigned overloads. */
    DP4A("__dp4a"), UDP4A("__dp4a"), DP2A_LO("__dp2a_lo"), UDP2A_LO("__dp2a_lo"), DP2A_HI("__dp2a_hi"),
    UDP2A_HI("__dp2a_hi"),

    // Atomics: (pointer, value) except CAS (pointer, compare, value) and INC/DEC (pointer, limit). Return old.
    ATOMIC_ADD("atomicAdd"),
    ATOMIC_SUB("atomicSub"),
    ATOMIC_EXCH("atomicExch"),
    ATOMIC_MIN("atomicMin"),
    ATOMIC_MAX("atomicMax"),
    ATOMIC_INC("atomicInc"),
    ATOMIC_DEC("atomicDec"),
    ATOMIC_CAS("atomicCAS"),
    ATOMIC_AND("atomicAnd"),
    ATOMIC_OR("atomicOr"),
    ATOMIC_XOR("atomicXor"),

    // Math, one entry per operation; float or double variant by the call's type.
    SQRT("sqrt"), RSQRT("rsqrt"), CBRT("cbrt"),
    EXP("exp"), EXP2("exp2"), EXP10("exp10"), EXPM1("expm1"),
    LOG("log"), LOG2("log2"), LOG10("log10"), LOG1P("log1p"),
    SIN("sin"), COS("cos"), TAN("tan"), ASIN("asin"), ACOS("acos"), ATAN("atan"),
    SINH("sinh"), COSH("cosh"), TANH("tanh"), ASINH("asinh"), ACOSH("acosh"), ATANH("atanh"),
    SINPI("sinpi"), COSPI("cospi"),
    ERF("erf"), ERFC("erfc"), ERFINV("erfinv"), ERFCINV("erfcinv"), NORMCDF("normcdf"), NORMCDFINV("normcdfinv"),
    LGAMMA("lgamma"), TGAMMA("tgamma"), RCBRT("rcbrt"), LOGB("logb"),
    FABS("fabs"), FLOOR("floor"), CEIL("ceil"), ROUND("round"), TRUNC("trunc"), RINT("rint"),
    POW("pow"), ATAN2("atan2"), FMOD("fmod"), HYPOT("hypot"), COPYSIGN("copysign"),
    FMIN("fmin"), FMAX("fmax"), FMA("fma"),
    REMAINDER("remainder"), FDIM("fdim"), RHYPOT("rhypot"), NORM3D("norm3d"), RNORM3D("rnorm3d"),
    NORM4D("norm4d"), RNORM4D("rnorm4d"), NEXTAFTER("nextafter"), ERFCX("erfcx"),
    J0("j0"), J1("j1"), Y0("y0"), Y1("y1"), CYL_BESSEL_I0("cyl_bessel_i0"), CYL_BESSEL_I1("cyl_bessel_i1"),
    /** {@code jn(n, x)}, {@code yn(n, x)}: an int order, then the floating argument. */
    JN("jn"), YN("yn"),
    /**
     * The arithmetic with a directed rounding mode, named OPERATION_MODE ({@code __fadd_rz}/{@code __dadd_rz} is
     * {@link #ADD_RZ}, {@code __fmaf_ru}/{@code __fma_ru} {@link #FMA_RU}): {@code rt.DirectedRounding}.
     */
    ADD_RZ("__fadd_rz"), ADD_RU("__fadd_ru"), ADD_RD("__fadd_rd"),
    SUB_RZ("__fsub_rz"), SUB_RU("__fsub_ru"), SUB_RD("__fsub_rd"),
    MUL_RZ("__fmul_rz"), MUL_RU("__fmul_ru"), MUL_RD("__fmul_rd"),
    DIV_RZ("__fdiv_rz"), DIV_RU("__fdiv_ru"), DIV_RD("__fdiv_rd"),
    FMA_RZ("__fmaf_rz"), FMA_RU("__fmaf_ru"), FMA_RD("__fmaf_rd"),
    SQRT_RZ("__fsqrt_rz"), SQRT_RU("__fsqrt_ru"), SQRT_RD("__fsqrt_rd"),
    RCP_RZ("__frcp_rz"), RCP_RU("__frcp_ru"), RCP_RD("__frcp_rd"),
    /**
     * {@code norm(dim, p)}, {@code rnorm(dim, p)}: an int count and a pointer to that many elements of the
     * variant's type, which the generated code bounds-checks before the call.
     */
    NORM("norm"), RNORM("rnorm"),
    /** The int that {@code remquo(x, y, &q)} stores (its result is {@link #REMAINDER}). */
    REMQUO_QUOTIENT("the quotient of remquo"),
    /** {@code scalbln(x, n)}: a floating and a long argument. */
    SCALBLN("scalbln"),
    /** {@code lrint}, {@code llrint}, {@code lround}, {@code llround}: a long (long long) result. */
    LRINT("lrint"), LROUND("lround"),
    /** {@code modf}'s result, the fractional part (semantic analysis stores {@code trunc(x)} through the pointer). */
    MODF("modf"),
    /** {@code ldexp(x, n)}, {@code scalbn(x, n)}: a floating and an int argument. */
    LDEXP("ldexp"), SCALBN("scalbn"),
    /** {@code ilogb(x)}: an int result. */
    ILOGB("ilogb"),
    /** {@code frexp}'s result, the mantissa; FREXP_EXP is the int exponent it stores through its pointer. */
    FREXP("frexp"), FREXP_EXP("the exponent of frexp"),
    /** Integer or floating: the usual arithmetic conversions pick the variant, as CUDA's overloads do. */
    MIN("min"),
    MAX("max"),
    ABS("abs"),
    /** {@code __saturatef}: clamp to [0, 1]. */
    SATURATE("__saturatef"),
    /** {@code __fdividef(x, y)}, {@code fdividef}: x / y in float. */
    FDIVIDE("__fdividef"),
    /** {@code isnan}, {@code isinf}, {@code isfinite}, {@code signbit}: int results. */
    ISNAN("isnan"), ISINF("isinf"), ISFINITE("isfinite"), SIGNBIT("signbit");

    /** The canonical CUDA name (variants such as {@code sqrtf}, {@code __expf} map here too). */
    public final String cudaName;

    Intrinsic(String cudaName) {
        this.cudaName = cudaName;
    }

    /** True for the intrinsics at which a thread must wait for others of its block or warp. */
    public boolean isYieldPoint() {
        return switch (this) {
            case SYNCTHREADS, SYNCTHREADS_COUNT, SYNCTHREADS_AND, SYNCTHREADS_OR, SYNCWARP, WARP_STEP,
                 WARP_RECONVERGE, SHFL, SHFL_UP, SHFL_DOWN, SHFL_XOR, BALLOT, ANY, ALL, ACTIVEMASK,
                 REDUCE_ADD, REDUCE_MIN, REDUCE_MAX, REDUCE_AND, REDUCE_OR, REDUCE_XOR -> true;
            default -> false;
        };
    }

    /** True for {@link #ADD_RZ} and the others with a directed rounding mode. */
    public boolean isDirectedRounding() {
        return switch (this) {
            case ADD_RZ, ADD_RU, ADD_RD, SUB_RZ, SUB_RU, SUB_RD, MUL_RZ, MUL_RU, MUL_RD, DIV_RZ, DIV_RU, DIV_RD,
                 FMA_RZ, FMA_RU, FMA_RD, SQRT_RZ, SQRT_RU, SQRT_RD, RCP_RZ, RCP_RU, RCP_RD -> true;
            default -> false;
        };
    }

    /** True for the block-wide barriers (the others among {@link #isYieldPoint()} are warp-wide). */
    public boolean isBlockBarrier() {
        return switch (this) {
            case SYNCTHREADS, SYNCTHREADS_COUNT, SYNCTHREADS_AND, SYNCTHREADS_OR -> true;
            default -> false;
        };
    }
}
