package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Stream;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrDeviceMemory;
import java.util.List;

/**
 * The one place where a kernel launch leaves the language for the device: the seam where the asynchronous
 * scheduler slots in. Today both execution policies launch on the user's stream, or the default stream
 * when none was given, and synchronize that stream before returning, so a kernel fault is reported by the
 * launch that caused it. The scheduler will replace {@link #launch} with "record a computational element
 * with these arguments and accesses, pick a stream, return"; callers already hand it everything it needs
 * (the array objects and their {@link ArgumentAccess}), and nothing else launches kernels.
 */
public final class KernelLauncher {
    private final GrContext context;

    public KernelLauncher(GrContext context) {
        this.context = context;
    }

    /**
     * Launches {@code function}. {@code arrays} and {@code accesses} are the pointer arguments in parameter
     * order and how the kernel uses them (for the scheduler's dependencies; unused while launches are
     * synchronous).
     */
    @TruffleBoundary
    public void launch(KernelFunction function, LaunchSettings settings, KernelArgs args,
            List<GrDeviceMemory> arrays, List<ArgumentAccess> accesses) {
        Device device = context.device();
        Stream stream = settings.stream() != null ? settings.stream() : device.defaultStream();
        try {
            stream.launch(function, settings.config(), args);
            stream.synchronize();
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }
}
