package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.LaunchFrame;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A kernel ({@code .entry}) of a loaded PTX module, run by the CPU device's worker pool block by block like a
 * kernel compiled from CUDA C: each worker interprets blocks with its own {@link PtxBlockRunner}. Immutable
 * and shareable across threads. Its {@link #parameters()} are empty (PTX does not say which parameters are
 * pointers); {@link #imageParameters()} gives their sizes, which launches are checked against.
 */
final class PtxKernel implements CompiledKernel {
    private final String name;
    private final PtxModule module;
    private final PtxFunction entry;
    private final int[] paramOffsets;
    private final long localPerThread;

    PtxKernel(String name, PtxModule module, PtxFunction entry, long localPerThread) {
        this.name = name;
        this.module = module;
        this.entry = entry;
        this.localPerThread = localPerThread;
        List<ImageParam> params = entry.imageParams;
        this.paramOffsets = new int[params.size()];
        int off = 0;
        for (int i = 0; i < params.size(); i++) {
            off = (int) PtxDecoder.align(off, params.get(i).align());
            paramOffsets[i] = off;
            off += params.get(i).bytes();
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<KernelParam> parameters() {
        return List.of();
    }

    @Override
    public List<ImageParam> imageParameters() {
        return entry.imageParams;
    }

    @Override
    public int staticSharedBytes() {
        return (int) (module.moduleSharedBytes() + entry.ownSharedBytes);
    }

    @Override
    public boolean cooperative() {
        return entry.cooperative;
    }

    /** True if the module calls {@code vprintf} or {@code __assertfail} anywhere (decided for the module). */
    @Override
    public boolean prints() {
        return module.prints();
    }

    @Override
    public BlockRunner newRunner() {
        return new PtxBlockRunner(this);
    }

    PtxFunction entry() {
        return entry;
    }

    String fileName() {
        return module.fileName();
    }

    GlobalMemory global() {
        return module.global();
    }

    GlobalMemory.Region[] moduleRegions() {
        return module.regions();
    }

    long dynamicSharedBase() {
        return module.dynamicSharedBase();
    }

    long localPerThread() {
        return localPerThread;
    }

    /**
     * The launch's parameter block as {@code cuLaunchKernel} packs it: each parameter at its aligned offset, a
     * pointer as the 8-byte address of its buffer plus offset, a scalar as its low bytes (little-endian).
     */
    MemorySegment parameterBlock(LaunchFrame frame) {
        MemorySegment block = MemorySegment.ofArray(new long[(entry.kernelParamBytes + 7) / 8 + 1]);
        List<ImageParam> params = entry.imageParams;
        for (int i = 0; i < params.size(); i++) {
            long bits = frame.segments()[i] != null ? frame.segments()[i].address() + frame.values()[i]
                    : frame.values()[i];
            int bytes = params.get(i).bytes();
            for (int k = 0; k < Math.min(bytes, 8); k++) {
                block.set(java.lang.foreign.ValueLayout.JAVA_BYTE, paramOffsets[i] + k, (byte) (bits >>> (8 * k)));
            }
        }
        return block;
    }

    @Override
    public String toString() {
        return "PTX kernel '" + name + "' (" + entry.name + " of " + module.fileName() + ")";
    }
}
