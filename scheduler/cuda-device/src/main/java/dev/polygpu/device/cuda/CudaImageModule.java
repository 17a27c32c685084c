package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * Precompiled code (PTX, a cubin or a fatbinary; {@link PrecompiledImage}) loaded by the driver as it is:
 * {@link #function(String)} finds a kernel by its {@code extern "C"} name, its mangled name or its C++ name
 * ({@link CxxNames#resolve}); nothing is compiled, so a template instantiation the image lacks is not found.
 * Kernels have no C parameter list, only the parameters the image declares, which launches are checked against.
 *
 * <p>Implementation notes: the functions found and {@code closed} are guarded by {@code this}; {@link #close()}
 * waits for the device's queued work, then unloads the image, after which the module's functions refuse launches.
 */
final class CudaImageModule implements DriverModule {
    private final CudaDevice device;
    private final PrecompiledImage image;
    private final CUmodule handle;
    private final Map<String, CudaFunction> functions = new HashMap<>();
    private boolean closed;

    /** Loads {@code image}, which {@link PrecompiledImage#checkRunsOn} has accepted for {@code device}. */
    CudaImageModule(CudaDevice device, PrecompiledImage image) {
        this.device = device;
        this.image = image;
        this.handle = ModuleLoading.load(device, image.driverImage(), image.describe() + " " + image.fileName());
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public synchronized KernelFunction function(String name) {
        ensureOpen();
        String key = ModuleLoading.kernelName(name);
        CudaFunction f = functions.get(key);
        if (f != null) {
            return f;
        }
        ImageKernel kernel = image.kernel(key);
        device.bind();
        CUfunction fn = new CUfunction();
        Cuda.check(JCudaDriver.cuModuleGetFunction(fn, handle, kernel.name()),
                "cuModuleGetFunction('" + kernel.name() + "') in " + image.fileName());
        f = new CudaFunction(this, key, fn, List.of(), kernel.params(), true);
        functions.put(key, f);
        return f;
    }

    @Override
    public String intermediateCode() {
        return image.ptx();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Launches of its kernels may still be queued: unloading code a stream will run is undefined in CUDA.
        device.synchronizeContext("unloading module " + image.fileName());
        JCudaDriver.cuModuleUnload(handle);
    }

    @Override
    public synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public String fileName() {
        return image.fileName();
    }

    @Override
    public String toString() {
        return "cuda-image-module(" + image.fileName() + ")";
    }

    private void ensureOpen() {
        device.ensureOpen();
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "module " + image.fileName() + " was closed");
        }
    }
}
