package dev.polygpu.bench.fuzz;

import dev.polygpu.device.cpu.oracle.OracleResult;

/**
 * Sorts the oracle's results: which are fine or explained (equal; a construct the PTX interpreter's documented
 * subset leaves out), which are findings, and for a finding a hint of where the bug lives, from the result and
 * the reduced kernel's source.
 */
final class Triage {
    /** What a result is, for the summary table. */
    enum Kind {
        EQUAL("equal", true),
        DIFFER("difference", false),
        OPTIMIZED_ONLY("difference from nvcc's optimized PTX only (its -G PTX agrees with the engine)", false),
        NVCC_INLINING("difference from nvcc's optimized PTX only, gone when its template functions are not inlined "
                + "(nvcc's shared stack slot, explained)", true),
        ENGINE_COMPILE("engine refused to compile", false),
        ENGINE_FAULT("engine faulted (PTX ran)", false),
        PTX_GAP("PTX interpreter lacks an instruction (explained)", true),
        ENGINE_LIMIT("kernel over the engine's documented size limit (explained)", true),
        PTX_FAULT("PTX side refused or faulted (engine ran)", false),
        BOTH_REJECTED("both sides refused (generator bug)", false),
        INTERNAL("internal error or hang", false);

        final String label;
        final boolean explained;

        Kind(String label, boolean explained) {
            this.label = label;
            this.explained = explained;
        }
    }

    /** A template function's {@code __device__}, where {@link #notInlined} adds {@code __noinline__}. */
    private static final java.util.regex.Pattern TEMPLATE_FUNCTION = java.util.regex.Pattern.compile(
            "(template\\s*<[^>]*>\\s*(?:static\\s+)?)__device__(?!\\s+__noinline__)");

    /** How the engine refuses a kernel whose code exceeds one JVM method (docs/fuzzing.md, "What it has found"). */
    private static final String TOO_LARGE = "is too large for the CPU device's kernel engine";

    private Triage() {
    }

    /**
     * The source with every template function marked {@code __noinline__}, or null if it has none. nvcc 13.0's
     * optimized PTX may give the local array of an inlined template function the stack slot of a kernel's local
     * array that is still live (docs/fuzzing.md, "What it has found"); a difference that nvcc's {@code -G} PTX
     * does not show and that goes away when those functions stay calls is filed as that bug.
     */
    static String notInlined(String source) {
        java.util.regex.Matcher m = TEMPLATE_FUNCTION.matcher(source);
        return m.find() ? m.replaceAll("$1__device__ __noinline__") : null;
    }

    static Kind kind(OracleResult r) {
        return switch (r) {
            case OracleResult.Equal e -> Kind.EQUAL;
            case OracleResult.Differ d -> Kind.DIFFER;
            case OracleResult.Internal i -> Kind.INTERNAL;
            case OracleResult.Rejected j -> {
                if (j.bothSides()) {
                    yield Kind.BOTH_REJECTED;
                }
                if (j.side() == OracleResult.Side.PTX) {
                    yield j.message().contains("is not supported by the CPU device's PTX interpreter") ? Kind.PTX_GAP
                            : Kind.PTX_FAULT;
                }
                if (j.message().contains(TOO_LARGE)) {
                    yield Kind.ENGINE_LIMIT;
                }
                yield j.message().contains("does not compile") ? Kind.ENGINE_COMPILE : Kind.ENGINE_FAULT;
            }
        };
    }

    /**
     * Where a finding most likely lives (a hint for routing, from the result and the reduced source): front
     * end, conversions, control flow with barriers, warp intrinsics, atomics, math, PTX interpreter, generator.
     */
    static String category(OracleResult r, String reducedSource) {
        return category(kind(r), r, reducedSource);
    }

    /** As {@link #category(OracleResult, String)} for a result whose kind a second opinion may have changed. */
    static String category(Kind k, OracleResult r, String reducedSource) {
        if (k == Kind.OPTIMIZED_ONLY || k == Kind.NVCC_INLINING) {
            return "nvcc optimizer";
        }
        if (k == Kind.BOTH_REJECTED) {
            return "generator";
        }
        if (k == Kind.PTX_FAULT || r instanceof OracleResult.Internal i && i.side() == OracleResult.Side.PTX) {
            return "PTX interpreter";
        }
        if (k == Kind.ENGINE_COMPILE) {
            return "front end";
        }
        if (r instanceof OracleResult.Differ d && d.buffer().startsWith("math_")) {
            return "math";
        }
        String s = reducedSource;
        if (s.contains("atomic")) {
            return "atomics";
        }
        if (s.matches("(?s).*__(shfl|ballot|any_sync|all_sync|activemask|syncwarp|reduce_).*")) {
            return "warp intrinsics";
        }
        if (s.contains("__syncthreads")) {
            return "control flow with barriers";
        }
        if (s.matches("(?s).*(_f2i_|\\(float\\)|\\(double\\)|static_cast<(float|double)>|__float_as|__int_as|"
                + "__double_as|__longlong_as|2float|2int|2double).*")) {
            return "conversions";
        }
        return "front end";
    }
}
