package dev.polygpu.device.cpu.kernel;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code printf} output of one launch on the CPU device, the counterpart of a GPU's printf FIFO: records
 * (one per call, a byte string as {@code rt.CFormat} makes them) are collected while the kernel runs and
 * {@linkplain #writeTo written} once it has finished. At most {@link #FIFO_BYTES} bytes are kept per launch
 * (CUDA's default {@code cudaLimitPrintfFifoSize}); a record that does not fit is dropped whole and counted, and
 * one line at the end says how many were.
 *
 * <p>Implementation notes: each worker thread writes into a {@link Writer} of its own for the chunk of blocks it
 * runs, so a record is never interleaved with another and appending takes no lock; the only shared state is
 * the byte budget ({@link #used}, reserved per record with one {@code addAndGet}), the drop counter, and the
 * list of finished writers (guarded by itself, touched once per chunk). {@link #writeTo} runs after every
 * chunk has finished, on the stream's dispatcher thread, and orders the writers by their first block, so the
 * blocks' output appears in block order (CUDA promises no order between blocks). Only launches of kernels that
 * call printf (or assert) create one.
 */
public final class PrintfOutput {
    /** CUDA's default {@code cudaLimitPrintfFifoSize}: 1 MiB. */
    public static final int FIFO_BYTES = 1 << 20;

    private final String kernelName;
    private final long capacity;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final List<Writer> finished = new ArrayList<>();

    /** The output of one launch of {@code kernelName}, keeping at most {@code capacity} bytes. */
    public PrintfOutput(String kernelName, long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.kernelName = kernelName;
        this.capacity = capacity;
    }

    /** A writer for the chunk of blocks starting at block {@code order} (linear block index). */
    public Writer writer(long order) {
        return new Writer(order);
    }

    /** Records of one worker thread for one chunk of blocks; not thread-safe. */
    public final class Writer {
        private final long order;
        private final StringBuilder text = new StringBuilder();

        private Writer(long order) {
            this.order = order;
        }

        /** Adds one call's output (a byte string), or counts it as dropped when the launch's budget is spent. */
        public void record(String bytes) {
            long n = bytes.length();
            if (used.addAndGet(n) > capacity) {
                used.addAndGet(-n);
                dropped.incrementAndGet();
                return;
            }
            text.append(bytes);
        }

        /** Hands the records to the launch's output; the writer is not used afterwards. */
        public void close() {
            if (!text.isEmpty()) {
                synchronized (finished) {
                    finished.add(this);
                }
            }
        }
    }

    /** Records dropped so far for want of room. */
    public long dropped() {
        return dropped.get();
    }

    /**
     * Writes every record, in block order, and the drop line if records were dropped, to {@code sink} in one
     * write, and flushes it. Call after the launch's blocks have all finished.
     */
    public void writeTo(OutputStream sink) throws IOException {
        List<Writer> ws;
        synchronized (finished) {
            ws = new ArrayList<>(finished);
        }
        if (ws.isEmpty() && dropped.get() == 0) {
            return;
        }
        ws.sort(Comparator.comparingLong(w -> w.order));
        StringBuilder all = new StringBuilder();
        for (Writer w : ws) {
            all.append(w.text);
        }
        long d = dropped.get();
        if (d > 0) {
            if (!all.isEmpty() && all.charAt(all.length() - 1) != '\n') {
                all.append('\n');
            }
            all.append("[polygpu] kernel '").append(kernelName).append("': ").append(d).append(" printf call")
                    .append(d == 1 ? " was" : "s were").append(" dropped: the launch's output exceeded ")
                    .append(capacity).append(" bytes (cudaLimitPrintfFifoSize, 1 MiB by default on a GPU);"
                            + " print less, or from fewer threads\n");
        }
        synchronized (sink) {
            sink.write(all.toString().getBytes(StandardCharsets.ISO_8859_1));
            sink.flush();
        }
    }
}
