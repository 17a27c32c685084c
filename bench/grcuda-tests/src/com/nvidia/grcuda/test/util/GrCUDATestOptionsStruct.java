package com.nvidia.grcuda.test.util;

/**
 * polygpu's stand-in for the options record of GrCUDA's test suite: one combination of the {@code grcuda.*}
 * scheduler options a parametrized test runs under. The policies are held as the option values that polygpu and
 * GrCUDA accept (e.g. {@code "async"}, {@code "always-new"}: what GrCUDA's enums print) rather than as GrCUDA's
 * internal enum types, which the tests only pass back to {@link GrCUDATestUtil#createContextFromOptions}.
 */
public class GrCUDATestOptionsStruct {
    public final String policy;
    public final boolean inputPrefetch;
    public final String retrieveNewStreamPolicy;
    public final String retrieveParentStreamPolicy;
    public final String dependencyPolicy;
    public final String deviceSelectionPolicy;
    public final boolean forceStreamAttach;
    public final boolean timeComputation;
    public final int numberOfGPUs;

    /** One combination; the arguments are the values of the {@code grcuda.*} options of the same names. */
    public GrCUDATestOptionsStruct(String policy, boolean inputPrefetch, String retrieveNewStreamPolicy,
            String retrieveParentStreamPolicy, String dependencyPolicy, String deviceSelectionPolicy,
            boolean forceStreamAttach, boolean timeComputation, int numberOfGPUs) {
        this.policy = policy;
        this.inputPrefetch = inputPrefetch;
        this.retrieveNewStreamPolicy = retrieveNewStreamPolicy;
        this.retrieveParentStreamPolicy = retrieveParentStreamPolicy;
        this.dependencyPolicy = dependencyPolicy;
        this.deviceSelectionPolicy = deviceSelectionPolicy;
        this.forceStreamAttach = forceStreamAttach;
        this.timeComputation = timeComputation;
        this.numberOfGPUs = numberOfGPUs;
    }

    /** The combination as JUnit's parametrized runner names it in a test's title. */
    @Override
    public String toString() {
        return "policy=" + policy + ", prefetch=" + inputPrefetch + ", new-stream=" + retrieveNewStreamPolicy
                + ", parent-stream=" + retrieveParentStreamPolicy + ", dependency=" + dependencyPolicy
                + ", device-selection=" + deviceSelectionPolicy + ", force-attach=" + forceStreamAttach
                + ", timers=" + timeComputation + ", gpus=" + numberOfGPUs;
    }
}
