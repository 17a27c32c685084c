package com.nvidia.grcuda.test.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import org.graalvm.polyglot.Context;

/**
 * polygpu's stand-in for the context factory of GrCUDA's test suite, so that its polyglot-only test classes
 * compile unchanged: contexts of polygpu's {@code grcuda} language with the same {@code grcuda.*} options, and
 * the option combinations its parametrized tests iterate over.
 */
public final class GrCUDATestUtil {
    private GrCUDATestUtil() {
    }

    /**
     * Every combination taking one element of each set, the first set varying fastest: element {@code i} takes
     * {@code set[(i / w) % set.length]}, {@code w} being the product of the sizes of the sets before it.
     */
    public static Collection<Object[]> crossProduct(List<Object[]> sets) {
        int total = 1;
        for (Object[] set : sets) {
            total *= set.length;
        }
        List<Object[]> out = new ArrayList<>(total);
        for (int i = 0; i < total; i++) {
            Object[] row = new Object[sets.size()];
            int weight = 1;
            for (int k = 0; k < sets.size(); k++) {
                Object[] set = sets.get(k);
                row[k] = set[(i / weight) % set.length];
                weight *= set.length;
            }
            out.add(row);
        }
        return out;
    }

    /**
     * The scheduler option combinations for one device: the synchronous policy once per prefetch, stream
     * attachment and timer setting (its stream and dependency options are unused), the asynchronous one with
     * every stream and dependency policy. Each element is a one-element array holding a
     * {@link GrCUDATestOptionsStruct}, as JUnit's parametrized runner wants.
     */
    public static Collection<Object[]> getAllOptionCombinationsSingleGPU() {
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : crossProduct(Arrays.asList(new Object[][] {
                {"sync", "async"}, {true, false}, {"reuse", "always-new"}, {"same-as-parent", "disjoint"},
                {"no-const", "with-const"}, {"single-gpu"}, {true, false}, {true, false}, {1}}))) {
            GrCUDATestOptionsStruct o = struct(r);
            boolean syncDuplicate = o.policy.equals("sync") && (o.retrieveNewStreamPolicy.equals("always-new")
                    || o.retrieveParentStreamPolicy.equals("disjoint") || o.dependencyPolicy.equals("with-const"));
            if (!syncDuplicate) {
                out.add(new Object[] {o});
            }
        }
        return out;
    }

    /** The asynchronous option combinations for 2, 4 and 8 devices under every device selection policy. */
    public static Collection<Object[]> getAllOptionCombinationsMultiGPU() {
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : crossProduct(Arrays.asList(new Object[][] {
                {"async"}, {true, false}, {"reuse", "always-new"},
                {"same-as-parent", "disjoint", "multigpu-early-disjoint", "multigpu-disjoint"},
                {"with-const", "no-const"},
                {"single-gpu", "stream-aware", "round-robin", "min-transfer-size", "minmin-transfer-time",
                        "minmax-transfer-time"},
                {false, true}, {true, false}, {2, 4, 8}}))) {
            out.add(new Object[] {struct(r)});
        }
        return out;
    }

    private static GrCUDATestOptionsStruct struct(Object[] r) {
        return new GrCUDATestOptionsStruct((String) r[0], (boolean) r[1], (String) r[2], (String) r[3],
                (String) r[4], (String) r[5], (boolean) r[6], (boolean) r[7], (int) r[8]);
    }

    /** A context with the combination's options and {@code numberOfGPUs} devices. */
    public static Context createContextFromOptions(GrCUDATestOptionsStruct options, int numberOfGPUs) {
        return buildTestContext()
                .option("grcuda.ExecutionPolicy", options.policy)
                .option("grcuda.InputPrefetch", String.valueOf(options.inputPrefetch))
                .option("grcuda.RetrieveNewStreamPolicy", options.retrieveNewStreamPolicy)
                .option("grcuda.RetrieveParentStreamPolicy", options.retrieveParentStreamPolicy)
                .option("grcuda.DependencyPolicy", options.dependencyPolicy)
                .option("grcuda.DeviceSelectionPolicy", options.deviceSelectionPolicy)
                .option("grcuda.ForceStreamAttach", String.valueOf(options.forceStreamAttach))
                .option("grcuda.EnableComputationTimers", String.valueOf(options.timeComputation))
                .option("grcuda.NumberOfGPUs", String.valueOf(numberOfGPUs))
                .build();
    }

    /** A context with the combination's options and its own number of devices. */
    public static Context createContextFromOptions(GrCUDATestOptionsStruct options) {
        return createContextFromOptions(options, options.numberOfGPUs);
    }

    /** A context builder with all host access and experimental options allowed, as the tests expect. */
    public static Context.Builder buildTestContext() {
        return Context.newBuilder().allowAllAccess(true).allowExperimentalOptions(true);
    }
}
