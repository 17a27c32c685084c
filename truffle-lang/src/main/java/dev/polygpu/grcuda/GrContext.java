package dev.polygpu.grcuda;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.TruffleLanguage;
import com.oracle.truffle.api.TruffleLanguage.ContextReference;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.Chaos;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.cuda.CudaProbe;
import dev.polygpu.device.cuda.PtxCompiler;
import dev.polygpu.grcuda.array.Allocations;
import dev.polygpu.grcuda.builtins.Builtins;
import dev.polygpu.grcuda.objects.GrNamespace;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.WorkExchange;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ServiceConfigurationError;

/**
 * The state of the grcuda language in one polyglot context: its settings, the root namespace {@code CU}, and
 * the device with the scheduler that orders all work on it, created on first use. When {@code grcuda.Cluster}
 * is set, the scheduler is attached to the cluster (a {@link WorkExchange}) as it is created; otherwise
 * nothing of the cluster is loaded. Reached from nodes through {@link #get(Node)}.
 *
 * <p>Thread-safety: the device, its scheduler and the exchange are created once under this object's lock;
 * everything else is immutable or thread-safe (the device SPI, the scheduler and the exchange are).
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
    private ScheduleRecorder recorder;
    private WorkExchange exchange;
    private final Allocations allocations = new Allocations();
    private final java.util.concurrent.atomic.AtomicLong handles = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.Set<String> warned = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final dev.polygpu.grcuda.kernel.HostFunctions hostFunctions = new dev.polygpu.grcuda.kernel.HostFunctions(this);

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

    /** The live device memory of the context by address: how raw addresses are checked and resolved. */
    public Allocations allocations() {
        return allocations;
    }

    /**
     * A new handle for a stream or an event: what {@code asNativePointer()} gives for it, as GrCUDA's streams and
     * events are pointers. Unique among the context's streams and events, never 0 (CUDA's default stream).
     */
    public long nextHandle() {
        return handles.incrementAndGet();
    }

    /** True the first time it is called with {@code key} in this context: a warning is printed once. */
    public boolean firstWarning(String key) {
        return warned.add(key);
    }

    /** Binds functions of shared libraries ({@code bind}, {@code bindall}); it keeps the libraries it loaded. */
    public dev.polygpu.grcuda.kernel.HostFunctions hostFunctions() {
        return hostFunctions;
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

    /**
     * What the scheduler recorded for {@code grcuda.RecordSchedule} (or the export options), or null when
     * nothing is recorded. Choosing the device happens here if it has not happened yet.
     */
    @TruffleBoundary
    public synchronized ScheduleRecorder scheduleRecorder() {
        if (device == null) {
            choose();
        }
        return recorder;
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
        boolean chaos = !settings.deviceChaos().equals("false");
        switch (settings.device()) {
            case CUDA -> {
                if (chaos) {
                    throw GrError.of("grcuda.DeviceChaos=" + settings.deviceChaos() + " is a mode of the CPU device,"
                            + " but grcuda.Device=cuda; use grcuda.Device=cpu (or auto) with DeviceChaos");
                }
                CudaProbe.Result probe = CudaProbe.result();
                if (!probe.usable()) {
                    throw GrError.of("grcuda.Device=cuda, but no GPU can be used: " + probe.reason()
                            + "; use grcuda.Device=cpu or auto to run kernels on the CPU device");
                }
                device = newCudaDevice();
                deviceReason = "running kernels on " + device + " (grcuda.Device=cuda): " + probe.reason();
            }
            case CPU -> {
                device = newCpuDevice();
                deviceReason = "running kernels on the CPU device (grcuda.Device=cpu)" + chaosNote();
            }
            case AUTO -> {
                CudaProbe.Result probe = chaos ? null : CudaProbe.result();
                String why = probe == null ? "grcuda.DeviceChaos is a mode of the CPU device"
                        : "no GPU (" + probe.reason() + ")";
                if (probe != null && probe.usable()) {
                    try {
                        device = CudaDevice.open(0);
                        deviceReason = "running kernels on " + device + ": " + probe.reason();
                    } catch (DeviceException e) {
                        why = "CUDA device 0 could not be opened (" + e.getMessage() + ")";
                    }
                }
                if (device == null) {
                    device = newCpuDevice();
                    deviceReason = "running kernels on the CPU device: " + why + chaosNote();
                }
            }
        }
        if (settings.numberOfGpus() > 1) {
            // accepted, so that GrCUDA's multi-GPU scripts run, but not silently: they run on one device
            deviceReason += "; grcuda.NumberOfGPUs=" + settings.numberOfGpus() + " is not supported: polygpu runs"
                    + " a context's kernels on one device";
        }
        scheduler = new Scheduler(device, settings.schedulerConfig());
        recorder = ScheduleExports.install(scheduler, settings, env.err());
        if (settings.cluster().enabled()) {
            boolean joined = false;
            try {
                exchange = joinCluster(scheduler, settings.cluster());
                joined = true;
                deviceReason += ", as member " + exchange.memberId() + " of the cluster at "
                        + settings.cluster().members() + " (" + membersNow(exchange) + ")";
            } finally {
                if (!joined) {
                    // Nothing ran yet: give the device back, so that a later use tries again from the start.
                    scheduler.close();
                    scheduler = null;
                    recorder = null;
                    device.close();
                    device = null;
                }
            }
        }
    }

    /**
     * How many members the cluster has as this one joins; alone, it says so, since a port or cluster name that
     * matches no member also gives a cluster of one.
     */
    private static String membersNow(WorkExchange exchange) {
        Object members = exchange.stats().get("members");
        if (members instanceof Number n && n.intValue() == 1) {
            return "1 member so far: no other member answered at those addresses";
        }
        return members + " members";
    }

    /** Attaches {@code s} to the cluster {@code cluster} describes; a failure is a guest error naming the option. */
    private static WorkExchange joinCluster(Scheduler s, ClusterSettings cluster) {
        String option = "grcuda.Cluster=" + cluster.members();
        try {
            return WorkExchange.attach(s, cluster.exchangeOptions());
        } catch (IllegalStateException e) {
            // No provider on the class path (the message names the jar to add), or one that cannot start.
            throw GrError.of(option + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw GrError.of(option + ": a cluster option was refused: " + e.getMessage()
                    + " (fix the grcuda.Cluster* option it names; polygpu --help lists them)", e);
        } catch (RuntimeException e) {
            throw GrError.of(option + ": could not join the cluster: " + e.getMessage() + " (this member listens on"
                    + " grcuda.ClusterBind, from grcuda.ClusterPort up; the members listed must share"
                    + " grcuda.ClusterName and the secret)", e);
        } catch (ServiceConfigurationError | LinkageError e) {
            // The cluster jar is there but a class it needs (Hazelcast) is not, or it is of another version.
            throw GrError.of(option + ": the polygpu cluster module could not be loaded: " + e
                    + " (polygpu-cluster.jar needs hazelcast.jar of the version it was built with beside it)", e);
        }
    }

    /**
     * The cluster this context's scheduler is attached to, joining it now if the device is not chosen yet; null
     * when {@code grcuda.Cluster} is not set (nothing is created then).
     */
    @TruffleBoundary
    public synchronized WorkExchange exchange() {
        if (!settings.cluster().enabled()) {
            return null;
        }
        if (device == null) {
            choose();
        }
        return exchange;
    }

    private String chaosNote() {
        return settings.deviceChaos().equals("false") ? "" : " in chaos mode (" + settings.deviceChaos() + ")";
    }

    private static Device newCudaDevice() {
        try {
            return CudaDevice.open(0);
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    private Device newCpuDevice() {
        try {
            String chaos = settings.deviceChaos();
            int blocks = settings.cpuBlocks() == 0 ? CpuDevice.defaultConcurrentBlocks() : settings.cpuBlocks();
            CpuDevice d = chaos.equals("false") ? new CpuDevice(blocks) : new CpuDevice(blocks, Chaos.parse(chaos));
            // Kernel printf output goes where the embedder's Context.Builder.out() points, like guest output.
            d.setPrintfSink(env.out());
            d.setKernelTimeout(settings.kernelTimeoutLimit());
            // GrCUDA programs read kernel.ptx: the PTX nvcc (or NVRTC) makes of the source, where there is one;
            // the compiler is looked for when a program first reads it
            d.setPtxTranslator((source, file, major, minor, names) -> PtxCompiler.find().translator()
                    .translate(source, file, major, minor, names));
            return d;
        } catch (DeviceException e) {
            throw GrError.of(e);
        }
    }

    /**
     * Leaves the cluster (which brings this program's elements that run elsewhere back home), then waits for
     * outstanding work (writing the exports the options ask for) and releases the device. When the context is
     * closed with cancellation, the CPU device's kernels are stopped first, so the close does not wait for a
     * kernel that never ends.
     */
    synchronized void dispose() {
        if (device != null && env.getContext().isCancelling()) {
            // Context.close(true): nobody waits for the kernels any more, and one may never end by itself.
            device.stopAllLaunches("its context was closed with cancellation (Context.close(true))");
        }
        if (exchange != null) {
            leaveCluster();
        }
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
        if (device != null) {
            device.close();
            device = null;
        }
    }

    /**
     * Closes the exchange before the scheduler: the scheduler does not wait for elements that run on other
     * members, the exchange's close does. A failure to leave is reported on the error stream, and the scheduler
     * is closed all the same (it then runs what it still holds here).
     */
    private void leaveCluster() {
        PrintStream err = new PrintStream(env.err(), true, StandardCharsets.UTF_8);
        WorkExchange leaving = exchange;
        exchange = null;
        try {
            leaving.close();
        } catch (RuntimeException e) {
            err.println("polygpu: leaving the cluster failed (" + e.getClass().getSimpleName() + "): "
                    + e.getMessage());
        }
        if (settings.cluster().printStats()) {
            err.print(leaving.statsTable());
        }
        err.flush();
    }
}
