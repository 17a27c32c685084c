import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * What plain Java gets from the JIT when its data lives where the CPU device keeps a kernel's arrays (native
 * memory segments) rather than in Java arrays: SAXPY over 16M floats written five ways, timed on one thread by
 * that thread's CPU time (so other processes on the machine change the figures less than wall time would).
 * Run by bench/jvm-ceiling/run, which prints the table twice: with the JIT's auto-vectorizer on (the default)
 * and off.
 */
public final class SegmentCeiling {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private static final float A = 1.5f;

    private SegmentCeiling() {
    }

    static void arrays(float[] x, float[] y, int n) {
        for (int i = 0; i < n; i++) {
            y[i] = A * x[i] + y[i];
        }
    }

    /** As the CPU device's kernels address memory: an int index scaled into a long byte offset. */
    static void segments(MemorySegment x, MemorySegment y, int n) {
        for (int i = 0; i < n; i++) {
            long off = (long) i * 4;
            y.set(F, off, A * x.get(F, off) + y.get(F, off));
        }
    }

    /**
     * The same loop as {@link #segments}, in a method of its own: one method handed both native and heap segments
     * gets a profile with both kinds and much slower code for each.
     */
    static void heapSegments(MemorySegment x, MemorySegment y, int n) {
        for (int i = 0; i < n; i++) {
            long off = (long) i * 4;
            y.set(F, off, A * x.get(F, off) + y.get(F, off));
        }
    }

    static void segmentsLongIndex(MemorySegment x, MemorySegment y, long n) {
        for (long i = 0; i < n; i++) {
            y.set(F, i * 4, A * x.get(F, i * 4) + y.get(F, i * 4));
        }
    }

    static void vectors(MemorySegment x, MemorySegment y, int n) {
        int i = 0;
        for (int end = S.loopBound(n); i < end; i += S.length()) {
            FloatVector vx = FloatVector.fromMemorySegment(S, x, (long) i * 4, ByteOrder.LITTLE_ENDIAN);
            FloatVector vy = FloatVector.fromMemorySegment(S, y, (long) i * 4, ByteOrder.LITTLE_ENDIAN);
            vx.mul(A).add(vy).intoMemorySegment(y, (long) i * 4, ByteOrder.LITTLE_ENDIAN);
        }
        segmentsFrom(x, y, i, n);
    }

    private static void segmentsFrom(MemorySegment x, MemorySegment y, int from, int n) {
        for (int i = from; i < n; i++) {
            long off = (long) i * 4;
            y.set(F, off, A * x.get(F, off) + y.get(F, off));
        }
    }

    public static void main(String[] args) {
        int n = argument(args, 0, 16 << 20);
        int rounds = argument(args, 1, 40);
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i % 7;
            y[i] = i % 5;
        }
        Arena arena = Arena.ofShared();
        MemorySegment nx = arena.allocate(n * 4L, 64).copyFrom(MemorySegment.ofArray(x));
        MemorySegment ny = arena.allocate(n * 4L, 64).copyFrom(MemorySegment.ofArray(y));
        MemorySegment lx = arena.allocate(n * 4L, 64).copyFrom(MemorySegment.ofArray(x));
        MemorySegment ly = arena.allocate(n * 4L, 64).copyFrom(MemorySegment.ofArray(y));
        MemorySegment hx = MemorySegment.ofArray(x.clone());
        MemorySegment hy = MemorySegment.ofArray(y.clone());
        MemorySegment vx = arena.allocate(n * 4L, 64).copyFrom(MemorySegment.ofArray(x));
        MemorySegment vy = arena.allocate(n * 4L, 64).copyFrom(MemorySegment.ofArray(y));
        String[] names = {"float[] (plain Java)", "native segments, int index", "native segments, long index",
            "heap segments (over float[])", "Vector API over native segments"};
        double[][] ms = new double[names.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < names.length; k++) {
                long t0 = MX.getCurrentThreadCpuTime();
                switch (k) {
                    case 0 -> arrays(x, y, n);
                    case 1 -> segments(nx, ny, n);
                    case 2 -> segmentsLongIndex(lx, ly, n);
                    case 3 -> heapSegments(hx, hy, n);
                    default -> vectors(vx, vy, n);
                }
                ms[k][r] = (MX.getCurrentThreadCpuTime() - t0) / 1e6;
            }
        }
        check(y, n, ny, ly, hy, vy);
        System.out.println("| SAXPY, " + n + " floats, 1 thread | CPU ms, median of last " + rounds / 2
                + " rounds | / float[] |");
        System.out.println("|---|---:|---:|");
        double base = median(ms[0], rounds);
        for (int k = 0; k < names.length; k++) {
            double m = median(ms[k], rounds);
            System.out.printf("| %s | %.1f | %.2fx |%n", names[k], m, m / base);
        }
    }

    private static int argument(String[] args, int k, int otherwise) {
        if (args.length > 2) {
            usage("at most two arguments (elements, rounds), not " + args.length);
        }
        if (args.length <= k) {
            return otherwise;
        }
        try {
            int v = Integer.parseInt(args[k]);
            if (v >= 2 && v <= Integer.MAX_VALUE / 4) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below, with the argument's name
        }
        usage((k == 0 ? "elements" : "rounds") + " must be a whole number from 2 to " + Integer.MAX_VALUE / 4
                + ", not '" + args[k] + "'");
        return otherwise;
    }

    private static void usage(String problem) {
        System.err.println("bench/jvm-ceiling/run: " + problem + " (usage: bench/jvm-ceiling/run [ELEMENTS [ROUNDS]])");
        System.exit(2);
    }

    private static double median(double[] all, int rounds) {
        double[] last = Arrays.copyOfRange(all, rounds - rounds / 2, rounds);
        Arrays.sort(last);
        return last[last.length / 2];
    }

    /** Every variant ran the same rounds on the same inputs, so every result must equal plain Java's bit for bit. */
    private static void check(float[] y, int n, MemorySegment... results) {
        for (MemorySegment r : results) {
            for (int i = 0; i < n; i++) {
                if (Float.compare(r.get(F, i * 4L), y[i]) != 0) {
                    throw new AssertionError("a variant's result differs from plain Java's at element " + i);
                }
            }
        }
    }
}
