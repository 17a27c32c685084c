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

    /**
     * Compiles CUDA C source (what one passes to NVRTC) into a module. {@code fileName} names the source in
     * diagnostics. Throws {@link CompileException} with line and column for source that does not compile.
     */
    Module compile(String source, String fileName);

    /** The default stream (stream 0). */
    Stream defaultStream();

    /** A new stream that does not synchronize with the default stream (CU_STREAM_NON_BLOCKING). */
    Stream createStream();

    /** A new event; with {@code timing} it records timestamps for {@link Event#elapsedMillisSince}. */
    Event createEvent(boolean timing);

    /** Blocks until all work on all streams has completed; throws the first unreported failure. */
    void synchronize();

    /** Waits for all work, then releases the device's resources. */
    @Override
    void close();
}
