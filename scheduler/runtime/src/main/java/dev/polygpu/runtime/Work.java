package dev.polygpu.runtime;

import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.util.BitSet;
import java.util.List;

/**
 * What a device-side computational element runs once the scheduler has chosen its stream. Immutable.
 */
public sealed interface Work {

    /** Queues the work on {@code stream}; argument errors are thrown here, failures while running are not. */
    void enqueue(Stream stream);

    /** A kernel launch; {@code source} (nullable) lets a cluster layer rebuild the kernel elsewhere. */
    record Kernel(KernelFunction function, LaunchConfig config, KernelArgs args, KernelSource source)
            implements Work {
        @Override
        public void enqueue(Stream stream) {
            stream.launch(function, config, args);
        }

        /**
         * This launch with its pointer arguments into arrays that {@code accesses} only read marked {@linkplain
         * KernelArgs#isReadOnly read-only}, and no others: what the scheduler lets run beside other readers of
         * those arrays must not write them, and a device that checks (the CPU device) then fails a kernel that
         * does. A pointer is matched to its array by buffer; one into an array the element also writes (the same
         * array passed for an {@code in} and an {@code inout} parameter), or into a buffer no access names, stays
         * writable. Itself when nothing changes, which is the common case of an element with no read-only array.
         */
        public Kernel markReadOnly(List<Access> accesses) {
            BitSet marks = null;
            List<KernelArg> list = args.list();
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) instanceof KernelArg.Pointer p && p.buffer() != null
                        && onlyRead(p.buffer(), accesses)) {
                    if (marks == null) {
                        marks = new BitSet(list.size());
                    }
                    marks.set(i);
                }
            }
            if (marks == null && !args.hasReadOnly()) {
                return this;
            }
            return new Kernel(function, config, args.withReadOnly(marks == null ? new BitSet() : marks), source);
        }

        private static boolean onlyRead(UnifiedBuffer buffer, List<Access> accesses) {
            boolean read = false;
            for (Access a : accesses) {
                if (a.array().buffer() == buffer) {
                    if (a.mode().writes()) {
                        return false;
                    }
                    read = true;
                }
            }
            return read;
        }
    }

    /** A device copy of {@code bytes} bytes between buffers (cuMemcpyAsync). */
    record Copy(UnifiedBuffer dst, long dstOffset, UnifiedBuffer src, long srcOffset, long bytes) implements Work {
        @Override
        public void enqueue(Stream stream) {
            stream.copy(dst, dstOffset, src, srcOffset, bytes);
        }
    }

    /** A device fill of {@code bytes} bytes with {@code value} (cuMemsetD8Async). */
    record Fill(UnifiedBuffer dst, long offset, long bytes, byte value) implements Work {
        @Override
        public void enqueue(Stream stream) {
            stream.fill(dst, offset, bytes, value);
        }
    }

    /**
     * The work of a {@linkplain ComputationalElement#hostCall host call}: it runs on the thread that calls {@link
     * Scheduler#callOnHost}, which supplies what runs, so there is nothing to queue on a stream.
     */
    enum HostCall implements Work {
        INSTANCE;

        @Override
        public void enqueue(Stream stream) {
            throw new IllegalStateException("a host call runs on the thread that calls Scheduler.callOnHost, never"
                    + " on a stream");
        }
    }

    /** A prefetch of a buffer range to the device (cuMemPrefetchAsync). */
    record Prefetch(UnifiedBuffer buffer, long offset, long bytes) implements Work {
        @Override
        public void enqueue(Stream stream) {
            stream.prefetch(buffer, offset, bytes);
        }
    }
}
