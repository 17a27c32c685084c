package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.Dim3;
import dev.polygpu.device.LaunchConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Inputs for the corpus kernels: the sources from {@code oracle-corpus/}, arrays from a seeded random source
 * packed little-endian, oracle arguments and launch shapes, a random sparse matrix and a graph.
 */
final class CorpusInputs {
    private final Random random;

    CorpusInputs(long seed) {
        this.random = new Random(seed);
    }

    /** The text of {@code oracle-corpus/<file>}. */
    static String source(String file) {
        String path = "/oracle-corpus/" + file;
        try (InputStream in = CorpusInputs.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static LaunchConfig launch(int gridX, int gridY, int blockX, int blockY, int sharedBytes) {
        return new LaunchConfig(Dim3.of(gridX, gridY), Dim3.of(blockX, blockY), sharedBytes);
    }

    static LaunchConfig launch(int grid, int block, int sharedBytes) {
        return new LaunchConfig(Dim3.of(grid), Dim3.of(block), sharedBytes);
    }

    static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    // ---- arguments --------------------------------------------------------------------------------------------

    static OracleArg.Buffer f32(String name, float[] v) {
        return new OracleArg.Buffer(name, OracleType.F32, bytes(v), 0);
    }

    static OracleArg.Buffer f32(String name, float[] v, int maxUlp) {
        return new OracleArg.Buffer(name, OracleType.F32, bytes(v), maxUlp);
    }

    static OracleArg.Buffer f64(String name, double[] v) {
        ByteBuffer b = order(v.length * 8);
        for (double x : v) {
            b.putDouble(x);
        }
        return new OracleArg.Buffer(name, OracleType.F64, b.array(), 0);
    }

    static OracleArg.Buffer i32(String name, int[] v) {
        return new OracleArg.Buffer(name, OracleType.I32, bytes(v), 0);
    }

    static OracleArg.Buffer u32(String name, int[] v) {
        return new OracleArg.Buffer(name, OracleType.U32, bytes(v), 0);
    }

    static OracleArg.Buffer u8(String name, byte[] v) {
        return new OracleArg.Buffer(name, OracleType.U8, v.clone(), 0);
    }

    static OracleArg.Scalar i32(int v) {
        return new OracleArg.Scalar(OracleType.I32, v);
    }

    static OracleArg.Scalar f32(float v) {
        return new OracleArg.Scalar(OracleType.F32, Float.floatToRawIntBits(v));
    }

    private static ByteBuffer order(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    static byte[] bytes(float[] v) {
        ByteBuffer b = order(v.length * 4);
        for (float x : v) {
            b.putFloat(x);
        }
        return b.array();
    }

    static byte[] bytes(int[] v) {
        ByteBuffer b = order(v.length * 4);
        for (int x : v) {
            b.putInt(x);
        }
        return b.array();
    }

    // ---- random data ------------------------------------------------------------------------------------------

    /** {@code n} normally distributed floats with standard deviation {@code scale}. */
    float[] gaussian(int n, double scale) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (random.nextGaussian() * scale);
        }
        return v;
    }

    /** {@code n} floats uniform in [lo, hi). */
    float[] uniform(int n, double lo, double hi) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (lo + random.nextDouble() * (hi - lo));
        }
        return v;
    }

    double[] gaussianDoubles(int n, double scale) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextGaussian() * scale;
        }
        return v;
    }

    /** {@code n} ints uniform in [lo, hi). */
    int[] ints(int n, int lo, int hi) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = lo + random.nextInt(hi - lo);
        }
        return v;
    }

    /** {@code n} ints with all 32 bits random. */
    int[] words(int n) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = random.nextInt();
        }
        return v;
    }

    /** {@code n} bytes of a skewed distribution (many small values, a tail up to 255), as image data has. */
    byte[] skewedBytes(int n) {
        byte[] v = new byte[n];
        for (int i = 0; i < n; i++) {
            double g = Math.abs(random.nextGaussian()) * 60;
            v[i] = (byte) Math.min(255, (int) g);
        }
        return v;
    }

    /** A CSR matrix: row starts ({@code rows + 1}), column indices and values. */
    record Csr(int rows, int[] rowStart, int[] columns, float[] values) {
    }

    /** A random {@code rows x cols} CSR matrix with 0 to {@code maxPerRow - 1} non-zeros per row. */
    Csr sparse(int rows, int cols, int maxPerRow) {
        int[] start = new int[rows + 1];
        List<Integer> columns = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            int count = random.nextInt(maxPerRow);
            int c = random.nextInt(Math.max(1, cols / 8));
            for (int k = 0; k < count && c < cols; k++) {
                columns.add(c);
                c += 1 + random.nextInt(Math.max(1, 2 * cols / Math.max(1, count) - 1));
            }
            start[r + 1] = columns.size();
        }
        int[] col = columns.stream().mapToInt(Integer::intValue).toArray();
        return new Csr(rows, start, col, gaussian(col.length, 1));
    }

    /** An undirected random graph in CSR form: every vertex gets 1 to {@code maxDegree} random neighbours. */
    int[][] graph(int vertices, int maxDegree) {
        List<List<Integer>> adj = new ArrayList<>();
        for (int v = 0; v < vertices; v++) {
            adj.add(new ArrayList<>());
        }
        for (int v = 0; v < vertices; v++) {
            int d = 1 + random.nextInt(maxDegree);
            for (int k = 0; k < d; k++) {
                int u = random.nextInt(vertices);
                if (u != v && !adj.get(v).contains(u)) {
                    adj.get(v).add(u);
                    adj.get(u).add(v);
                }
            }
        }
        int[] start = new int[vertices + 1];
        List<Integer> flat = new ArrayList<>();
        for (int v = 0; v < vertices; v++) {
            flat.addAll(adj.get(v));
            start[v + 1] = flat.size();
        }
        return new int[][] {start, flat.stream().mapToInt(Integer::intValue).toArray()};
    }

    /** Breadth-first distances from {@code source} in a CSR graph (-1 where unreachable). */
    static int[] distances(int[] start, int[] adjacency, int source) {
        int n = start.length - 1;
        int[] dist = new int[n];
        java.util.Arrays.fill(dist, -1);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        dist[source] = 0;
        queue[tail++] = source;
        while (head < tail) {
            int v = queue[head++];
            for (int e = start[v]; e < start[v + 1]; e++) {
                int u = adjacency[e];
                if (dist[u] < 0) {
                    dist[u] = dist[v] + 1;
                    queue[tail++] = u;
                }
            }
        }
        return dist;
    }
}
