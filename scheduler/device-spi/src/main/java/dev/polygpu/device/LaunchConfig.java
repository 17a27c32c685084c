package dev.polygpu.device;

/** Grid and block extents and the bytes of dynamic ({@code extern __shared__}) shared memory of a launch. */
public record LaunchConfig(Dim3 grid, Dim3 block, int dynamicSharedBytes) {
    public LaunchConfig {
        if (grid == null || block == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "a launch needs both a grid and a block size");
        }
        if (dynamicSharedBytes < 0) {
            throw new DeviceException(CudaError.INVALID_VALUE,
                    "dynamic shared memory must not be negative, got " + dynamicSharedBytes);
        }
    }

    public static LaunchConfig of(int gridX, int blockX) {
        return new LaunchConfig(Dim3.of(gridX), Dim3.of(blockX), 0);
    }

    /** Checks the extents against the device's limits, as cuLaunchKernel does, with a message naming the limit. */
    public void validate(DeviceProperties p, int staticSharedBytes) {
        long threads = block.volume();
        if (threads > p.maxThreadsPerBlock()) {
            throw invalid("block " + block + " has " + threads + " threads; the device allows at most "
                    + p.maxThreadsPerBlock() + " per block");
        }
        check("block", block, p.maxBlockDimX(), p.maxBlockDimY(), p.maxBlockDimZ());
        check("grid", grid, p.maxGridDimX(), p.maxGridDimY(), p.maxGridDimZ());
        long shared = (long) staticSharedBytes + dynamicSharedBytes;
        if (shared > p.sharedMemoryPerBlock()) {
            throw new DeviceException(CudaError.INVALID_VALUE, "the launch needs " + shared
                    + " bytes of shared memory (" + staticSharedBytes + " static + " + dynamicSharedBytes
                    + " dynamic); the device allows " + p.sharedMemoryPerBlock() + " per block");
        }
    }

    private static void check(String what, Dim3 d, int mx, int my, int mz) {
        if (d.x() > mx || d.y() > my || d.z() > mz) {
            throw invalid(what + " " + d + " exceeds the device's maximum " + what + " extents ("
                    + mx + ", " + my + ", " + mz + ")");
        }
    }

    private static DeviceException invalid(String message) {
        return new DeviceException(CudaError.INVALID_VALUE, message);
    }
}
