package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelParam;
import java.util.List;

/**
 * A kernel the CPU device runs block by block: one compiled by the kernel engine into JVM code, or one of a
 * loaded PTX module, which {@code device.cpu.ptx} interprets. Immutable and shareable across threads; each
 * worker thread that runs blocks takes its own {@link BlockRunner}.
 */
public interface CompiledKernel {

    /** The name it is looked up by ({@code saxpy}, {@code k<float>}). */
    String name();

    List<KernelParam> parameters();

    /**
     * For a kernel of precompiled code (PTX), its parameters as the image declares them, which launches are
     * checked against; empty for kernels compiled from source, whose {@link #parameters()} say more.
     */
    default List<ImageParam> imageParameters() {
        return List.of();
    }

    /** Bytes of the statically declared {@code __shared__} arrays. */
    int staticSharedBytes();

    /** True if the kernel has block barriers or warp intrinsics (threads of a block are interleaved). */
    boolean cooperative();

    /** How the kernel engine runs a block's threads. */
    enum Form {
        /** No barriers: one loop runs each thread from start to end. */
        THREAD_LOOP,
        /**
         * Only {@code __syncthreads()} in block-uniform control flow: each stretch between barriers is one loop over
         * the block's threads.
         */
        BARRIER_REGIONS,
        /** Other yield points: a state machine that suspends and resumes each thread at each of them. */
        COOPERATIVE,
        /** Not compiled by the kernel engine (PTX, run by its interpreter). */
        OTHER
    }

    /** How the kernel engine runs this kernel's blocks; {@link Form#OTHER} for kernels it did not compile. */
    default Form form() {
        return Form.OTHER;
    }

    /**
     * True if the kernel may call {@code printf} or fail an {@code assert}: its launches then collect output
     * ({@link PrintfOutput}); other launches allocate nothing for it.
     */
    default boolean prints() {
        return false;
    }

    /** A runner for one worker thread; it keeps per-thread scratch state (shared memory, saved registers). */
    BlockRunner newRunner();

    /**
     * Keeps the memory of the module's {@code __device__} and {@code __constant__} variables allocated until
     * {@link #unpinModuleMemory()}: the device calls it when it queues a launch, and the other when the launch
     * has run, so that closing the module never frees memory a launch may still touch. Throws {@code
     * DeviceException} INVALID_HANDLE once the module was released. Nothing to keep by default.
     */
    default void pinModuleMemory() {
    }

    /** Ends a {@link #pinModuleMemory()}. */
    default void unpinModuleMemory() {
    }
}
