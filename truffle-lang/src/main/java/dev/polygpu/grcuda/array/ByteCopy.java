package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.ArgumentConverter;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.Work;

/**
 * A copy of bytes between two device memories (arrays, raw memory, addresses inside either), as
 * {@code cudaMemcpy}, {@code cudaMemcpyAsync} and an array's {@code copyFrom}/{@code copyTo} of raw memory do
 * it: checked against both memories' sizes, then submitted as a copy element ordered after the work on both.
 */
public final class ByteCopy {
    private ByteCopy() {
    }

    /**
     * Submits the copy of {@code bytes} bytes from {@code src} to {@code dst} on {@code stream} (null: the
     * scheduler chooses) and returns without waiting; {@code function} names the copy in messages and traces.
     */
    @TruffleBoundary
    public static void submit(Scheduler scheduler, String function, GrDeviceMemory dst, GrDeviceMemory src, long bytes,
            Stream stream) {
        check(function, dst, "destination", bytes);
        check(function, src, "source", bytes);
        if (bytes == 0) {
            return;
        }
        UnifiedBuffer d = dst.buffer();
        UnifiedBuffer s = src.buffer();
        if (d == s && dst.byteOffset() < src.byteOffset() + bytes && src.byteOffset() < dst.byteOffset() + bytes) {
            throw GrError.of(function + ": the source " + src.describe() + " and the destination " + dst.describe()
                    + " overlap within " + bytes + " bytes; CUDA leaves the result of such a copy undefined."
                    + " Copy through a temporary array");
        }
        Work.Copy work = new Work.Copy(d, dst.byteOffset(), s, src.byteOffset(), bytes);
        try {
            scheduler.submit(ComputationalElement.copy(function, dst.tracked(), src.tracked(), work, stream));
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    private static void check(String function, GrDeviceMemory m, String role, long bytes) {
        if (m.isFreed()) {
            throw GrError.of(function + ": the " + role + " " + m.describe() + " was freed");
        }
        if (!m.isContiguous()) {
            throw GrError.of(function + ": the " + role + " is " + ArgumentConverter.notContiguous("the copy"));
        }
        if (bytes < 0) {
            throw GrError.of(function + ": the byte count must not be negative, got " + bytes);
        }
        if (bytes > m.byteCount()) {
            throw GrError.of(function + ": cannot copy " + bytes + " bytes; the " + role + " " + m.describe()
                    + " has " + m.byteCount() + " bytes from there on");
        }
    }
}
