package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.TruffleLanguage.ContextReference;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.grcuda.builtins.Builtins;
import dev.polygpu.grcuda.objects.GrNamespace;

/**
 * The state of the grcuda language in one polyglot context: its settings, the root namespace {@code CU}, and
 * the device, created on first use. Reached from nodes through {@link #get(Node)}.
 *
 * <p>Thread-safety: the device is created once under this object's lock; everything else is immutable or
 * thread-safe (the device SPI is).
 */
public final class GrContext {
    private static final ContextReference<GrContext> REFERENCE = ContextReference.create(GrCUDALanguage.class);

    private final GrCUDALanguage language;
    private final TruffleLanguage.Env env;
    private final GrSettings settings;
    private final GrNamespace root;
    private Device device;
    private String deviceReason;

    GrContext(GrCUDALanguage language, TruffleLanguage.Env env) {
        this.language = language;
        this.env = env;
        this.settings = GrSettings.of(env);
        this.root = Builtins.rootNamespace(this);
    }

    public static GrContext get(Node node) {
        return REFERENCE.get(node);
    }

    public GrCUDALanguage language() {
        return language;
    }

    public TruffleLanguage.Env env() {
        return env;
    }

    public GrSettings settings() {
        return settings;
    }

    public GrNamespace root() {
        return root;
    }

    /** The device kernels run on, chosen by {@code grcuda.Device} when first needed. */
    @TruffleBoundary
    public synchronized Device device() {
        if (device == null) {
            choose();
        }
        return device;
    }

    /** One line saying which device runs kernels and why (what the launcher prints). */
    @TruffleBoundary
    public synchronized String deviceReason() {
        if (device == null) {
            choose();
        }
        return deviceReason;
    }

    private void choose() {
        String cudaMissing = "no CUDA backend is built into this polygpu (it comes with the CUDA device issue)";
        switch (settings.device()) {
            case CUDA -> throw GrError.of("grcuda.Device=cuda, but " + cudaMissing
                    + "; use grcuda.Device=cpu or auto to run kernels on the CPU device");
            case CPU -> {
                device = newCpuDevice();
                deviceReason = "running kernels on the CPU device (grcuda.Device=cpu)";
            }
            case AUTO -> {
                device = newCpuDevice();
                deviceReason = "running kernels on the CPU device: " + cudaMissing;
            }
        }
    }

    private static Device newCpuDevice() {
        try {
            return new CpuDevice();
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    synchronized void dispose() {
        if (device != null) {
            device.close();
            device = null;
        }
    }
}
