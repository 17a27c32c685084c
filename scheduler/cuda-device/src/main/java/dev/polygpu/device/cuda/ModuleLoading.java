package dev.polygpu.device.cuda;

import dev.polygpu.device.DeviceException;
import jcuda.Pointer;
import jcuda.driver.CUjit_option;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;
import jcuda.driver.JITOptions;

/**
 * Hands device code to the driver ({@code cuModuleLoadDataEx}) with a buffer for the JIT's error log, so that PTX
 * the driver cannot compile fails with what {@code ptxas} said. Shared by modules compiled from CUDA C
 * ({@link CudaModule}) and loaded images ({@link CudaImageModule}). Only used once {@link CudaProbe} has loaded the
 * driver bindings.
 */
final class ModuleLoading {
    private static final int JIT_LOG_BYTES = 16 * 1024;

    private ModuleLoading() {
    }

    /** The kernel name {@code name} as modules look it up (stripped); INVALID_VALUE for none. */
    static String kernelName(String name) {
        if (name == null || name.isBlank()) {
            throw new DeviceException(dev.polygpu.device.CudaError.INVALID_VALUE, "a kernel name is needed, got "
                    + (name == null ? "null" : "'" + name + "'"));
        }
        return name.strip();
    }

    /**
     * Loads {@code image} (PTX ending with a NUL, a cubin or a fatbinary) into the device's context.
     * {@code what} names it for the error ({@code "the PTX of k.cu (compiled by nvcc 13.0)"}).
     */
    static CUmodule load(CudaDevice device, byte[] image, String what) {
        device.bind();
        JITOptions options = new JITOptions();
        options.putBytes(CUjit_option.CU_JIT_ERROR_LOG_BUFFER, new byte[JIT_LOG_BYTES]);
        options.putInt(CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_LOG_BYTES);
        CUmodule handle = new CUmodule();
        int status = JCudaDriver.cuModuleLoadDataJIT(handle, Pointer.to(image), options);
        if (status != 0) {
            String log = options.getString(CUjit_option.CU_JIT_ERROR_LOG_BUFFER);
            DeviceException e = Cuda.error(status, "loading " + what + " on " + device);
            throw new DeviceException(e.error(), e.detail() + (log == null || log.isBlank() ? ""
                    : "\nthe driver's JIT log:\n" + log.strip()), e);
        }
        return handle;
    }
}
