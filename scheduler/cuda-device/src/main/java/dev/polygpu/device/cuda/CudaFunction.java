package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.Module;
import java.util.List;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.JCudaDriver;

/**
 * A kernel of a {@link CudaModule} or a {@link CudaImageModule}: its driver handle, its C parameters when the
 * source declares them plainly (empty otherwise, and always for a loaded image: GrCUDA's signature then says what
 * the parameters are), the parameters its compiled code declares (always known, what launches are checked
 * against; shown as {@link #imageParameters()} for a loaded image only), and the limits the driver reports for it.
 */
final class CudaFunction implements KernelFunction {
    private final DriverModule module;
    private final String name;
    private final CUfunction handle;
    private final List<KernelParam> parameters;
    private final List<ImageParam> declared;
    private final boolean fromImage;
    private final int staticSharedBytes;
    private final int maxThreadsPerBlock;

    /**
     * {@code declared}: the parameters the compiled code declares; {@code fromImage}: whether the module is a
     * loaded image (then {@link #imageParameters()} gives them).
     */
    CudaFunction(DriverModule module, String name, CUfunction handle, List<KernelParam> parameters,
            List<ImageParam> declared, boolean fromImage) {
        this.module = module;
        this.name = name;
        this.handle = handle;
        this.parameters = List.copyOf(parameters);
        this.declared = List.copyOf(declared);
        this.fromImage = fromImage;
        this.staticSharedBytes = attribute(CUfunction_attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
        this.maxThreadsPerBlock = attribute(CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Module module() {
        return module;
    }

    @Override
    public List<KernelParam> parameters() {
        return parameters;
    }

    @Override
    public int staticSharedBytes() {
        return staticSharedBytes;
    }

    @Override
    public List<ImageParam> imageParameters() {
        return fromImage ? declared : List.of();
    }

    /** The parameters the compiled code declares, for a module compiled from source too. */
    List<ImageParam> declaredParameters() {
        return declared;
    }

    int maxThreadsPerBlock() {
        return maxThreadsPerBlock;
    }

    CUfunction handle() {
        return handle;
    }

    /** INVALID_HANDLE once the module is closed (its code is unloaded). */
    void ensureUsable() {
        if (module.isClosed()) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "kernel '" + name + "' belongs to module "
                    + module.fileName() + ", which was closed");
        }
    }

    private int attribute(int attribute) {
        int[] v = new int[1];
        Cuda.check(JCudaDriver.cuFuncGetAttribute(v, attribute, handle), "cuFuncGetAttribute of kernel '" + name + "'");
        return v[0];
    }

    @Override
    public String toString() {
        return "cuda-kernel " + name;
    }
}
