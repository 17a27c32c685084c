package dev.polygpu.device.cuda;

import dev.polygpu.device.Module;

/**
 * A module whose code the CUDA driver has loaded ({@code cuModuleLoadData…}), whether compiled from CUDA C
 * ({@link CudaModule}) or loaded precompiled ({@link CudaImageModule}); what its {@link CudaFunction}s ask of it.
 */
interface DriverModule extends Module {

    /** Whether {@link #close()} has unloaded its code. */
    boolean isClosed();

    /** The file name it was made from, for messages. */
    String fileName();
}
