package dev.polygpu.cluster.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A DAG of tasks for the simulator, held as flat arrays so that millions of tasks fit in little memory: each
 * task has an owner (the member that submits it and keeps its data: the only member where its children can
 * become ready), a kernel (for the cost model), a duration on one slot of a device, the arrays it reads
 * (shared between tasks: a reply carries an array once, however many of its tasks read it), the bytes it
 * writes (sent home when it ran elsewhere) and its parents.
 *
 * <p>Tasks are numbered 0 … {@code tasks() - 1} in submission order, and every parent comes before its child
 * (the builder enforces it), so the DAG has no cycle. Immutable once built; built by {@link Builder}.
 */
public final class Workload {
    private final String name;
    private final String[] kernelNames;
    private final long[] arrayBytes;
    private final int[] owner;
    private final int[] kernel;
    private final long[] durationNanos;
    private final long[] outputBytes;
    private final int[] inputStart;
    private final int[] inputs;
    private final int[] parentCount;
    private final int[] childStart;
    private final int[] children;
    private final long totalWorkNanos;
    private final long criticalPathNanos;
    private final int owners;

    private Workload(Builder b) {
        int n = b.tasks;
        this.name = b.name;
        this.kernelNames = b.kernelNames.toArray(String[]::new);
        this.arrayBytes = Arrays.copyOf(b.arrayBytes, b.arrays);
        this.owner = Arrays.copyOf(b.owner, n);
        this.kernel = Arrays.copyOf(b.kernel, n);
        this.durationNanos = Arrays.copyOf(b.duration, n);
        this.outputBytes = Arrays.copyOf(b.output, n);
        this.inputStart = Arrays.copyOf(b.inputStart, n + 1);
        this.inputStart[n] = b.inputCount;
        this.inputs = Arrays.copyOf(b.inputs, b.inputCount);
        // Children in compressed rows, from the parent lists.
        this.parentCount = new int[n];
        this.childStart = new int[n + 1];
        int[] parentStart = Arrays.copyOf(b.parentStart, n + 1);
        parentStart[n] = b.parentEdges;
        for (int t = 0; t < n; t++) {
            parentCount[t] = parentStart[t + 1] - parentStart[t];
            for (int e = parentStart[t]; e < parentStart[t + 1]; e++) {
                childStart[b.parents[e] + 1]++;
            }
        }
        for (int t = 0; t < n; t++) {
            childStart[t + 1] += childStart[t];
        }
        this.children = new int[b.parentEdges];
        int[] fill = Arrays.copyOf(childStart, n);
        for (int t = 0; t < n; t++) {
            for (int e = parentStart[t]; e < parentStart[t + 1]; e++) {
                children[fill[b.parents[e]]++] = t;
            }
        }
        // Total work and the critical path (longest chain of durations), in one pass: parents come first.
        long total = 0;
        long longest = 0;
        long[] finish = new long[n];
        int maxOwner = -1;
        for (int t = 0; t < n; t++) {
            long start = 0;
            for (int e = parentStart[t]; e < parentStart[t + 1]; e++) {
                start = Math.max(start, finish[b.parents[e]]);
            }
            finish[t] = start + durationNanos[t];
            longest = Math.max(longest, finish[t]);
            total += durationNanos[t];
            maxOwner = Math.max(maxOwner, owner[t]);
        }
        this.totalWorkNanos = total;
        this.criticalPathNanos = longest;
        this.owners = maxOwner + 1;
    }

    /** {@return a builder of a workload called {@code name}} */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** {@return the workload's name, for reports} */
    public String name() {
        return name;
    }

    /** {@return the number of tasks} */
    public int tasks() {
        return owner.length;
    }

    /** {@return one more than the highest owner of a task: the members that must exist at the start} */
    public int owners() {
        return owners;
    }

    /** {@return the sum of all durations, in nanoseconds} */
    public long totalWorkNanos() {
        return totalWorkNanos;
    }

    /** {@return the longest chain of durations from a task without parents to one without children} */
    public long criticalPathNanos() {
        return criticalPathNanos;
    }

    /** {@return the member that owns task {@code t}} */
    public int owner(int t) {
        return owner[t];
    }

    /** {@return the kernel index of task {@code t}} */
    public int kernel(int t) {
        return kernel[t];
    }

    /** {@return the name of kernel {@code k}} */
    public String kernelName(int k) {
        return kernelNames[k];
    }

    /** {@return how many kernels the tasks use} */
    public int kernels() {
        return kernelNames.length;
    }

    /** {@return the duration of task {@code t} on one slot, in nanoseconds} */
    public long durationNanos(int t) {
        return durationNanos[t];
    }

    /** {@return the bytes task {@code t} writes (what comes home when it ran elsewhere)} */
    public long outputBytes(int t) {
        return outputBytes[t];
    }

    /** {@return how many arrays task {@code t} reads} */
    public int inputCount(int t) {
        return inputStart[t + 1] - inputStart[t];
    }

    /** {@return the {@code i}-th array task {@code t} reads} */
    public int input(int t, int i) {
        return inputs[inputStart[t] + i];
    }

    /** {@return the sum of the sizes of the arrays task {@code t} reads} */
    public long inputBytes(int t) {
        long sum = 0;
        for (int e = inputStart[t]; e < inputStart[t + 1]; e++) {
            sum += arrayBytes[inputs[e]];
        }
        return sum;
    }

    /** {@return the size of array {@code a}, in bytes} */
    public long arrayBytes(int a) {
        return arrayBytes[a];
    }

    /** {@return how many arrays there are} */
    public int arrays() {
        return arrayBytes.length;
    }

    /** {@return how many parents task {@code t} has} */
    public int parentCount(int t) {
        return parentCount[t];
    }

    /** {@return how many children task {@code t} has} */
    public int childCount(int t) {
        return childStart[t + 1] - childStart[t];
    }

    /** {@return the {@code i}-th child of task {@code t}} */
    public int child(int t, int i) {
        return children[childStart[t] + i];
    }

    @Override
    public String toString() {
        return name + ": " + tasks() + " tasks, " + kernels() + " kernels, " + arrays() + " arrays, " + owners
                + " owners, work " + totalWorkNanos + " ns, critical path " + criticalPathNanos + " ns";
    }

    /**
     * Builds a {@link Workload}: declare arrays and kernels, then add tasks in submission order, each naming
     * only earlier tasks as parents. Not thread-safe; a builder builds once.
     */
    public static final class Builder {
        private final String name;
        private final List<String> kernelNames = new ArrayList<>();
        private final Map<String, Integer> kernelIds = new HashMap<>();
        private long[] arrayBytes = new long[16];
        private int arrays;
        private int tasks;
        private int[] owner = new int[16];
        private int[] kernel = new int[16];
        private long[] duration = new long[16];
        private long[] output = new long[16];
        private int[] inputStart = new int[17];
        private int[] inputs = new int[16];
        private int inputCount;
        private int[] parentStart = new int[17];
        private int[] parents = new int[16];
        private int parentEdges;
        private boolean built;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * Declares an array.
         *
         * @param bytes its size; at least 0
         * @return its index, for {@link #task}
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public int array(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("an array's size must be >= 0 bytes, was " + bytes);
            }
            if (arrays == arrayBytes.length) {
                arrayBytes = Arrays.copyOf(arrayBytes, arrays * 2);
            }
            arrayBytes[arrays] = bytes;
            return arrays++;
        }

        /** {@return the index of the kernel called {@code kernelName}, declared on first use} */
        public int kernel(String kernelName) {
            Objects.requireNonNull(kernelName, "kernelName");
            return kernelIds.computeIfAbsent(kernelName, k -> {
                kernelNames.add(k);
                return kernelNames.size() - 1;
            });
        }

        /**
         * Adds a task.
         *
         * @param taskOwner the member that submits it; at least 0
         * @param taskKernel a kernel index from {@link #kernel(String)}
         * @param durationNanos its duration on one slot; at least 0
         * @param outputBytes the bytes it writes; at least 0
         * @param readArrays the arrays it reads, from {@link #array(long)}; each once
         * @param taskParents earlier tasks it depends on
         * @return its index
         * @throws IllegalArgumentException naming the bad argument
         */
        public int task(int taskOwner, int taskKernel, long durationNanos, long outputBytes, int[] readArrays,
                        int... taskParents) {
            if (built) {
                throw new IllegalStateException("this builder already built its workload");
            }
            if (taskOwner < 0) {
                throw new IllegalArgumentException("task " + tasks + ": owner must be >= 0, was " + taskOwner);
            }
            if (taskKernel < 0 || taskKernel >= kernelNames.size()) {
                throw new IllegalArgumentException("task " + tasks + ": kernel " + taskKernel + " was not declared");
            }
            if (durationNanos < 0 || outputBytes < 0) {
                throw new IllegalArgumentException("task " + tasks + ": duration and output bytes must be >= 0, were "
                        + durationNanos + " ns and " + outputBytes + " bytes");
            }
            for (int a : readArrays) {
                if (a < 0 || a >= arrays) {
                    throw new IllegalArgumentException("task " + tasks + ": array " + a + " was not declared");
                }
            }
            for (int p : taskParents) {
                if (p < 0 || p >= tasks) {
                    throw new IllegalArgumentException("task " + tasks + ": parent " + p
                            + " is not an earlier task (tasks are added parents first)");
                }
            }
            int t = tasks;
            if (t == owner.length) {
                int cap = t * 2;
                owner = Arrays.copyOf(owner, cap);
                kernel = Arrays.copyOf(kernel, cap);
                duration = Arrays.copyOf(duration, cap);
                output = Arrays.copyOf(output, cap);
                inputStart = Arrays.copyOf(inputStart, cap + 1);
                parentStart = Arrays.copyOf(parentStart, cap + 1);
            }
            owner[t] = taskOwner;
            kernel[t] = taskKernel;
            duration[t] = durationNanos;
            output[t] = outputBytes;
            inputStart[t] = inputCount;
            while (inputCount + readArrays.length > inputs.length) {
                inputs = Arrays.copyOf(inputs, inputs.length * 2);
            }
            System.arraycopy(readArrays, 0, inputs, inputCount, readArrays.length);
            inputCount += readArrays.length;
            parentStart[t] = parentEdges;
            while (parentEdges + taskParents.length > parents.length) {
                parents = Arrays.copyOf(parents, parents.length * 2);
            }
            System.arraycopy(taskParents, 0, parents, parentEdges, taskParents.length);
            parentEdges += taskParents.length;
            tasks++;
            return t;
        }

        /** {@return how many tasks were added so far} */
        public int tasks() {
            return tasks;
        }

        /**
         * {@return the workload}
         *
         * @throws IllegalStateException if it has no task or was built already
         */
        public Workload build() {
            if (built) {
                throw new IllegalStateException("this builder already built its workload");
            }
            if (tasks == 0) {
                throw new IllegalStateException("workload " + name + " has no task");
            }
            built = true;
            return new Workload(this);
        }
    }
}
