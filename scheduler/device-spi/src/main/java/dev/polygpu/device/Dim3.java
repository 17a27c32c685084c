package dev.polygpu.device;

/** CUDA's {@code dim3}: three positive extents; unspecified ones are 1. */
public record Dim3(int x, int y, int z) {
    public Dim3 {
        if (x <= 0 || y <= 0 || z <= 0) {
            throw new DeviceException(CudaError.INVALID_VALUE,
                    "dim3 extents must be positive, got (" + x + ", " + y + ", " + z + ")");
        }
    }

    public static Dim3 of(int x) {
        return new Dim3(x, 1, 1);
    }

    public static Dim3 of(int x, int y) {
        return new Dim3(x, y, 1);
    }

    /** x * y * z as a long (grids may exceed an int). */
    public long volume() {
        return (long) x * y * z;
    }

    @Override
    public String toString() {
        return "(" + x + ", " + y + ", " + z + ")";
    }
}
