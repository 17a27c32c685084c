package dev.polygpu.device;

/** Compiled device code (a {@code CUmodule}): kernels are looked up by name. */
public interface Module extends AutoCloseable {

    Device device();

    /**
     * The kernel called {@code name}: an {@code extern "C"} name, a C++ kernel's source name, or a template
     * instantiation such as {@code k<float>} or {@code reduce<256>}. Throws {@link DeviceException} with
     * NOT_FOUND, listing the kernels the module has, when there is none.
     */
    KernelFunction function(String name);

    /** The compiler's intermediate code where there is one (PTX on CUDA), else null. */
    String intermediateCode();

    @Override
    void close();
}
