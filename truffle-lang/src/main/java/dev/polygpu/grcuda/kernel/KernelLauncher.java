package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.DeviceException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.Work;

/**
 * The one place where a kernel launch leaves the language: it becomes a computational element of the
 * context's scheduler, with the arrays and how the kernel's signature says it uses them. Under the async
 * policy control returns once the element is queued; under sync once it completed. Nothing else launches
 * kernels.
 */
final class KernelLauncher {
    private KernelLauncher() {
    }

    @TruffleBoundary
    static void launch(GrContext context, GrKernel kernel, LaunchSettings settings, ArgumentConverter.Converted args) {
        NidlSignature signature = kernel.signature();
        Work.Kernel work = new Work.Kernel(kernel.function(), settings.config(), args.args(), kernel.kernelSource());
        ComputationalElement element = ComputationalElement.kernel(signature.name(), args.accesses(), work,
                settings.stream());
        try {
            context.scheduler().submit(element);
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }
}
