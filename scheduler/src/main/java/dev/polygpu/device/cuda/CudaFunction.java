package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.Module;
import java.util.List;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.JCudaDriver;

/**
 * A kernel of a {@link CudaModule}: its driver handle, its C parameters when the source declares them plainly
 * (empty otherwise: GrCUDA's signature then says what the parameters are), its PTX parameters (always known,
 * what launches are checked against), and the limits the driver reports for it.
 */
final class CudaFunction implements KernelFunction {
    private final CudaModule module;
    private final String name;
    private final CUfunction handle;
    private final List<KernelParam> parameters;
    private final List<PtxParam> ptxParameters;
    private final int staticSharedBytes;
    private final int maxThreadsPerBlock;

    CudaFunction(CudaModule module, String name, CUfunction handle, List<KernelParam> parameters,
            List<PtxParam> ptxParameters) {
        this.module = module;
        this.name = name;
        this.handle = handle;
        this.parameters = List.copyOf(parameters);
        this.ptxParameters = List.copyOf(ptxParameters);
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

    List<PtxParam> ptxParameters() {
        return ptxParameters;
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
