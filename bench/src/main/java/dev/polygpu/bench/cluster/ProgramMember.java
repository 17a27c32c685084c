package dev.polygpu.bench.cluster;

import dev.polygpu.cluster.ClusterConfig;
import dev.polygpu.cluster.ClusterNode;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import dev.polygpu.runtime.Work;
import java.util.ArrayList;
import java.util.List;

/**
 * The program's member of the benchmark cluster, in the benchmark's own JVM: a CPU device with a fixed number
 * of concurrent blocks, a scheduler and a {@link ClusterNode} with role {@code PROGRAM}, the inputs A (packed
 * per row) and B on the device, and one kernel per C tile. Every kernel of a run is submitted here; the workers
 * steal them. Used by one benchmark thread.
 */
final class ProgramMember implements AutoCloseable {
    /**
     * C tile (i, j) = Σ over the row's nnz nonzero A tiles p of A(i, ks[p]) · B(ks[p], j), after every thread
     * has slept {@code ms} milliseconds (1 ms per {@code __nanosleep} call, CUDA's limit): the sleep is the
     * kernel's device time, proportional to its products; the multiply is the real result that is checked.
     * B(k, j) is tile {@code k * bk + bj} of {@code b}: all of B tile by tile (bk = tiles, bj = j) or B's
     * column j alone (bk = 1, bj = 0). One thread per element of the tile; a grid of g blocks splits its rows.
     */
    static final String SOURCE = """
            extern "C" __global__ void bspgemm(const float* a, const int* ks, const float* b, float* c,
                                               int nnz, int bk, int bj, int ms) {
                for (int s = 0; s < ms; s++) __nanosleep(1000000);
                int ts = blockDim.x;
                int tile = ts * ts;
                int r = blockIdx.x * blockDim.y + threadIdx.y;
                int col = threadIdx.x;
                float acc = 0.0f;
                for (int p = 0; p < nnz; p++) {
                    const float* at = a + p * tile;
                    const float* bt = b + (ks[p] * bk + bj) * tile;
                    for (int l = 0; l < ts; l++) {
                        acc += at[r * ts + l] * bt[l * ts + col];
                    }
                }
                c[r * ts + col] = acc;
            }
            """;
    static final String KERNEL = "bspgemm";
    private static final KernelSource KERNEL_SOURCE = new KernelSource(SOURCE, KERNEL, KERNEL + "(a: in pointer "
            + "float, ks: in pointer sint32, b: in pointer float, c: out pointer float, nnz: sint32, bk: sint32, "
            + "bj: sint32, ms: sint32)");

    private final BlockSparse matrices;
    private final int msPerProduct;
    private final int kernelBlocks;
    final CpuDevice device;
    final Scheduler scheduler;
    final ClusterNode node;
    private final KernelFunction kernel;
    private final Placement placement = new Placement();
    private final List<TrackedArray> packedRows = new ArrayList<>();
    private final List<TrackedArray> columns = new ArrayList<>();
    /** All of B (one array), or B's tile columns (one array each). */
    private final List<TrackedArray> bArrays = new ArrayList<>();
    private final boolean bColumns;

    /** One round: the launches of every C tile, row by row, each with its own C array. */
    record Round(List<Launch> launches) {
    }

    /**
     * A member whose kernels read all of B ({@code bColumns} false) or only B's tile column j, and whose node
     * joins with {@code config}.
     */
    ProgramMember(BlockSparse matrices, int cpuBlocks, int kernelBlocks, int msPerProduct, boolean bColumns,
            ClusterConfig config) {
        this.matrices = matrices;
        this.bColumns = bColumns;
        this.msPerProduct = msPerProduct;
        this.kernelBlocks = kernelBlocks;
        this.device = new CpuDevice(cpuBlocks);
        this.scheduler = new Scheduler(device, SchedulerConfig.DEFAULT);
        this.scheduler.addObserver(placement);
        ClusterNode started = null;
        try {
            this.kernel = device.compile(SOURCE, "bspgemm.cu").function(KERNEL);
            for (int i = 0; i < matrices.tiles(); i++) {
                float[] packed = matrices.packedRow(i);
                int[] ks = matrices.nonzeroColumns(i);
                // An empty row still gets one (unused) tile and index: no zero-byte arrays.
                packedRows.add(floats("A row " + i, packed, Math.max(1, ks.length) * matrices.tileFloats()));
                columns.add(ints("A row " + i + " tile columns", ks, Math.max(1, ks.length)));
            }
            if (bColumns) {
                for (int j = 0; j < matrices.tiles(); j++) {
                    float[] col = matrices.packedColumnB(j);
                    bArrays.add(floats("B column " + j, col, col.length));
                }
            } else {
                float[] bt = matrices.tileMajorB();
                bArrays.add(floats("B", bt, bt.length));
            }
            started = ClusterNode.start(config, scheduler);
        } catch (RuntimeException e) {
            scheduler.close();
            device.close();
            throw e;
        }
        this.node = started;
    }

    private TrackedArray floats(String name, float[] values, int length) {
        UnifiedBuffer buffer = device.allocate(4L * length);
        for (int x = 0; x < length; x++) {
            buffer.setFloat(x, x < values.length ? values[x] : 0f);
        }
        return scheduler.track(name, buffer, 4L * length);
    }

    private TrackedArray ints(String name, int[] values, int length) {
        UnifiedBuffer buffer = device.allocate(4L * length);
        for (int x = 0; x < length; x++) {
            buffer.setInt(x, x < values.length ? values[x] : 0);
        }
        return scheduler.track(name, buffer, 4L * length);
    }

    /** Allocates the C tiles of a new round (released by {@link #release}). */
    Round newRound(String tag) {
        List<Launch> launches = new ArrayList<>();
        int tileBytes = 4 * matrices.tileFloats();
        for (int i = 0; i < matrices.tiles(); i++) {
            for (int j = 0; j < matrices.tiles(); j++) {
                UnifiedBuffer buffer = device.allocate(tileBytes);
                TrackedArray c = scheduler.track("C(" + i + "," + j + ")" + tag, buffer, tileBytes);
                launches.add(new Launch(i, j, (double) matrices.products(i) * msPerProduct, c));
            }
        }
        return new Round(launches);
    }

    /**
     * Fills the round's C tiles with NaN (a tile no kernel wrote cannot pass the check) and submits its kernels
     * in row-major order. Call with no work of the round outstanding.
     */
    void submit(Round round) {
        for (Launch l : round.launches()) {
            UnifiedBuffer c = l.c.buffer();
            for (int x = 0; x < matrices.tileFloats(); x++) {
                c.setFloat(x, Float.NaN);
            }
            placement.watch(l);
        }
        int ts = matrices.tileSize();
        LaunchConfig launch = new LaunchConfig(Dim3.of(kernelBlocks), Dim3.of(ts, ts / kernelBlocks), 0);
        for (Launch l : round.launches()) {
            TrackedArray a = packedRows.get(l.i);
            TrackedArray ks = columns.get(l.i);
            TrackedArray b = bColumns ? bArrays.get(l.j) : bArrays.get(0);
            int products = matrices.products(l.i);
            KernelArgs args = KernelArgs.builder().pointer(a.buffer()).pointer(ks.buffer()).pointer(b.buffer())
                    .pointer(l.c.buffer()).i32(products).i32(bColumns ? 1 : matrices.tiles()).i32(bColumns ? 0 : l.j)
                    .i32(products * msPerProduct).build();
            scheduler.submit(ComputationalElement.kernel(KERNEL, List.of(new Access(a, AccessMode.READ),
                    new Access(ks, AccessMode.READ), new Access(b, AccessMode.READ), new Access(l.c,
                    AccessMode.WRITE)), new Work.Kernel(kernel, launch, args, KERNEL_SOURCE), null));
        }
    }

    /**
     * Checks every C tile of the round against {@code reference} (the plain-Java product, n × n row-major),
     * bit for bit; throws naming the first wrong element, the member that computed it, and the run.
     */
    void verify(Round round, float[] reference, String run) {
        int ts = matrices.tileSize();
        for (Launch l : round.launches()) {
            if (l.failure != null) {
                throw new IllegalStateException(run + ": the kernel of C tile (" + l.i + ", " + l.j + ") failed on "
                        + where(l) + ": " + l.failure);
            }
            float[] expected = matrices.tileOf(reference, l.i, l.j);
            UnifiedBuffer c = l.c.buffer();
            for (int x = 0; x < expected.length; x++) {
                float got = c.getFloat(x);
                if (Float.floatToIntBits(got) != Float.floatToIntBits(expected[x])) {
                    throw new IllegalStateException(run + ": WRONG RESULT in C tile (" + l.i + ", " + l.j
                            + ") at element (" + x / ts + ", " + x % ts + "): got " + got + ", plain Java gives "
                            + expected[x] + " (computed on " + where(l) + ")");
                }
            }
        }
    }

    private static String where(Launch l) {
        return l.member == null ? "the program's member" : "member " + l.member;
    }

    /** Stops watching the round and frees its C tiles. */
    void release(Round round) {
        for (Launch l : round.launches()) {
            placement.forget(l);
            scheduler.release(l.c);
            l.c.buffer().free();
        }
    }

    @Override
    public void close() {
        try {
            node.close();
        } finally {
            try {
                scheduler.close();
            } finally {
                device.close();
            }
        }
    }
}
