package dev.polygpu.device.cuda;

import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * Finds out, once per JVM, whether this machine can run kernels on a GPU: JCuda's driver bindings load (they
 * need the NVIDIA driver's {@code libcuda.so.1}), {@code cuInit} succeeds, there is at least one device, and a
 * CUDA C compiler is there ({@link PtxCompiler}). Nothing here throws: every failure, including the
 * {@link LinkageError}s JCuda's class initializer raises without a driver, becomes the {@link Result#reason()}
 * that {@code grcuda.Device=auto} prints when it picks the CPU device and {@code grcuda.Device=cuda} reports.
 */
public final class CudaProbe {
    private static Result result;

    private CudaProbe() {
    }

    /**
     * What was found. {@code devices} describes each device ({@code "0: NVIDIA H100 (compute 9.0, 132
     * multiprocessors)"}); {@code reason} says why the GPU cannot be used when {@code usable} is false, and
     * summarizes what was found otherwise.
     */
    public record Result(boolean usable, List<String> devices, String driver, String compiler, String reason) {
        public Result {
            devices = List.copyOf(devices);
        }
    }

    /** The probe's result, computed on the first call. */
    public static synchronized Result result() {
        if (result == null) {
            result = run();
        }
        return result;
    }

    private static Result run() {
        try {
            JCudaDriver.setExceptionsEnabled(false);
        } catch (Throwable t) {
            // Without libcuda.so.1 the class initializer throws UnsatisfiedLinkError, later uses NoClassDefFoundError.
            return new Result(false, List.of(), "none", "not looked for", "JCuda's CUDA driver bindings could not be"
                    + " loaded (" + rootMessage(t) + "); they need the NVIDIA driver's libcuda.so.1, which is"
                    + " installed with the driver on machines that have an NVIDIA GPU");
        }
        try {
            int status = JCudaDriver.cuInit(0);
            if (status != CUresult.CUDA_SUCCESS) {
                return new Result(false, List.of(), "unknown", "not looked for", "cuInit failed: "
                        + Cuda.describe(status) + (status == CUresult.CUDA_ERROR_NO_DEVICE
                                ? " (the NVIDIA driver is installed but sees no GPU)" : ""));
            }
            String driver = driverVersion();
            int[] count = new int[1];
            Cuda.check(JCudaDriver.cuDeviceGetCount(count), "cuDeviceGetCount");
            if (count[0] == 0) {
                return new Result(false, List.of(), driver, "not looked for", "the NVIDIA driver (" + driver
                        + ") reports no CUDA device");
            }
            List<String> devices = new ArrayList<>();
            for (int i = 0; i < count[0]; i++) {
                devices.add(describeDevice(i));
            }
            PtxCompiler compiler = PtxCompiler.find();
            if (!compiler.available()) {
                return new Result(false, devices, driver, compiler.describe(), "found " + plural(devices.size())
                        + " (" + devices.get(0) + ") but no CUDA C compiler: " + compiler.describe());
            }
            return new Result(true, devices, driver, compiler.describe(), "found " + plural(devices.size()) + " ("
                    + String.join("; ", devices) + "), driver " + driver + ", compiler " + compiler.describe());
        } catch (Throwable t) {
            return new Result(false, List.of(), "unknown", "not looked for", "probing CUDA failed: " + rootMessage(t));
        }
    }

    private static String driverVersion() {
        int[] v = new int[1];
        if (JCudaDriver.cuDriverGetVersion(v) != CUresult.CUDA_SUCCESS) {
            return "unknown";
        }
        return "CUDA " + v[0] / 1000 + "." + v[0] % 1000 / 10;
    }

    private static String describeDevice(int ordinal) {
        CUdevice d = new CUdevice();
        Cuda.check(JCudaDriver.cuDeviceGet(d, ordinal), "cuDeviceGet(" + ordinal + ")");
        return ordinal + ": " + CudaDevice.name(d) + " (compute " + attribute(d,
                CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) + "." + attribute(d,
                CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) + ", " + attribute(d,
                CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) + " multiprocessors)";
    }

    static int attribute(CUdevice d, int attribute) {
        int[] v = new int[1];
        Cuda.check(JCudaDriver.cuDeviceGetAttribute(v, attribute, d), "cuDeviceGetAttribute(" + attribute + ")");
        return v[0];
    }

    private static String plural(int devices) {
        return devices == 1 ? "1 CUDA device" : devices + " CUDA devices";
    }

    /**
     * The innermost cause's class and the line of its message a user can act on. JCuda's loader puts whole stack
     * traces into its message; what matters there is the library the dynamic linker could not open
     * ({@code libcuda.so.1: cannot open shared object file: No such file or directory}).
     */
    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? "" : root.getMessage().strip();
        String marker = ": cannot open shared object file";
        for (String line : message.split("\\R")) {
            int at = line.indexOf(marker);
            if (at > 0) {
                int start = line.lastIndexOf(": ", at - 1);
                return root.getClass().getSimpleName() + ": " + line.substring(start < 0 ? 0 : start + 2).strip();
            }
        }
        int end = message.indexOf('\n');
        return root.getClass().getSimpleName() + (message.isEmpty() ? "" : ": "
                + (end < 0 ? message : message.substring(0, end).strip()));
    }
}
