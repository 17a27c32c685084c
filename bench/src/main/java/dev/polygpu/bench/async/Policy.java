package dev.polygpu.bench.async;

/**
 * The two scheduling options a benchmark session runs with: {@code grcuda.ExecutionPolicy} ({@code sync} or
 * {@code async}) and {@code grcuda.DependencyPolicy} ({@code no-const} or {@code with-const}).
 */
record Policy(String execution, String dependency) {
    static final Policy SYNC = new Policy("sync", "no-const");
    static final Policy ASYNC = new Policy("async", "no-const");
    static final Policy ASYNC_WITH_CONST = new Policy("async", "with-const");

    boolean withConst() {
        return dependency.equals("with-const");
    }

    @Override
    public String toString() {
        return execution + "/" + dependency;
    }
}
