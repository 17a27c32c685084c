package dev.polygpu.device;

/**
 * A device that runs CUDA C kernels: a GPU through the CUDA driver API, or the CPU device. The methods mirror
 * the driver API so that both backends implement them without translation; operations that take time are on
 * {@link Stream}. Errors are {@link DeviceException}s with CUDA-like codes.
 *
 * <p>Thread-safety: all methods may be called from any thread.
 */
public interface Device extends AutoCloseable {

    /** The device's ordinal among the devices of its backend. */
    int ordinal();

    /** "cpu" or "cuda". */
    String backend();

    DeviceProperties properties();

    /** Allocates unified memory, zero-filled. Throws OUT_OF_MEMORY with the size asked for when it cannot. */
    UnifiedBuffer allocate(long bytes);

    /** The bytes of the buffers {@link #allocate} returned that are not freed yet (for tests and diagnostics). */
    long allocatedBytes();

    /**
     * The bytes of memory the device has free now (the first result of {@code cuMemGetInfo}); the CPU device
     * counts its total memory less the bytes of its live buffers.
     */
    long freeMemory();

    /**
     * Compiles CUDA C source (what one passes to NVRTC) into a module. {@code fileName} names the source in
     * diagnostics. Throws {@link CompileException} with line and column for source that does not compile.
     */
    Module compile(String source, String fileName);

    /**
     * Loads precompiled device code as {@code cuModuleLoadData} does: PTX (text, {@code .version}/{@code
     * .target}/{@code .entry} directives) or a cubin (an ELF image of machine code for one GPU architecture).
     * {@code fileName} names the image in messages. Kernels are found by {@link Module#function} by their {@code
     * extern "C"} name, their mangled name, or their C++ name ({@code ns::k}, {@code k<float>}) matched against
     * the image's mangled names; their {@link KernelFunction#parameters()} are empty and {@link
     * KernelFunction#imageParameters()} gives what the image declares. {@link Module#intermediateCode()} is the
     * PTX text for a PTX image, null for a cubin.
     *
     * <p>The default serves devices that run no precompiled code.
     *
     * @throws DeviceException NOT_SUPPORTED where this device cannot run that kind of image, saying what it can
     *         run instead; INVALID_IMAGE or INVALID_PTX, naming the file, for an image it cannot read (with the
     *         line for PTX); NO_BINARY_FOR_GPU for a cubin built for another architecture
     */
    default Module load(byte[] image, String fileName) {
        throw new DeviceException(CudaError.NOT_SUPPORTED, backend() + " device " + ordinal() + " cannot load "
                + "precompiled code (" + fileName + "); compile the kernel's CUDA C source instead");
    }

    /** The default stream (stream 0). */
    Stream defaultStream();

    /** A new stream that does not synchronize with the default stream (CU_STREAM_NON_BLOCKING). */
    Stream createStream();

    /**
     * The stream priorities this device offers (cuCtxGetStreamPriorityRange); (0, 0) unless it has priorities.
     * Streams created without a priority, and the default stream, have priority {@link StreamPriorities#least()}.
     */
    default StreamPriorities streamPriorities() {
        return StreamPriorities.NONE;
    }

    /**
     * A new stream as {@link #createStream()}, with {@code priority} (cuStreamCreateWithPriority): numerically
     * lower is higher, and a priority outside {@link #streamPriorities()} is clamped into it, as CUDA does.
     * Where the device has blocks of several launches to start, it starts those of higher-priority streams
     * first; a running block is not preempted.
     *
     * <p>The default serves devices without priorities (range (0, 0)): it returns {@link #createStream()}. A
     * device that reports a wider range must override it.
     *
     * @throws DeviceException NOT_SUPPORTED if the device reports priorities but does not override this
     */
    default Stream createStream(int priority) {
        StreamPriorities range = streamPriorities();
        if (range.levels() == 1) {
            return createStream();
        }
        throw new DeviceException(CudaError.NOT_SUPPORTED, backend() + " device " + ordinal() + " reports stream "
                + "priorities " + range + " but cannot create a stream with one");
    }

    /** A new event; with {@code timing} it records timestamps for {@link Event#elapsedMillisSince}. */
    Event createEvent(boolean timing);

    /** Blocks until all work on all streams has completed; throws the first unreported failure. */
    void synchronize();

    /**
     * Stops every launch queued or running now: each fails with LAUNCH_FAILED and a fault that names the kernel and
     * {@code reason}; the device goes on with later work. Returns at once, with how many launches it stopped.
     *
     * <p>The default serves devices whose running kernels cannot be stopped from the host (a GPU): it stops none.
     */
    default int stopLaunches(String reason) {
        return 0;
    }

    /**
     * As {@link #stopLaunches}, and every launch queued later fails the same way without running: for a device
     * about to be closed whose work nobody will wait for. The default stops none, as {@link #stopLaunches}'s does.
     */
    default void stopAllLaunches(String reason) {
    }

    /** Waits for all work, then releases the device's resources. */
    @Override
    void close();
}
