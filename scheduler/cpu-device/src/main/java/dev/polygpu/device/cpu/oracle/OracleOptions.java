package dev.polygpu.device.cpu.oracle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link DifferentialOracle}. Start from {@link #DEFAULTS} and change what is needed:
 * {@code OracleOptions.DEFAULTS.withCaseTimeout(Duration.ofSeconds(5)).withNans(NanComparison.ANY)}.
 *
 * @param arch the {@code -arch} nvcc compiles for ({@code sm_90}: a current GPU)
 * @param fmad whether nvcc may contract {@code a * b + c} into an fma ({@code -fmad=true}); false by default,
 *        because the CUDA C engine never contracts, so the two sides round alike
 * @param caseTimeout how long one case may take on one side (compiling and running its kernel) before it is
 *        reported as hung; the two sides run at the same time
 * @param nans how NaN elements of floating-point buffers compare
 * @param concurrentBlocks the worker threads of the CPU device both sides run on
 * @param maxBatch the most cases compiled in one nvcc run
 * @param nvcc the nvcc to run; null to look for it as {@link DifferentialOracle#unavailableReason()} does
 * @param optimized whether nvcc optimizes (its default); false compiles with {@code -G}, a second opinion for a
 *        difference that nvcc's optimizer may have caused (a miscompile, or undefined behaviour it exploits)
 */
public record OracleOptions(String arch, boolean fmad, Duration caseTimeout, NanComparison nans,
        int concurrentBlocks, int maxBatch, Path nvcc, boolean optimized) {
    /**
     * {@code sm_90}, no contraction, 30 s per case, NaN bits compared, 2 workers, 256 cases per nvcc run,
     * optimized.
     */
    public static final OracleOptions DEFAULTS = new OracleOptions("sm_90", false, Duration.ofSeconds(30),
            NanComparison.BITS, 2, 256, null, true);

    /** How the oracle compares a NaN element of one side with a NaN element of the other. */
    public enum NanComparison {
        /**
         * Bit for bit, sign and payload included: a GPU's single-precision operations give the one canonical
         * NaN {@code 0x7fffffff}, so a side that gives another NaN (Java's {@code 0x7fc00000}) is reported.
         */
        BITS,
        /** Any NaN equals any NaN, whatever its sign and payload. */
        ANY
    }

    public OracleOptions {
        Objects.requireNonNull(arch, "arch");
        Objects.requireNonNull(caseTimeout, "caseTimeout");
        Objects.requireNonNull(nans, "nans");
        if (!arch.matches("(sm|compute)_\\d+[a-z]?")) {
            throw new IllegalArgumentException("arch must look like sm_90 or compute_90, got '" + arch + "'");
        }
        if (caseTimeout.isNegative() || caseTimeout.isZero()) {
            throw new IllegalArgumentException("caseTimeout must be positive, got " + caseTimeout);
        }
        if (concurrentBlocks < 1) {
            throw new IllegalArgumentException("concurrentBlocks must be positive, got " + concurrentBlocks);
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be positive, got " + maxBatch);
        }
    }

    public OracleOptions withArch(String value) {
        return new OracleOptions(value, fmad, caseTimeout, nans, concurrentBlocks, maxBatch, nvcc, optimized);
    }

    public OracleOptions withFmad(boolean value) {
        return new OracleOptions(arch, value, caseTimeout, nans, concurrentBlocks, maxBatch, nvcc, optimized);
    }

    public OracleOptions withCaseTimeout(Duration value) {
        return new OracleOptions(arch, fmad, value, nans, concurrentBlocks, maxBatch, nvcc, optimized);
    }

    public OracleOptions withNans(NanComparison value) {
        return new OracleOptions(arch, fmad, caseTimeout, value, concurrentBlocks, maxBatch, nvcc, optimized);
    }

    public OracleOptions withConcurrentBlocks(int value) {
        return new OracleOptions(arch, fmad, caseTimeout, nans, value, maxBatch, nvcc, optimized);
    }

    public OracleOptions withMaxBatch(int value) {
        return new OracleOptions(arch, fmad, caseTimeout, nans, concurrentBlocks, value, nvcc, optimized);
    }

    public OracleOptions withNvcc(Path value) {
        return new OracleOptions(arch, fmad, caseTimeout, nans, concurrentBlocks, maxBatch, value, optimized);
    }

    public OracleOptions withOptimized(boolean value) {
        return new OracleOptions(arch, fmad, caseTimeout, nans, concurrentBlocks, maxBatch, nvcc, value);
    }
}
