package dev.polygpu.bench.async;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One benchmark DAG of the IPDPS 2021 paper, written as a grcuda program: its kernels, inputs (generated from
 * a fixed seed), the program that launches the kernels, and a plain-Java computation of the result to check
 * it against.
 *
 * <p>Every kernel is launched on {@code blocks} blocks (1 by default) that loop grid-stride over their share:
 * the CPU device spreads one launch's blocks over all its cores, so a kernel with many blocks would occupy
 * the whole machine and leave nothing for a concurrent kernel to use. Few blocks model the paper's setting, a
 * GPU that one kernel does not fill.
 */
abstract class DagCase {
    protected final boolean quick;
    protected final int blocks;

    DagCase(boolean quick, int blocks) {
        this.quick = quick;
        this.blocks = blocks;
    }

    /** The name in the table (VEC, B&amp;S, ML, HITS, IMG, DL). */
    abstract String name();

    /** The problem size, in words. */
    abstract String size();

    /**
     * The largest number of kernels that may run at once, counted by hand from the program (and checked
     * against the {@link DagModel} of a recorded run), under {@code with-const} or {@code no-const}.
     */
    abstract int width(boolean withConst);

    /** Whether kernels share read-only arrays, so that {@code with-const} changes the graph. */
    boolean sharesReadOnlyArrays() {
        return false;
    }

    /** Builds the kernels and device arrays in {@code s} and copies the inputs in. */
    abstract Program program(Session s);

    /**
     * Checks {@code results} (from {@link Program#results()}) against plain Java; returns a short summary
     * such as the largest error, or throws {@link AssertionError} when they disagree.
     */
    abstract String check(Map<String, Object> results);

    /** One instance of the DAG in one session. */
    abstract static class Program {
        protected final Session s;

        Program(Session s) {
            this.s = s;
        }

        /** Restores what a run overwrote and the next run reads (not timed). */
        void reset() {
        }

        /** Submits the whole DAG; the harness synchronizes after it and times both. */
        abstract void run();

        /** The output arrays, copied to Java arrays by name (after a run). */
        abstract Map<String, Object> results();

        /** Copies each of {@code arrays} to a Java array, keyed by the array's name. */
        protected Map<String, Object> copy(DevArray... arrays) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (DevArray a : arrays) {
                m.put(a.name(), s.read(a));
            }
            return m;
        }
    }

    /** A 32-bit LCG (the samples' generator): uniform numbers in [0, 1). */
    static final class Lcg {
        private long state;

        Lcg(long seed) {
            this.state = seed;
        }

        double next() {
            state = (state * 1664525L + 1013904223L) & 0xFFFFFFFFL;
            return state / 4294967296.0;
        }

        float[] floats(int n, double low, double high) {
            float[] a = new float[n];
            for (int i = 0; i < n; i++) {
                a[i] = (float) (low + (high - low) * next());
            }
            return a;
        }
    }

    /** Tracks the largest absolute and relative error of a comparison. */
    static final class Errors {
        private final String what;
        private final double tolerance;
        private double worst;
        private String where = "";

        Errors(String what, double relativeTolerance) {
            this.what = what;
            this.tolerance = relativeTolerance;
        }

        /** Records {@code actual} against {@code expected}, relative to {@code scale} (at least 1e-30). */
        void add(String at, double actual, double expected, double scale) {
            double e = Math.abs(actual - expected) / Math.max(scale, 1e-30);
            if (!(e <= worst)) {
                worst = Double.isNaN(e) ? Double.POSITIVE_INFINITY : e;
                where = at + ": " + actual + " vs " + expected;
            }
        }

        String verdict() {
            if (worst > tolerance) {
                throw new AssertionError(what + ": relative error " + worst + " > " + tolerance + " at " + where);
            }
            return String.format("%s max rel. error %.1e", what, worst);
        }
    }
}
