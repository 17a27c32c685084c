package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.TruffleLanguage.ContextReference;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.Chaos;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.grcuda.builtins.Builtins;
import dev.polygpu.grcuda.objects.GrNamespace;
import dev.polygpu.runtime.Scheduler;

/**
 * The state of the grcuda language in one polyglot context: its settings, the root namespace {@code CU}, and
 * the device with the scheduler that orders all work on it, created on first use. Reached from nodes
 * through {@link #get(Node)}.
 *
 * <p>Thread-safety: the device and its scheduler are created once under this object's lock; everything else
 * is immutable or thread-safe (the device SPI and the scheduler are).
 */
public final class GrContext {
    private static final ContextReference<GrContext> REFERENCE = ContextReference.create(GrCUDALanguage.class);

    private final GrCUDALanguage language;
    private final TruffleLanguage.Env env;
    private final GrSettings settings;
    private final GrNamespace root;
    private Device device;
    private String deviceReason;
    private Scheduler scheduler;

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

    /** The scheduler every computation on {@link #device()} goes through, created with it. */
    @TruffleBoundary
    public synchronized Scheduler scheduler() {
        if (device == null) {
            choose();
        }
        return scheduler;
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
                deviceReason = "running kernels on the CPU device (grcuda.Device=cpu)" + chaosNote();
            }
            case AUTO -> {
                device = newCpuDevice();
                deviceReason = "running kernels on the CPU device: " + cudaMissing + chaosNote();
            }
        }
        scheduler = new Scheduler(device, settings.schedulerConfig());
        ScheduleExports.install(scheduler, settings, env.err());
    }

    private String chaosNote() {
        return settings.deviceChaos().equals("false") ? "" : " in chaos mode (" + settings.deviceChaos() + ")";
    }

    private Device newCpuDevice() {
        try {
            String chaos = settings.deviceChaos();
            int blocks = settings.cpuBlocks() == 0 ? CpuDevice.defaultConcurrentBlocks() : settings.cpuBlocks();
            return chaos.equals("false") ? new CpuDevice(blocks) : new CpuDevice(blocks, Chaos.parse(chaos));
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    /** Waits for outstanding work (writing the exports the options ask for), then releases the device. */
    synchronized void dispose() {
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
        if (device != null) {
            device.close();
            device = null;
        }
    }
}
