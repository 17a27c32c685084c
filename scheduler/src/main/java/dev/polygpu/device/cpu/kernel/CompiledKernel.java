package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.KernelParam;
import java.util.List;

/**
 * A kernel compiled by the kernel engine into JVM code. Immutable and shareable across threads; each worker
 * thread that runs blocks takes its own {@link BlockRunner}.
 */
public interface CompiledKernel {

    /** The name it is looked up by ({@code saxpy}, {@code k<float>}). */
    String name();

    List<KernelParam> parameters();

    /** Bytes of the statically declared {@code __shared__} arrays. */
    int staticSharedBytes();

    /** True if the kernel has block barriers or warp intrinsics (threads of a block are interleaved). */
    boolean cooperative();

    /** A runner for one worker thread; it keeps per-thread scratch state (shared memory, saved registers). */
    BlockRunner newRunner();
}
