package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.UnifiedBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A random straight-line program over a few int arrays: kernels with different access patterns, copies,
 * fills, host reads and writes and synchronizations. It has a plain-Java meaning ({@link #model()}) and runs
 * on a scheduler ({@link #run}); both give an {@link Outcome} (every host read, then the final arrays), so
 * runs under different devices and policies can be compared. All values are non-zero at the start and every
 * constant is non-zero, so a skipped or reordered operation changes the result.
 */
final class RandomProgram {
    final long seed;
    final int n;
    final int[][] initial;
    final List<Op> ops;

    private RandomProgram(long seed, int n, int[][] initial, List<Op> ops) {
        this.seed = seed;
        this.n = n;
        this.initial = initial;
        this.ops = ops;
    }

    /** One operation: what it means on plain Java arrays, and how it runs on a scheduler. */
    interface Op {
        /** Applies the operation to {@code a}; a host read appends its snapshot to {@code reads}. */
        void model(int[][] a, List<int[]> reads);

        /** Submits or performs the operation on {@code t}; a host read appends its snapshot to {@code reads}. */
        void run(Target t, List<int[]> reads);
    }

    /** Where a program runs: a scheduler, the kernels, the tracked arrays (by the program's indices) and n. */
    record Target(Scheduler scheduler, DiffKernels kernels, TrackedArray[] arrays, int n) {
        TrackedArray at(int i) {
            return arrays[i];
        }
    }

    /** What a run observed: each host read's snapshot in program order, then every array at the end. */
    record Outcome(List<int[]> reads, int[][] finals) {
        /** A description of the first difference from {@code expected}, or null when there is none. */
        String differenceFrom(Outcome expected, RandomProgram p) {
            if (reads.size() != expected.reads.size()) {
                return "host reads: expected " + expected.reads.size() + ", got " + reads.size();
            }
            for (int r = 0; r < reads.size(); r++) {
                String d = firstDiff(expected.reads.get(r), reads.get(r));
                if (d != null) {
                    return "host read #" + r + " (" + p.hostRead(r) + ") " + d;
                }
            }
            for (int a = 0; a < finals.length; a++) {
                String d = firstDiff(expected.finals[a], finals[a]);
                if (d != null) {
                    return "final a" + a + " " + d;
                }
            }
            return null;
        }
    }

    static String firstDiff(int[] expected, int[] got) {
        if (expected.length != got.length) {
            return "has length " + got.length + ", expected " + expected.length;
        }
        for (int i = 0; i < got.length; i++) {
            if (expected[i] != got[i]) {
                return "differs at [" + i + "]: expected " + expected[i] + ", got " + got[i];
            }
        }
        return null;
    }

    private String hostRead(int r) {
        int seen = 0;
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i) instanceof HostRead h && seen++ == r) {
                return "op " + i + ": " + h;
            }
        }
        return "?";
    }

    // ---- generation -----------------------------------------------------------------------------------------

    /**
     * A program of {@code minOps} to {@code maxOps} operations over 4 to 6 arrays of 200 to 400 ints, all drawn
     * from {@code seed}. With {@code hostOps} false it has no host reads, writes or synchronizations.
     */
    static RandomProgram generate(long seed, int minOps, int maxOps, boolean hostOps) {
        SplittableRandom r = new SplittableRandom(seed);
        int arrays = 4 + r.nextInt(3);
        int n = 200 + r.nextInt(201);
        int[][] initial = initialValues(r, arrays, n);
        int count = minOps + r.nextInt(maxOps - minOps + 1);
        List<Op> ops = new ArrayList<>(count);
        while (ops.size() < count) {
            int pick = r.nextInt(100);
            int x = r.nextInt(arrays);
            int y = r.nextInt(arrays);
            if (pick < 20) {
                ops.add(new Step(x, nonZero(r, 1000)));
            } else if (pick < 34) {
                ops.add(new Scale(x, y, nonZero(r, 9)));
            } else if (pick < 48) {
                ops.add(new Add(x, y, r.nextInt(arrays)));
            } else if (pick < 60) {
                int w = other(r, arrays, x, y);
                if (w >= 0) {
                    ops.add(new Mix(w, x, y));
                }
            } else if (pick < 70) {
                if (x != y) {
                    int len = 1 + r.nextInt(n);
                    ops.add(new Copy(x, r.nextInt(n - len + 1), y, r.nextInt(n - len + 1), len));
                }
            } else if (pick < 77) {
                int len = 1 + r.nextInt(n);
                ops.add(new Fill(x, r.nextInt(n - len + 1), len, (byte) (1 + r.nextInt(255))));
            } else if (!hostOps) {
                continue;
            } else if (pick < 89) {
                ops.add(new HostRead(x, r.nextBoolean()));
            } else if (pick < 97) {
                int k = 1 + r.nextInt(8);
                int[] idx = new int[k];
                int[] values = new int[k];
                for (int j = 0; j < k; j++) {
                    idx[j] = r.nextInt(n);
                    values[j] = nonZero(r, 1 << 20);
                }
                ops.add(new HostWrite(x, idx, values));
            } else {
                ops.add(new Sync());
            }
        }
        return new RandomProgram(seed, n, initial, List.copyOf(ops));
    }

    /** A program of the given operations over {@code arrays} arrays of {@code n} random ints drawn from {@code seed}. */
    static RandomProgram of(long seed, int arrays, int n, List<Op> ops) {
        return new RandomProgram(seed, n, initialValues(new SplittableRandom(seed), arrays, n), List.copyOf(ops));
    }

    /** A program of the given operations over arrays with the given initial values, all of one length. */
    static RandomProgram of(long seed, int[][] initial, List<Op> ops) {
        return new RandomProgram(seed, initial[0].length, initial, List.copyOf(ops));
    }

    private static int[][] initialValues(SplittableRandom r, int arrays, int n) {
        int[][] initial = new int[arrays][n];
        for (int[] a : initial) {
            for (int i = 0; i < n; i++) {
                a[i] = nonZero(r, 1 << 20);
            }
        }
        return initial;
    }

    /** A random int in [-bound, bound] other than 0. */
    static int nonZero(SplittableRandom r, int bound) {
        int v = 1 + r.nextInt(bound);
        return r.nextBoolean() ? v : -v;
    }

    /** An array index other than x and y, or -1 if there are only those two. */
    private static int other(SplittableRandom r, int arrays, int x, int y) {
        for (int tries = 0; tries < 16; tries++) {
            int w = r.nextInt(arrays);
            if (w != x && w != y) {
                return w;
            }
        }
        return -1;
    }

    // ---- meaning and running --------------------------------------------------------------------------------

    /** The program's meaning in plain Java. */
    Outcome model() {
        int[][] a = new int[initial.length][];
        for (int i = 0; i < a.length; i++) {
            a[i] = initial[i].clone();
        }
        List<int[]> reads = new ArrayList<>();
        for (Op op : ops) {
            op.model(a, reads);
        }
        return new Outcome(reads, a);
    }

    /**
     * Runs the program on {@code s}: allocates and fills its arrays on {@code device}, runs the operations,
     * synchronizes and reads every array back, then frees the buffers.
     */
    Outcome run(Scheduler s, Device device, DiffKernels kernels) {
        TrackedArray[] arrays = new TrackedArray[initial.length];
        for (int a = 0; a < arrays.length; a++) {
            UnifiedBuffer b = device.allocate(4L * n);
            for (int i = 0; i < n; i++) {
                b.setInt(i, initial[a][i]);
            }
            arrays[a] = s.track("a" + a, b, 4L * n);
        }
        List<int[]> reads = new ArrayList<>();
        Target t = new Target(s, kernels, arrays, n);
        for (Op op : ops) {
            op.run(t, reads);
        }
        s.synchronize();
        int[][] finals = new int[arrays.length][];
        for (int a = 0; a < arrays.length; a++) {
            if (arrays[a].replicas != null && !arrays[a].hostReadReady()) {
                // With several devices the newest copy may be on one of them: the host read brings it home.
                s.awaitHost(arrays[a], AccessMode.READ, "final read a" + a);
            }
            finals[a] = ints(arrays[a], n);
            s.release(arrays[a]);
            arrays[a].buffer().free();
        }
        return new Outcome(reads, finals);
    }

    static int[] ints(TrackedArray a, int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = a.buffer().getInt(i);
        }
        return out;
    }

    /** The program as text, one operation a line, for failure messages. */
    String listing() {
        StringBuilder sb = new StringBuilder();
        sb.append("program seed=").append(seed).append(": ").append(initial.length).append(" arrays of ")
                .append(n).append(" ints, ").append(ops.size()).append(" operations\n");
        for (int i = 0; i < ops.size(); i++) {
            sb.append(String.format("  %3d  %s%n", i, ops.get(i)));
        }
        return sb.toString();
    }

    // ---- the operations -------------------------------------------------------------------------------------

    /** x = x * 31 + s (inout x) */
    record Step(int x, int s) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            int[] v = a[x];
            for (int i = 0; i < v.length; i++) {
                v[i] = v[i] * 31 + s;
            }
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            t.scheduler().submit(t.kernels().step(t.at(x), s, t.n()));
        }

        @Override
        public String toString() {
            return "a" + x + " = a" + x + " * 31 + " + s;
        }
    }

    /** y = x * k (out y, in x; y may be x) */
    record Scale(int y, int x, int k) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            for (int i = 0; i < a[y].length; i++) {
                a[y][i] = a[x][i] * k;
            }
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            t.scheduler().submit(t.kernels().scale(t.at(y), t.at(x), k, t.n()));
        }

        @Override
        public String toString() {
            return "a" + y + " = a" + x + " * " + k;
        }
    }

    /** z += x + y (inout z, in x, y; any of them may be the same array) */
    record Add(int z, int x, int y) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            for (int i = 0; i < a[z].length; i++) {
                a[z][i] += a[x][i] + a[y][i];
            }
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            t.scheduler().submit(t.kernels().add(t.at(z), t.at(x), t.at(y), t.n()));
        }

        @Override
        public String toString() {
            return "a" + z + " += a" + x + " + a" + y;
        }
    }

    /** w[i] = a[i] * 7 - b[(i + 1) % n] (out w, in a, b; w is neither) */
    record Mix(int w, int p, int q) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            int n = a[w].length;
            for (int i = 0; i < n; i++) {
                a[w][i] = a[p][i] * 7 - a[q][(i + 1) % n];
            }
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            t.scheduler().submit(t.kernels().mix(t.at(w), t.at(p), t.at(q), t.n()));
        }

        @Override
        public String toString() {
            return "a" + w + "[i] = a" + p + "[i] * 7 - a" + q + "[i+1]";
        }
    }

    /** dst[dstStart, +len) = src[srcStart, +len) (a device copy; dst is not src) */
    record Copy(int dst, int dstStart, int src, int srcStart, int len) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            System.arraycopy(a[src], srcStart, a[dst], dstStart, len);
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            TrackedArray d = t.at(dst);
            TrackedArray s = t.at(src);
            t.scheduler().submit(ComputationalElement.copy("copy", d, s,
                    new Work.Copy(d.buffer(), 4L * dstStart, s.buffer(), 4L * srcStart, 4L * len), null));
        }

        @Override
        public String toString() {
            return "copy a" + dst + "[" + dstStart + ", +" + len + ") = a" + src + "[" + srcStart + ", +" + len + ")";
        }
    }

    /** every byte of dst[start, +len) = value (a device fill) */
    record Fill(int dst, int start, int len, byte value) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            Arrays.fill(a[dst], start, start + len, (value & 0xff) * 0x01010101);
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            TrackedArray d = t.at(dst);
            t.scheduler().submit(ComputationalElement.fill("fill", d,
                    new Work.Fill(d.buffer(), 4L * start, 4L * len, value), null));
        }

        @Override
        public String toString() {
            return "fill a" + dst + "[" + start + ", +" + len + ") with bytes " + (value & 0xff);
        }
    }

    /** The host reads all of x; {@code checkReady} first asks {@link TrackedArray#hostReadReady()}. */
    record HostRead(int x, boolean checkReady) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            reads.add(a[x].clone());
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            TrackedArray array = t.at(x);
            if (!checkReady || !array.hostReadReady()) {
                t.scheduler().awaitHost(array, AccessMode.READ, "read a" + x);
            }
            reads.add(ints(array, t.n()));
        }

        @Override
        public String toString() {
            return "host read a" + x + (checkReady ? " (fast path when ready)" : "");
        }
    }

    /** The host writes {@code values} at {@code idx} of x. */
    record HostWrite(int x, int[] idx, int[] values) implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
            for (int j = 0; j < idx.length; j++) {
                a[x][idx[j]] = values[j];
            }
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            TrackedArray array = t.at(x);
            t.scheduler().awaitHost(array, AccessMode.WRITE, "write a" + x);
            for (int j = 0; j < idx.length; j++) {
                array.buffer().setInt(idx[j], values[j]);
            }
        }

        @Override
        public String toString() {
            return "host write a" + x + Arrays.toString(idx) + " = " + Arrays.toString(values);
        }
    }

    /** Scheduler.synchronize() */
    record Sync() implements Op {
        @Override
        public void model(int[][] a, List<int[]> reads) {
        }

        @Override
        public void run(Target t, List<int[]> reads) {
            t.scheduler().synchronize();
        }

        @Override
        public String toString() {
            return "synchronize";
        }
    }
}
