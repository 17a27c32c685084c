package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceAttribute;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.DeviceProperties;
import dev.polygpu.device.Event;
import dev.polygpu.device.Module;
import dev.polygpu.device.PendingFailures;
import dev.polygpu.device.PendingFailures.Failure;
import dev.polygpu.device.Stream;
import dev.polygpu.device.StreamPriorities;
import dev.polygpu.device.UnifiedBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * A CUDA GPU behind the device SPI, over JCuda's driver API: the device's primary context, unified memory
 * ({@code cuMemAllocManaged}, as GrCUDA uses, so the host reads and writes arrays in place), non-blocking
 * streams (with the device's stream priorities, {@code cuStreamCreateWithPriority}), events, modules compiled
 * from CUDA C to PTX by {@link PtxCompiler} and loaded by the driver, precompiled PTX, cubins and fatbinaries
 * ({@link #load}), and
 * {@code cuLaunchKernel}. Completion is observed without a host synchronization: every completion callback is a
 * {@code cuStreamAddCallback} whose CUDA-side half only hands the callback to this device's <em>completion
 * thread</em>, which runs it — CUDA forbids calling the driver from its own callback thread, and the scheduler's
 * callbacks launch the next kernels.
 *
 * <p>Open one with {@link #open(int)} after {@link CudaProbe#result()} said a GPU is usable. Every call binds
 * the primary context to the calling thread first (once per thread). Closing waits for all work, destroys the
 * streams and events it still has, frees every buffer not yet freed and releases the primary context.
 *
 * <p>Implementation notes: the device's state is the sets of open streams and live buffers (concurrent sets),
 * id counters (atomics), the streams' unreported failures ({@link PendingFailures}) and
 * {@link #closed}. A stream's own state is guarded by the stream. The completion thread only runs callbacks;
 * calls that wait for callbacks refuse to run on it ({@link #ensureNotOnCompletionThread}).
 */
public final class CudaDevice implements Device {
    private static final System.Logger LOG = System.getLogger(CudaDevice.class.getName());
    /** The device each thread last bound its context for (a thread binds again when it changes device). */
    private static final ThreadLocal<CudaDevice> BOUND = new ThreadLocal<>();

    private final int ordinal;
    private final CUdevice handle;
    private final CUcontext context;
    private final DeviceProperties properties;
    private final boolean concurrentManagedAccess;
    private final StreamPriorities priorities;
    private final PtxCompiler compiler;
    private final Thread completionThread;
    private final LinkedBlockingQueue<Runnable> completions = new LinkedBlockingQueue<>();
    private final CudaStream defaultStream;
    private final Set<CudaStream> streams = ConcurrentHashMap.newKeySet();
    private final Set<CudaBuffer> buffers = ConcurrentHashMap.newKeySet();
    /** The bytes of {@link #buffers}. */
    private final AtomicLong allocatedBytes = new AtomicLong();
    private final Set<CudaEvent> events = ConcurrentHashMap.newKeySet();
    private final PendingFailures failures = new PendingFailures();
    private final AtomicInteger nextStreamId = new AtomicInteger(1);
    private final AtomicLong nextBufferId = new AtomicLong(1);
    private final AtomicBoolean closed = new AtomicBoolean();

    private CudaDevice(int ordinal, PtxCompiler compiler) {
        this.ordinal = ordinal;
        this.compiler = compiler;
        this.handle = new CUdevice();
        Cuda.check(JCudaDriver.cuDeviceGet(handle, ordinal), "cuDeviceGet(" + ordinal + ")");
        this.context = new CUcontext();
        Cuda.check(JCudaDriver.cuDevicePrimaryCtxRetain(context, handle), "cuDevicePrimaryCtxRetain");
        try {
            bind();
            this.properties = readProperties(handle);
            this.concurrentManagedAccess = CudaProbe.attribute(handle,
                    CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) != 0;
            if (!properties.managedMemory()) {
                throw new DeviceException(CudaError.NOT_SUPPORTED, "CUDA device " + ordinal + " ("
                        + properties.name() + ") has no unified (managed) memory, which polygpu's arrays need");
            }
            if (!concurrentManagedAccess) {
                LOG.log(System.Logger.Level.WARNING, "CUDA device " + ordinal + " (" + properties.name() + ")"
                        + " cannot share managed memory with the host while kernels run; every host access to"
                        + " an array waits for the whole device");
            }
            int[] least = new int[1];
            int[] greatest = new int[1];
            Cuda.check(JCudaDriver.cuCtxGetStreamPriorityRange(least, greatest), "cuCtxGetStreamPriorityRange");
            this.priorities = new StreamPriorities(least[0], greatest[0]);
            this.completionThread = Thread.ofPlatform().daemon().name("polygpu-cuda-completions-" + ordinal)
                    .unstarted(this::runCompletions);
            completionThread.start();
            this.defaultStream = CudaStream.create(this, 0, priorities.least());
            streams.add(defaultStream);
        } catch (RuntimeException e) {
            JCudaDriver.cuDevicePrimaryCtxRelease(handle);
            throw e;
        }
    }

    /**
     * Opens CUDA device {@code ordinal}. NO_DEVICE with the probe's reason when no GPU is usable, INVALID_DEVICE
     * for an ordinal the machine does not have.
     */
    public static CudaDevice open(int ordinal) {
        CudaProbe.Result probe = CudaProbe.result();
        if (!probe.usable()) {
            throw new DeviceException(CudaError.NO_DEVICE, "no usable CUDA device: " + probe.reason());
        }
        if (ordinal < 0 || ordinal >= probe.devices().size()) {
            throw new DeviceException(CudaError.INVALID_DEVICE, "there is no CUDA device " + ordinal + "; this"
                    + " machine has " + probe.devices().size() + " (" + String.join("; ", probe.devices()) + ")");
        }
        return new CudaDevice(ordinal, PtxCompiler.find());
    }

    @Override
    public int ordinal() {
        return ordinal;
    }

    @Override
    public String backend() {
        return "cuda";
    }

    @Override
    public DeviceProperties properties() {
        return properties;
    }

    @Override
    public long freeMemory() {
        ensureOpen();
        bind();
        long[] free = new long[1];
        long[] total = new long[1];
        Cuda.check(JCudaDriver.cuMemGetInfo(free, total), "cuMemGetInfo");
        return free[0];
    }

    @Override
    public long allocatedBytes() {
        return allocatedBytes.get();
    }

    @Override
    public UnifiedBuffer allocate(long bytes) {
        ensureOpen();
        bind();
        CudaBuffer b = CudaBuffer.allocate(this, nextBufferId.getAndIncrement(), bytes);
        buffers.add(b);
        allocatedBytes.addAndGet(bytes);
        if (closed.get()) {
            b.release("closing its device");
            ensureOpen();
        }
        return b;
    }

    @Override
    public Module compile(String source, String fileName) {
        ensureOpen();
        if (source == null) {
            throw new DeviceException(CudaError.INVALID_VALUE, "kernel source is null");
        }
        bind();
        return new CudaModule(this, source, fileName == null ? "kernel.cu" : fileName);
    }

    /**
     * Loads PTX, a cubin or a fatbinary ({@link PrecompiledImage}): the image is read and its architecture checked
     * against this device's compute capability before the driver sees it, so that an image this GPU cannot run is
     * NO_BINARY_FOR_GPU naming both architectures; then {@code cuModuleLoadDataEx} loads it, with the JIT's log in
     * the error where PTX does not compile.
     */
    @Override
    public Module load(byte[] image, String fileName) {
        ensureOpen();
        PrecompiledImage read = PrecompiledImage.read(image, fileName);
        read.checkRunsOn(properties.computeCapabilityMajor(), properties.computeCapabilityMinor(), toString());
        bind();
        return new CudaImageModule(this, read);
    }

    @Override
    public Stream defaultStream() {
        ensureOpen();
        return defaultStream;
    }

    @Override
    public StreamPriorities streamPriorities() {
        return priorities;
    }

    @Override
    public Stream createStream() {
        return createStream(priorities.least());
    }

    @Override
    public Stream createStream(int priority) {
        ensureOpen();
        bind();
        CudaStream s = CudaStream.create(this, nextStreamId.getAndIncrement(), priorities.clamp(priority));
        streams.add(s);
        if (closed.get()) {
            s.shutdown();
            ensureOpen();
        }
        return s;
    }

    @Override
    public Event createEvent(boolean timing) {
        ensureOpen();
        bind();
        CudaEvent e = new CudaEvent(this, timing);
        events.add(e);
        return e;
    }

    @Override
    public void synchronize() {
        ensureOpen();
        ensureNotOnCompletionThread("Device.synchronize");
        for (CudaStream s : List.copyOf(streams)) {
            s.awaitIdle();
        }
        DeviceException first = takeFirstFailure();
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void close() {
        ensureNotOnCompletionThread("Device.close");
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        bind();
        for (CudaStream s : List.copyOf(streams)) {
            s.shutdown();
        }
        completions.add(STOP);
        boolean interrupted = false;
        while (completionThread.isAlive()) {
            try {
                completionThread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        for (DeviceException e = takeFirstFailure(); e != null; e = takeFirstFailure()) {
            LOG.log(System.Logger.Level.WARNING, "failure not reported before the device was closed: "
                    + e.getMessage(), e);
        }
        // After a kernel fault every driver call fails: log each failure and go on releasing the rest.
        for (CudaEvent e : List.copyOf(events)) {
            releaseQuietly(e::close, "destroying an event");
        }
        for (CudaBuffer b : List.copyOf(buffers)) {
            releaseQuietly(() -> b.release("closing its device"), "freeing buffer #" + b.id());
        }
        JCudaDriver.cuDevicePrimaryCtxRelease(handle);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void releaseQuietly(Runnable release, String what) {
        try {
            release.run();
        } catch (DeviceException e) {
            LOG.log(System.Logger.Level.WARNING, what + " while closing " + this + " failed: " + e.getMessage());
        }
    }

    /** Whether the host may touch managed memory while kernels run (Pascal and later on Linux). */
    boolean concurrentManagedAccess() {
        return concurrentManagedAccess;
    }

    PtxCompiler compiler() {
        return compiler;
    }

    CUdevice handle() {
        return handle;
    }

    @Override
    public String toString() {
        return "CUDA device " + ordinal + " (" + properties.name() + ")";
    }

    /** Makes this device's primary context current on the calling thread (a driver call only when it changes). */
    void bind() {
        if (BOUND.get() != this) {
            Cuda.check(JCudaDriver.cuCtxSetCurrent(context), "cuCtxSetCurrent");
            BOUND.set(this);
        }
    }

    /** Waits for all work the device has queued, from every stream (what freeing memory in use needs). */
    void synchronizeContext(String why) {
        bind();
        Cuda.check(JCudaDriver.cuCtxSynchronize(), "cuCtxSynchronize (" + why + ")");
    }

    /** Runs {@code callback} on the completion thread, after those posted before it. */
    void postCompletion(Runnable callback) {
        completions.add(callback);
    }

    /** A new failure of stream {@code streamId}, ordered after the device's earlier ones. */
    Failure newFailure(int streamId, DeviceException error) {
        return failures.failure(streamId, error);
    }

    void ensureOpen() {
        if (closed.get()) {
            throw new DeviceException(CudaError.INVALID_CONTEXT, "CUDA device " + ordinal + " was closed");
        }
    }

    /** NOT_PERMITTED on the completion thread, where waiting for callbacks would wait for itself. */
    void ensureNotOnCompletionThread(String what) {
        if (Thread.currentThread() == completionThread) {
            throw new DeviceException(CudaError.NOT_PERMITTED, what + " was called from a completion callback;"
                    + " callbacks must not wait for the device");
        }
    }

    void forget(CudaBuffer b) {
        if (buffers.remove(b)) {
            allocatedBytes.addAndGet(-b.byteSize());
        }
    }

    void forget(CudaEvent e) {
        events.remove(e);
    }

    /** Called by a stream once destroyed, with the failure it could no longer report. */
    void streamClosed(CudaStream s, Failure unreported) {
        streams.remove(s);
        failures.orphan(unreported);
    }

    /** The event as this device's, open, or INVALID_HANDLE. */
    CudaEvent checkEvent(Event event) {
        if (!(event instanceof CudaEvent e) || e.device() != this) {
            throw new DeviceException(CudaError.INVALID_HANDLE,
                    event == null ? "event is null" : "the event belongs to another device");
        }
        e.ensureOpen();
        return e;
    }

    private static final Runnable STOP = () -> { };

    private void runCompletions() {
        while (true) {
            Runnable r;
            try {
                r = completions.take();
            } catch (InterruptedException e) {
                continue;
            }
            if (r == STOP) {
                return;
            }
            try {
                r.run();
            } catch (RuntimeException | Error e) {
                // The stream's wrapper records callback failures; this only guards the thread itself.
                LOG.log(System.Logger.Level.ERROR, "completion task failed on CUDA device " + ordinal, e);
            }
        }
    }

    /** Removes and returns the earliest unreported failure of any stream, or null. */
    private DeviceException takeFirstFailure() {
        return failures.takeFirst(streams);
    }

    static String name(CUdevice d) {
        byte[] name = new byte[256];
        Cuda.check(JCudaDriver.cuDeviceGetName(name, name.length, d), "cuDeviceGetName");
        int end = 0;
        while (end < name.length && name[end] != 0) {
            end++;
        }
        return new String(name, 0, end, StandardCharsets.UTF_8);
    }

    private static DeviceProperties readProperties(CUdevice d) {
        long[] memory = new long[1];
        Cuda.check(JCudaDriver.cuDeviceTotalMem(memory, d), "cuDeviceTotalMem");
        return new DeviceProperties(name(d),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
                memory[0],
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_WARP_SIZE),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS) != 0,
                attr(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) != 0,
                otherAttributes(d));
    }

    /**
     * Every other attribute the driver reports ({@code cudaDeviceAttr} codes are the driver's); one this driver
     * does not know (an attribute CUDA retired, such as code 96) is left out.
     */
    private static Map<DeviceAttribute, Integer> otherAttributes(CUdevice d) {
        Map<DeviceAttribute, Integer> m = new EnumMap<>(DeviceAttribute.class);
        int[] v = new int[1];
        for (DeviceAttribute a : DeviceAttribute.values()) {
            if (!DeviceProperties.COMPONENT_ATTRIBUTES.contains(a)
                    && JCudaDriver.cuDeviceGetAttribute(v, a.code(), d) == CUresult.CUDA_SUCCESS) {
                m.put(a, v[0]);
            }
        }
        return m;
    }

    private static int attr(CUdevice d, int attribute) {
        return CudaProbe.attribute(d, attribute);
    }
}
