package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.KernelFault;
import dev.polygpu.device.cpu.kernel.LaunchCancellation;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import dev.polygpu.device.cpu.kernel.PrintfOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * One kernel launch in execution: hands out the blocks of the grid in chunks to the {@link WorkerPool} and
 * tells the stream's dispatcher when every block has run or the launch stopped at a fault.
 *
 * <p>Implementation notes: blocks are numbered linearly, x fastest; {@link #next} is the first block not yet
 * claimed, and a chunk is claimed with one {@code getAndAdd}, so every block runs at most once and, without a
 * fault, exactly once. {@link #tasks} counts chunk tasks that are queued or running; a task that finds no
 * more work (or a fault) leaves without re-queueing itself, and the last one out opens {@link #done}. So when
 * {@code done} opens every claimed chunk has finished. Tasks queue at the pool with the stream's priority. The first fault wins the {@link #fault} CAS and sets
 * {@link #stopped}, after which no task starts another block; blocks already running finish. Each worker runs
 * blocks with its own runner from its {@link RunnerCache}; nothing else is shared between workers. A kernel
 * that prints gets a {@link PrintfOutput} per launch, each chunk a writer of its own; the output is written to
 * the sink after {@code done} opens and before {@link #run} returns, so before the launch is reported complete.
 * Inside a chunk the runner is first asked to run stretches of consecutive blocks of one row of the grid at once
 * ({@link BlockRunner#runBlocks}: element-wise kernels do, as one run of SIMD lanes); the first stretch it runs in
 * part or not at all turns the rest of the chunk to one block at a time. The stop request is polled before each
 * stretch and each block.
 *
 * <p>In chaos mode the chunks still are claimed in order through {@link #next}, but the claimed number is
 * mapped to a chunk by a random affine permutation ({@code c -> (c * chunkMul + chunkAdd) mod chunkCount} with
 * {@code chunkMul} coprime to {@code chunkCount}), so the grid runs in a scrambled chunk order; since the map
 * is a bijection every block still runs exactly once. Workers may also pause briefly between chunks. CUDA
 * promises no order between the blocks of a grid, so neither changes a correct program's result.
 */
final class GridLaunch {
    /** Chunks per worker thread: enough for load balance and for launches to interleave, few enough to be cheap. */
    static final int CHUNKS_PER_WORKER = 8;
    /**
     * Threads in the longest stretch of blocks a runner is asked to run at once ({@link BlockRunner#runBlocks}):
     * long enough that a stretch's checks cost nothing beside its work, short enough that a stop request waits
     * well under a millisecond.
     */
    static final int STRETCH_THREADS = 1 << 16;

    private final CompiledKernel kernel;
    private final LaunchFrame frame;
    private final WorkerPool pool;
    /** The launching stream's priority: where the chunk tasks queue at the pool. */
    private final int priority;
    private final long totalBlocks;
    private final long chunk;
    private final int gridX;
    private final int gridY;
    /** The chunk permutation's multiplier; 0 when not in chaos mode (no permutation). */
    private final long chunkMul;
    private final long chunkAdd;
    private final long chunkCount;
    private final AtomicLong next = new AtomicLong();
    private final AtomicInteger tasks = new AtomicInteger();
    private final AtomicReference<KernelFaultException> fault = new AtomicReference<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean stopped;
    /** Null unless the kernel prints. */
    private final PrintfOutput output;
    private static final System.Logger LOG = System.getLogger(GridLaunch.class.getName());

    /**
     * A launch of {@code kernel} on {@code pool} from a stream of {@code priority} (numerically lower is higher:
     * its chunks are taken before those of lower-priority launches); {@code chaos} is the launching stream's
     * chaos choices, null unless the device is in chaos mode.
     */
    GridLaunch(CompiledKernel kernel, LaunchFrame frame, WorkerPool pool, int priority, ChaosRandom chaos) {
        this.kernel = kernel;
        this.frame = frame;
        this.pool = pool;
        this.priority = priority;
        this.output = kernel.prints() ? new PrintfOutput(frame.kernelName(), PrintfOutput.FIFO_BYTES) : null;
        Dim3 grid = frame.grid();
        this.totalBlocks = grid.volume();
        this.gridX = grid.x();
        this.gridY = grid.y();
        long chunks = (long) pool.threads() * CHUNKS_PER_WORKER;
        this.chunk = Math.max(1, (totalBlocks + chunks - 1) / chunks);
        this.chunkCount = (totalBlocks + chunk - 1) / chunk;
        if (chaos == null) {
            this.chunkMul = 0;
            this.chunkAdd = 0;
        } else {
            // chunkCount <= threads * CHUNKS_PER_WORKER, so c * chunkMul cannot overflow.
            long mul = 1;
            for (int tries = 0; tries < 16 && chunkCount > 2; tries++) {
                long m = 1 + chaos.nextLong(chunkCount - 1);
                if (gcd(m, chunkCount) == 1) {
                    mul = m;
                    break;
                }
            }
            this.chunkMul = mul;
            this.chunkAdd = chunkCount > 1 ? chaos.nextLong(chunkCount) : 0;
        }
    }

    /**
     * Runs the grid on the pool and waits for it, then writes the kernel's printf output to {@code sink} (read
     * then, once); returns the first fault, or null when every block ran. With {@code timeoutNanos > 0}, a grid
     * still running that long after its start is stopped ({@link LaunchCancellation}) and fails with
     * LAUNCH_TIMEOUT; a launch stopped before it starts fails at once. Called by the stream's dispatcher.
     */
    KernelFaultException run(Supplier<OutputStream> sink, long timeoutNanos) {
        LaunchCancellation cancel = frame.cancellation();
        if (cancel.requested()) {
            return stoppedBefore(0);
        }
        int initial = (int) Math.min(pool.threads(), chunkCount);
        tasks.set(initial);
        for (int i = 0; i < initial; i++) {
            submit(new ChunkTask());
        }
        if (timeoutNanos > 0 && !awaitUninterruptibly(done, timeoutNanos)) {
            cancel.cancel(CudaError.LAUNCH_TIMEOUT, "ran longer than the kernel time limit of "
                    + limitText(timeoutNanos));
        }
        awaitUninterruptibly(done);
        if (output != null) {
            try {
                output.writeTo(sink.get());
            } catch (IOException | RuntimeException e) {
                // The kernel ran; losing its output is reported, not turned into a kernel failure.
                LOG.log(System.Logger.Level.WARNING, "could not write the printf output of kernel '"
                        + frame.kernelName() + "': " + e);
            }
        }
        return fault.get();
    }

    private void submit(ChunkTask task) {
        try {
            pool.execute(task, priority);
        } catch (RejectedExecutionException e) {
            fail(new KernelFaultException(CudaError.LAUNCH_FAILED, frame.kernelName(), "kernel '"
                    + frame.kernelName() + "' failed: the device's worker pool was shut down"));
            leave();
        }
    }

    private void fail(KernelFaultException e) {
        if (fault.compareAndSet(null, e)) {
            stopped = true;
        }
    }

    private void leave() {
        if (tasks.decrementAndGet() == 0) {
            done.countDown();
        }
    }

    /** Runs the blocks of one claimed chunk on the calling worker thread. */
    private void runChunk(long first, long end) {
        PrintfOutput.Writer writer = output == null ? null : output.writer(first);
        BlockRunner runner = null;
        try {
            runner = WorkerThread.currentRunners().runner(kernel);
            if (writer != null) {
                runner.printTo(writer);
            }
            LaunchCancellation cancel = frame.cancellation();
            int stretch = (int) Math.max(1, STRETCH_THREADS / frame.block().volume());
            long b = first;
            while (b < end && !stopped) {
                if (cancel.requested()) {
                    fail(stoppedBefore(b));
                    break;
                }
                int bx = (int) (b % gridX);
                long rest = b / gridX;
                int by = (int) (rest % gridY);
                int bz = (int) (rest / gridY);
                int blocks = (int) Math.min(Math.min(end - b, gridX - bx), stretch);
                if (blocks > 1) {
                    int ran = runner.runBlocks(frame, bx, by, bz, blocks);
                    b += ran;
                    if (ran == blocks) {
                        continue;
                    }
                    // Refused at ran: the rest of the chunk runs block by block, without asking again.
                    stretch = 1;
                    if (ran > 0) {
                        continue;
                    }
                }
                runner.runBlock(frame, bx, by, bz);
                b++;
            }
        } catch (KernelFault f) {
            fail(new KernelFaultException(f.error(), frame.kernelName(), f.getMessage()));
        } catch (RuntimeException | Error e) {
            // Anything else is a bug in the engine or the runtime: the launch fails, the worker thread lives on.
            // (A buffer cannot be freed under a running kernel: launches pin their buffers.) The cause stays
            // attached so that whoever reports the failure can tell such a bug from a fault of the kernel.
            KernelFaultException bug = new KernelFaultException(CudaError.LAUNCH_FAILED, frame.kernelName(),
                    "kernel '" + frame.kernelName() + "' failed: " + e);
            bug.initCause(e);
            fail(bug);
        } finally {
            if (runner != null) {
                runner.finishChunk();
            }
            if (writer != null) {
                if (runner != null) {
                    runner.printTo(null);
                }
                writer.close();
            }
        }
    }

    /**
     * A worker's turn at the launch: one chunk, then back to the pool's queue if work remains, behind the tasks
     * of equal or higher priority.
     */
    private final class ChunkTask implements Runnable {
        @Override
        public void run() {
            long first = stopped ? totalBlocks : next.getAndAdd(chunk);
            if (first >= totalBlocks || first < 0) { // < 0: the counter overflowed past a grid of ~2^63 blocks
                leave();
                return;
            }
            if (chunkMul != 0) {
                first = (first / chunk * chunkMul + chunkAdd) % chunkCount * chunk;
            }
            runChunk(first, Math.min(totalBlocks, first + chunk));
            if (chunkMul != 0) {
                WorkerThread.currentChaos().maybeBriefPause();
            }
            if (stopped || next.get() >= totalBlocks) {
                leave();
            } else {
                submit(this);
            }
        }
    }

    /** The fault of a launch stopped before block {@code b} (linear) started. */
    private KernelFaultException stoppedBefore(long b) {
        LaunchCancellation.Stop stop = frame.cancellation().stop();
        String where = b == 0 ? "before it started" : "before block " + b + " of " + totalBlocks + " started";
        return new KernelFaultException(stop.error(), frame.kernelName(), "kernel '" + frame.kernelName()
                + "' stopped " + where + ": " + stop.reason());
    }

    /** A time limit as a user wrote it: whole milliseconds, or seconds with a fraction. */
    static String limitText(long nanos) {
        if (nanos % 1_000_000 == 0) {
            return nanos / 1_000_000 + " ms";
        }
        return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + " s";
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** Waits up to {@code nanos} for {@code latch}, keeping an interrupt for later; true if it opened. */
    static boolean awaitUninterruptibly(CountDownLatch latch, long nanos) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + nanos;
        try {
            while (true) {
                try {
                    return latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
