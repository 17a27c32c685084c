package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.CxxNames;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.KernelParam;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * CUDA C compiled to PTX for the device's compute capability ({@link PtxCompiler}, cached on disk) and loaded
 * by the driver. {@link #function(String)} finds a kernel by the name users write — an {@code extern "C"} name,
 * a C++ name, or a template instantiation such as {@code k<float>}, which is compiled (once) on first use when
 * the source did not instantiate it ({@link CxxNames}).
 *
 * <p>Implementation notes: the loaded images (the source as given, then one per template instantiation asked
 * for later) and the functions found are guarded by {@code this}; {@link #close()} waits for the device's queued
 * work, then unloads every image, after which the module's functions refuse launches.
 */
final class CudaModule implements DriverModule {
    private final CudaDevice device;
    private final String source;
    private final String fileName;
    private final Map<String, List<KernelParam>> declared;
    private final List<Image> images = new ArrayList<>();
    private final List<String> nameExpressions = new ArrayList<>();
    private final Map<String, CudaFunction> functions = new HashMap<>();
    private boolean closed;

    /** A PTX image loaded by the driver, with what the compiler said about it. */
    private record Image(CUmodule handle, PtxCompiler.Ptx ptx) {
    }

    CudaModule(CudaDevice device, String source, String fileName) {
        this.device = device;
        this.source = source;
        this.fileName = fileName;
        this.declared = KernelSignatures.parse(source);
        images.add(load(compile(List.of())));
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
        Image image = images.get(images.size() - 1);
        String entry;
        try {
            entry = CxxNames.resolve(fileName, key, image.ptx().loweredNames(), entryNames(image));
        } catch (DeviceException notFound) {
            if (notFound.error() != CudaError.NOT_FOUND || key.indexOf('<') < 0 || nameExpressions.contains(key)) {
                throw notFound;
            }
            // A template instantiation the source does not make itself: compile again, asking for it by name.
            nameExpressions.add(key);
            image = load(compile(List.copyOf(nameExpressions)));
            images.add(image);
            entry = CxxNames.resolve(fileName, key, image.ptx().loweredNames(), entryNames(image));
        }
        PtxEntry ptx = null;
        for (PtxEntry e : image.ptx().entries()) {
            if (e.name().equals(entry)) {
                ptx = e;
            }
        }
        if (ptx == null) {
            throw new DeviceException(CudaError.NOT_FOUND, "kernel '" + key + "' resolved to '" + entry
                    + "', which the PTX of " + fileName + " does not define");
        }
        device.bind();
        CUfunction handle = new CUfunction();
        Cuda.check(JCudaDriver.cuModuleGetFunction(handle, image.handle(), entry),
                "cuModuleGetFunction('" + entry + "') in " + fileName);
        f = new CudaFunction(this, key, handle, parametersOf(key, ptx.params()),
                ptx.params().stream().map(PtxParam::image).toList(), false);
        functions.put(key, f);
        return f;
    }

    @Override
    public synchronized String intermediateCode() {
        return images.get(images.size() - 1).ptx().text();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Launches of its kernels may still be queued: unloading code a stream will run is undefined in CUDA.
        device.synchronizeContext("unloading module " + fileName);
        for (Image image : images) {
            JCudaDriver.cuModuleUnload(image.handle());
        }
    }

    @Override
    public synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public String fileName() {
        return fileName;
    }

    @Override
    public String toString() {
        return "cuda-module(" + fileName + ")";
    }

    private PtxCompiler.Ptx compile(List<String> names) {
        var p = device.properties();
        return device.compiler().compile(source, fileName, p.computeCapabilityMajor(), p.computeCapabilityMinor(),
                names);
    }

    private Image load(PtxCompiler.Ptx ptx) {
        byte[] image = PtxText.nulTerminated(ptx.text().getBytes(StandardCharsets.UTF_8));
        CUmodule handle = ModuleLoading.load(device, image, "the PTX of " + fileName + " (compiled by "
                + device.compiler().describe() + ")");
        return new Image(handle, ptx);
    }

    /**
     * The C parameter list of kernel {@code name} when the source declares it plainly and it agrees with the PTX
     * (one parameter each, same sizes); otherwise empty, and launches are checked against the PTX alone.
     */
    private List<KernelParam> parametersOf(String name, List<PtxParam> ptx) {
        if (name.indexOf('<') >= 0) {
            return List.of();
        }
        String base = name.substring(name.lastIndexOf(':') + 1);
        List<KernelParam> c = declared.get(base);
        if (c == null || c.size() != ptx.size()) {
            return List.of();
        }
        for (int i = 0; i < c.size(); i++) {
            KernelParam p = c.get(i);
            int size = p.pointer() ? 8 : p.type() == null ? -1 : p.type().size;
            if (size != ptx.get(i).bytes()) {
                return List.of();
            }
        }
        return c;
    }

    private static List<String> entryNames(Image image) {
        List<String> names = new ArrayList<>();
        for (PtxEntry e : image.ptx().entries()) {
            names.add(e.name());
        }
        return names;
    }

    private void ensureOpen() {
        device.ensureOpen();
        if (closed) {
            throw new DeviceException(CudaError.INVALID_HANDLE, "module " + fileName + " was closed");
        }
    }
}
