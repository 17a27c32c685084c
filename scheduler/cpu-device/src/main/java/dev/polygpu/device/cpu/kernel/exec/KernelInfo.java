package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import java.util.List;

/**
 * What the runtime needs to know about a generated kernel besides its code: names for fault messages, the
 * shared-memory layout, the number of saved registers of a cooperative kernel and its yield sites.
 *
 * @param kernelName      the name the kernel is looked up by
 * @param sharedNames     names of the {@code __shared__} variables, by shared slot
 * @param sharedOffsets   byte offset of each shared slot in the block's shared memory; -1 for extern shared
 * @param sharedSizes     byte size of each shared slot (extern: 0, sized by the launch)
 * @param staticShared    bytes of static shared memory (extern shared starts here)
 * @param localNames      names of local arrays and in-memory scalars, by local-memory slot
 * @param localSizes      byte sizes of the local-memory slots
 * @param primSlots       number of saved primitive registers per thread (cooperative and region kernels)
 * @param refSlots        number of saved reference registers per thread (cooperative and region kernels)
 * @param sites           the yield sites of a cooperative kernel (none in the barrier-region form)
 * @param regions         true for a kernel compiled to the barrier-region form: its {@code runBlock} runs each
 *                        region between barriers as a loop over the block's threads, which keep their variables
 *                        in the saved registers and their local memory per thread
 * @param swept           true for a kernel without barriers that has a second method, {@code runBlockSwept}, in
 *                        the region form with its strided loops run iteration-major; the runner picks one of the
 *                        two per launch
 * @param memory          the module's {@code __device__} and {@code __constant__} variables
 */
public record KernelInfo(
        String kernelName,
        List<String> sharedNames,
        int[] sharedOffsets,
        int[] sharedSizes,
        int staticShared,
        List<String> localNames,
        int[] localSizes,
        int primSlots,
        int refSlots,
        List<Site> sites,
        boolean regions,
        boolean swept,
        ModuleMemory memory) {

    /** A yield point: which intrinsic, and where in the source (for messages). */
    public record Site(Intrinsic intrinsic, int line, int column) {
        public String describe() {
            return intrinsic.cudaName + " at line " + line;
        }
    }

    /** True for a kernel run as a state machine by the cooperative scheduler. */
    public boolean cooperative() {
        return !sites.isEmpty();
    }

    /**
     * True if the block's threads may interleave (cooperative or region kernels, or one with a swept form): each has
     * its own local memory and saved registers ({@link BlockState#byTid} says whether the code running now names the
     * running thread by {@link BlockState#tid}).
     */
    public boolean perThread() {
        return regions || swept || !sites.isEmpty();
    }
}
