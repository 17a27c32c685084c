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
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.WorkExchange;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    /** The devices kernels run on: {@link #device} first, then the other CPU devices standing in for GPUs. */
    private List<Device> devices = List.of();
    private String deviceReason;
    /** The link bandwidths: found with several devices as the scheduler is made, with one when asked for. */
    private GrBandwidth bandwidth;
    private Scheduler scheduler;
    private ScheduleRecorder recorder;
    private WorkExchange exchange;
    private final Allocations allocations = new Allocations();
    private final java.util.concurrent.atomic.AtomicLong handles = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.Set<String> warned = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final dev.polygpu.grcuda.kernel.HostFunctions hostFunctions = new dev.polygpu.grcuda.kernel.HostFunctions(this);
    private final PythonArrayDisplay pythonArrayDisplay;

    GrContext(GrCUDALanguage language, TruffleLanguage.Env env) {
        this.language = language;
        this.env = env;
        this.settings = GrSettings.of(env);
        this.root = Builtins.rootNamespace(this);
        this.pythonArrayDisplay = new PythonArrayDisplay(env);
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

    /** How device arrays print in this context's Python; see {@link PythonArrayDisplay}. */
    public PythonArrayDisplay pythonArrayDisplay() {
        return pythonArrayDisplay;
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

    /**
     * The devices kernels run on ({@code grcuda.NumberOfGPUs}), chosen when first needed: {@link #device()} and,
     * with several CPU devices standing in for GPUs, the others, by index.
     */
    @TruffleBoundary
    public synchronized List<Device> devices() {
        if (device == null) {
            choose();
        }
        return devices;
    }

    /** The index of the current device ({@code cudaSetDevice}), among {@link #devices()}. */
    @TruffleBoundary
    public int currentDevice() {
        return scheduler().currentDevice();
    }

    /** Makes device {@code index} of {@link #devices()} current; the caller checked the index. */
    @TruffleBoundary
    public void setCurrentDevice(int index) {
        scheduler().setCurrentDevice(index);
    }

    /** The current device ({@code cudaSetDevice}): where streams and events are created. */
    @TruffleBoundary
    public Device currentDeviceObject() {
        return devices().get(currentDevice());
    }

    /** The scheduler every computation on {@link #devices()} goes through, created with them. */
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
                devices = newCpuDevices();
                device = devices.get(0);
                deviceReason = "running kernels on " + cpuDevicesNote() + " (grcuda.Device=cpu)" + chaosNote();
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
                    devices = newCpuDevices();
                    device = devices.get(0);
                    deviceReason = "running kernels on " + cpuDevicesNote() + ": " + why + chaosNote();
                }
            }
        }
        if (devices.isEmpty()) {
            devices = List.of(device);
            if (settings.numberOfGpus() > 1) {
                warn("grcuda.NumberOfGPUs=" + settings.numberOfGpus() + ", but polygpu runs a context on one GPU so"
                        + " far: using 1 (with grcuda.Device=cpu, CPU devices stand in for several GPUs)");
            }
        }
        scheduler = new Scheduler(devices, settings.schedulerConfig(), placement());
        if (bandwidth != null) {
            deviceReason += ", link bandwidths " + bandwidth.source();
        }
        recorder = ScheduleExports.install(scheduler, settings, env.err(),
                p -> Path.of(env.getPublicTruffleFile(p.toString()).getAbsoluteFile().getPath()));
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
                    devices.forEach(Device::close);
                    devices = List.of();
                    device = null;
                    bandwidth = null;
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

    /**
     * The CPU devices {@code grcuda.NumberOfGPUs} asks for: one, or that many standing in for GPUs (at most what a
     * scheduler runs on, with a warning saying how many are used), each with its share of the processors unless
     * {@code grcuda.CpuBlocks} gives a count, in chaos mode each with its own seed, linked by
     * {@code grcuda.CpuDeviceLink}.
     */
    private List<Device> newCpuDevices() {
        int wanted = settings.numberOfGpus();
        int n = Math.min(wanted, MAX_CPU_DEVICES);
        if (n < wanted) {
            warn("grcuda.NumberOfGPUs=" + wanted + ", but at most " + MAX_CPU_DEVICES + " CPU devices stand in for"
                    + " GPUs: using " + n);
        }
        int blocks = settings.cpuBlocks() != 0 ? settings.cpuBlocks()
                : Math.max(1, CpuDevice.defaultConcurrentBlocks() / n);
        List<Device> made = new ArrayList<>(n);
        try {
            for (int i = 0; i < n; i++) {
                made.add(newCpuDevice(n == 1 ? 0 : i, blocks));
            }
        } catch (RuntimeException e) {
            made.forEach(Device::close);
            throw e;
        }
        return List.copyOf(made);
    }

    /** The most CPU devices one context makes: the most devices a scheduler runs on. */
    private static final int MAX_CPU_DEVICES = 63;

    private String cpuDevicesNote() {
        if (devices.size() == 1) {
            return "the CPU device";
        }
        CpuDevice first = (CpuDevice) devices.get(0);
        return devices.size() + " CPU devices standing in for GPUs (grcuda.NumberOfGPUs=" + settings.numberOfGpus()
                + "), " + first.concurrentBlocks() + (first.concurrentBlocks() == 1 ? " block" : " blocks")
                + " at once each, link " + (first.link().isFree() ? "none"
                : first.link()) + ", device selection " + settings.deviceSelectionPolicy().spelling();
    }

    /**
     * The placement options, with the link bandwidths when there are several devices: GrCUDA's file
     * {@code grcuda.BandwidthMatrix}, or measured (once per set of devices and link settings, then cached).
     */
    private MultiDeviceConfig placement() {
        MultiDeviceConfig placement = settings.multiDeviceConfig();
        if (devices.size() == 1) {
            return placement;
        }
        try {
            bandwidth = findBandwidth(false);
        } catch (RuntimeException e) {
            forgetDevices();
            throw e;
        }
        return placement.withBandwidth(bandwidth.matrix());
    }

    /**
     * The link bandwidths of {@link #devices()} and the host: those the scheduler weighs transfers with when there
     * are several devices; with one, found now (from the file, the cache, or measured) for whoever asks.
     */
    @TruffleBoundary
    public synchronized GrBandwidth bandwidth() {
        if (device == null) {
            choose();
        }
        if (bandwidth == null) {
            bandwidth = findBandwidth(false);
        }
        return bandwidth;
    }

    /**
     * Measures the link bandwidths again and replaces the cache's entry; the scheduler keeps those it started with,
     * later contexts get these. A guest error when {@code grcuda.BandwidthMatrix} gives them.
     */
    @TruffleBoundary
    public synchronized GrBandwidth measureBandwidthAgain() {
        if (!settings.bandwidthMatrix().isEmpty()) {
            throw GrError.of("grcuda.BandwidthMatrix=" + settings.bandwidthMatrix() + " gives the link bandwidths, so"
                    + " none are measured; leave the option empty to measure them");
        }
        if (device == null) {
            choose();
        }
        bandwidth = findBandwidth(true);
        return bandwidth;
    }

    private GrBandwidth findBandwidth(boolean measureAgain) {
        String file = settings.bandwidthMatrix();
        if (!file.isEmpty()) {
            GrBandwidth given = GrBandwidth.fromFile(env, file, devices, this::warn);
            if (given != null) {
                return given;
            }
        }
        // What besides the devices decides how fast they copy: the host's memory is device 0's (the arrays' own
        // buffers are there), and CPU devices wait for their simulated link.
        String copySettings = "host memory on device 0" + (device instanceof CpuDevice c ? "; link " + c.link() : "");
        return GrBandwidth.measured(devices, copySettings, measureAgain, this::note, this::warn);
    }

    /** Closes the devices chosen, so that a later use chooses again from the start. */
    private void forgetDevices() {
        devices.forEach(Device::close);
        devices = List.of();
        device = null;
        bandwidth = null;
    }

    /** Prints a warning on the context's error stream. */
    private void warn(String message) {
        note("warning: " + message);
    }

    /** Prints a line for the user on the context's error stream. */
    private void note(String message) {
        PrintStream err = new PrintStream(env.err(), true, StandardCharsets.UTF_8);
        err.println("polygpu: " + message);
        err.flush();
    }

    private Device newCpuDevice(int ordinal, int blocks) {
        try {
            String chaos = settings.deviceChaos();
            // In chaos mode each device has its own seed, so that they do not pause in step.
            Chaos c = chaos.equals("false") ? null : Chaos.parse(chaos);
            if (c != null && ordinal > 0) {
                c = new Chaos(c.seed() + ordinal, c.maxDelayMicros());
            }
            CpuDevice d = new CpuDevice(ordinal, blocks, c);
            d.setLink(settings.cpuLink());
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
            for (Device d : devices) {
                d.stopAllLaunches("its context was closed with cancellation (Context.close(true))");
            }
        }
        if (exchange != null) {
            leaveCluster();
        }
        if (scheduler != null) {
            scheduler.close();
            scheduler = null;
        }
        if (device != null) {
            devices.forEach(Device::close);
            devices = List.of();
            device = null;
            bandwidth = null;
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
