package dev.polygpu.device.cpu;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.DeviceProperties;
import dev.polygpu.device.Event;
import dev.polygpu.device.Module;
import dev.polygpu.device.PendingFailures;
import dev.polygpu.device.PendingFailures.Failure;
import dev.polygpu.device.PtxTranslator;
import dev.polygpu.device.Stream;
import dev.polygpu.device.StreamPriorities;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.kernel.CompiledModule;
import dev.polygpu.device.cpu.kernel.KernelEngine;
import dev.polygpu.device.cpu.ptx.GlobalMemory;
import dev.polygpu.device.cpu.ptx.PtxModule;
import java.io.OutputStream;
import java.util.List;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * A device that runs CUDA C kernels on the host's cores with CUDA's semantics: kernels compiled to JVM code
 * by the kernel engine run block by block on a pool of worker threads (the device's multiprocessors), memory
 * is off-heap, and streams and events behave as the CUDA driver API's.
 *
 * <p>Each worker thread runs one block at a time, so the number of workers is how many blocks the device runs
 * at once across all its streams ({@link #concurrentBlocks()}): one per available processor unless given to
 * the constructor ({@link #CpuDevice(int)}). It may exceed the cores: a block waiting in {@code __nanosleep}
 * parks its worker without using a core, as a GPU's sleeping warps leave their multiprocessor to others.
 *
 * <p>Closing the device waits for all work, stops the streams and the worker pool and frees every buffer not
 * yet freed, as destroying a CUDA context releases its memory; a freed buffer says so when used.
 *
 * <p>Streams have priorities as on a recent GPU ({@link #STREAM_PRIORITIES}, least 0, greatest -5): the worker
 * threads take the blocks of higher-priority streams first.
 *
 * <p>A device created with a {@link Chaos} runs in <em>chaos mode</em>, for testing schedulers: streams pause
 * for random times before their operations and the worker pool takes the work of different launches of equal
 * priority in a random order, within what CUDA allows, so a missing dependency between streams shows up as a
 * wrong result. Chaos keeps stream priorities: a higher-priority launch's blocks still start first.
 * {@link #chaos()} and {@link #toString()} tell whether a device is in chaos mode.
 *
 * <p>Precompiled PTX ({@link #load}) runs on the same path: its kernels are interpreted block by block on the
 * same worker pool, with the same streams, events, pins and sticky faults (package {@code device.cpu.ptx}).
 *
 * <p>Unlike a GPU, the device checks the {@linkplain dev.polygpu.device.KernelArgs#isReadOnly read-only} marks
 * of a launch: a pointer so marked is bound as a read-only view of its buffer, and a kernel that stores through
 * it (or through pointer arithmetic from it, or with an atomic) fails with NOT_PERMITTED naming the kernel, the
 * place and the parameter, so that a kernel writing where its signature says it reads is caught instead of
 * racing with the kernels the scheduler runs beside it.
 *
 * <p>Implementation notes: the device's own state is the sets of open streams and live buffers (concurrent
 * sets, changed by the threads that create and close or free them), the address index of the live buffers
 * (a concurrent sorted map from segment address to buffer, through which PTX kernels resolve raw pointers), id counters (atomics), the list of
 * failures left by closed streams (guarded by itself) and {@link #closed}. Streams have their own locks; the
 * device's {@link PendingFailures} never holds its lock while calling into a stream, so there is no lock order.
 * Creation racing with {@link #close()} is settled by re-checking {@link #closed} after registering: a stream
 * that registered after close began is shut down by its creator. Known benign race: a failure moving from a
 * stream being closed to the orphaned failures may be missed by a concurrent {@link #synchronize()}; it is then
 * reported by the next one.
 */
public final class CpuDevice implements Device {
    /**
     * The most blocks a CPU device may run at once ({@link #CpuDevice(int)}). Each is a platform thread; the
     * bound catches a mistyped value before it starts tens of thousands of threads (a large GPU holds a few
     * thousand resident blocks).
     */
    public static final int MAX_CONCURRENT_BLOCKS = 4096;
    /**
     * The stream priorities the CPU device offers: those of a recent GPU (CUDA reports least 0, greatest -5 on
     * compute capability 7.0 and later), so that a scheduler behaves on it as on such a GPU.
     */
    public static final StreamPriorities STREAM_PRIORITIES = new StreamPriorities(0, -5);
    private static final System.Logger LOG = System.getLogger(CpuDevice.class.getName());

    private final BiFunction<String, String, CompiledModule> compiler;
    /** Its ordinal among the CPU devices of one context ({@link #CpuDevice(int, int, Chaos)}); 0 unless given. */
    private final int ordinal;
    /** The simulated link for copies between this device's buffers and another device's ({@link CpuLink}). */
    private volatile CpuLink link = CpuLink.NONE;
    /** Null unless in chaos mode. */
    private final Chaos chaos;
    private final DeviceProperties properties;
    private final WorkerPool pool;
    private final CpuStream defaultStream;
    private final Set<CpuStream> streams = ConcurrentHashMap.newKeySet();
    private final Set<CpuBuffer> buffers = ConcurrentHashMap.newKeySet();
    /** The bytes of {@link #buffers}. */
    private final AtomicLong allocatedBytes = new AtomicLong();
    /** Live buffers by their segment's address: how PTX kernels find the buffer a raw pointer points into. */
    private final ConcurrentSkipListMap<Long, GlobalMemory.Region> byAddress = new ConcurrentSkipListMap<>();
    private final PendingFailures failures = new PendingFailures();
    private final AtomicInteger nextStreamId = new AtomicInteger(1);
    private final AtomicLong nextBufferId = new AtomicLong(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final LaunchStops stops = new LaunchStops();
    /** Where kernels' printf output goes ({@link #setPrintfSink}). */
    private volatile OutputStream printfSink = System.out;
    private volatile PtxTranslator ptxTranslator;

    /** A device with one worker thread per available processor and the kernel engine as its compiler. */
    public CpuDevice() {
        this(defaultConcurrentBlocks(), KernelEngine::compile);
    }

    /**
     * A device that runs up to {@code concurrentBlocks} thread blocks at once, across all its streams, with the
     * kernel engine as its compiler. Each block in flight has a worker thread of its own, and the device
     * reports {@code concurrentBlocks} multiprocessors. More blocks than cores pays off when kernels wait
     * rather than compute: a block waiting in {@code __nanosleep} holds its worker but no core, so a grid of
     * {@code G} blocks that each sleep {@code T} takes about {@code ceil(G / concurrentBlocks) * T} whatever
     * the number of cores. For computing kernels, more blocks than cores only adds switching between threads.
     *
     * @throws IllegalArgumentException unless {@code 1 <= concurrentBlocks <= }{@link #MAX_CONCURRENT_BLOCKS}
     */
    public CpuDevice(int concurrentBlocks) {
        this(concurrentBlocks, KernelEngine::compile);
    }

    /**
     * A device in chaos mode ({@link Chaos}) that runs up to {@code concurrentBlocks} blocks at once (see
     * {@link #CpuDevice(int)}) with the kernel engine as its compiler.
     */
    public CpuDevice(int concurrentBlocks, Chaos chaos) {
        this(concurrentBlocks, KernelEngine::compile, chaos);
    }

    /**
     * A device that runs up to {@code concurrentBlocks} blocks at once, one worker thread each (see
     * {@link #CpuDevice(int)}), and compiles with {@code compiler} ({@code (source, fileName) -> module}); for
     * tests and tuning.
     */
    public CpuDevice(int concurrentBlocks, BiFunction<String, String, CompiledModule> compiler) {
        this(concurrentBlocks, compiler, Optional.empty());
    }

    /**
     * A device in chaos mode ({@link Chaos}) with one worker thread per available processor and the kernel
     * engine as its compiler. For a device without chaos use {@link #CpuDevice()}.
     */
    public CpuDevice(Chaos chaos) {
        this(defaultConcurrentBlocks(), KernelEngine::compile, Optional.of(requireChaos(chaos)));
    }

    /**
     * A device in chaos mode ({@link Chaos}) that runs up to {@code concurrentBlocks} blocks at once, one
     * worker thread each, and compiles with {@code compiler}. For a device without chaos use
     * {@link #CpuDevice(int, BiFunction)}.
     */
    public CpuDevice(int concurrentBlocks, BiFunction<String, String, CompiledModule> compiler, Chaos chaos) {
        this(concurrentBlocks, compiler, Optional.of(requireChaos(chaos)));
    }

    /**
     * One of several CPU devices of a context standing in for several GPUs: device {@code ordinal}, running up to
     * {@code concurrentBlocks} blocks at once (see {@link #CpuDevice(int)}) with the kernel engine, in chaos mode
     * if {@code chaos} is not null. Each device has its own memory: its kernels accept only its own buffers, and
     * data reaches it by copies ({@link dev.polygpu.device.Stream#copy} accepts a buffer of another CPU device, a
     * peer copy, delayed by {@link #setLink the link}); its streams may wait for other CPU devices' events.
     *
     * @throws IllegalArgumentException if {@code ordinal} is negative or {@code concurrentBlocks} out of range
     */
    public CpuDevice(int ordinal, int concurrentBlocks, Chaos chaos) {
        this(ordinal, concurrentBlocks, KernelEngine::compile, Optional.ofNullable(chaos));
    }

    private CpuDevice(int concurrentBlocks, BiFunction<String, String, CompiledModule> compiler,
            Optional<Chaos> chaos) {
        this(0, concurrentBlocks, compiler, chaos);
    }

    private CpuDevice(int ordinal, int concurrentBlocks, BiFunction<String, String, CompiledModule> compiler,
            Optional<Chaos> chaos) {
        checkConcurrentBlocks(concurrentBlocks);
        if (compiler == null) {
            throw new IllegalArgumentException("compiler must not be null");
        }
        if (ordinal < 0) {
            throw new IllegalArgumentException("a CPU device's ordinal must be 0 or more, got " + ordinal);
        }
        this.ordinal = ordinal;
        this.compiler = compiler;
        this.chaos = chaos.orElse(null);
        this.properties = CpuDeviceProperties.of(concurrentBlocks);
        this.pool = new WorkerPool(concurrentBlocks, "polygpu-cpu-worker-", this.chaos);
        chaos.ifPresent(c -> LOG.log(System.Logger.Level.DEBUG, "CPU device in chaos mode (" + c + ")"));
        this.defaultStream = new CpuStream(this, 0, STREAM_PRIORITIES.least());
        streams.add(defaultStream);
    }

    @Override
    public int ordinal() {
        return ordinal;
    }

    /**
     * Sets the simulated link ({@link CpuLink}) for the copies queued from now on, on this device's streams,
     * between one of its buffers and another CPU device's: each waits {@link CpuLink#nanosFor} before it copies.
     */
    public void setLink(CpuLink link) {
        this.link = Objects.requireNonNull(link, "link must not be null");
    }

    /** The simulated link of copies between this device's buffers and other CPU devices' ({@link #setLink}). */
    public CpuLink link() {
        return link;
    }

    @Override
    public String backend() {
        return "cpu";
    }

    @Override
    public DeviceProperties properties() {
        return properties;
    }

    @Override
    public long freeMemory() {
        ensureOpen();
        return Math.max(0, properties.totalGlobalMemory() - allocatedBytes.get());
    }

    @Override
    public long allocatedBytes() {
        return allocatedBytes.get();
    }

    @Override
    public UnifiedBuffer allocate(long bytes) {
        ensureOpen();
        CpuBuffer b = CpuBuffer.allocate(this, nextBufferId.getAndIncrement(), bytes);
        buffers.add(b);
        allocatedBytes.addAndGet(bytes);
        byAddress.put(b.address(), new GlobalMemory.Region(b.address(), b.hostView(), "buffer #" + b.id() + " ("
                + bytes + " bytes)"));
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
        String name = fileName == null ? "kernel.cu" : fileName;
        CompiledModule m = compiler.apply(source, name);
        if (m == null) {
            throw new DeviceException(CudaError.INVALID_SOURCE, "the kernel engine returned no module for " + name);
        }
        return CpuModule.compiled(this, m, name, source);
    }

    /**
     * Loads PTX text (what {@code nvcc -ptx} writes) into a module whose kernels the CPU device interprets
     * ({@code device.cpu.ptx}); every instruction is checked here, so an unsupported one is refused now, naming
     * file and line, and never while a kernel runs. A fatbinary runs its PTX entry (decompressed; the one for the
     * newest architecture if there are several); a cubin, or a fatbinary of cubins only, is NOT_SUPPORTED
     * (machine code for a GPU), CUDA C source INVALID_IMAGE (it goes to {@link #compile}).
     */
    @Override
    public Module load(byte[] image, String fileName) {
        ensureOpen();
        String name = fileName == null ? "kernel.ptx" : fileName;
        PtxModule m = PtxModule.load(image, name, this::regionAt);
        return CpuModule.loaded(this, m, name, m.text());
    }

    /**
     * The live buffer with the greatest address at or below {@code address}, as a region of global memory (it
     * holds the address unless the address lies past its end); null if there is none.
     */
    private GlobalMemory.Region regionAt(long address) {
        Map.Entry<Long, GlobalMemory.Region> e = byAddress.floorEntry(address);
        return e == null ? null : e.getValue();
    }

    @Override
    public Stream defaultStream() {
        ensureOpen();
        return defaultStream;
    }

    @Override
    public Stream createStream() {
        return createStream(STREAM_PRIORITIES.least());
    }

    @Override
    public StreamPriorities streamPriorities() {
        return STREAM_PRIORITIES;
    }

    /**
     * A new stream whose launches' blocks start before those of lower-priority streams waiting for a worker
     * thread (numerically lower is higher; clamped into {@link #STREAM_PRIORITIES}, as CUDA clamps it). A
     * running block is not preempted, and launches of equal priority take turns chunk by chunk.
     */
    @Override
    public Stream createStream(int priority) {
        ensureOpen();
        CpuStream s = new CpuStream(this, nextStreamId.getAndIncrement(), STREAM_PRIORITIES.clamp(priority));
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
        return new CpuEvent(this, timing);
    }

    @Override
    public void synchronize() {
        ensureOpen();
        ensureNotOnDispatcher("Device.synchronize");
        for (CpuStream s : List.copyOf(streams)) {
            s.awaitIdle();
        }
        DeviceException first = takeFirstFailure();
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void close() {
        ensureNotOnDispatcher("Device.close");
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (CpuStream s : List.copyOf(streams)) {
            s.shutdown();
        }
        pool.shutdown();
        for (DeviceException e = takeFirstFailure(); e != null; e = takeFirstFailure()) {
            LOG.log(System.Logger.Level.WARNING, "failure not reported before the device was closed: "
                    + e.getMessage(), e);
        }
        for (CpuBuffer b : List.copyOf(buffers)) {
            b.release("closing its device");
        }
    }

    /** How many blocks a device runs at once unless told otherwise: one per available processor. */
    public static int defaultConcurrentBlocks() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** How many blocks this device runs at once, across all its streams (its worker threads). */
    public int concurrentBlocks() {
        return pool.threads();
    }

    /** The chaos-mode settings, or empty when the device is not in chaos mode. */
    public Optional<Chaos> chaos() {
        return Optional.ofNullable(chaos);
    }

    /** The device's name and, in chaos mode, {@code [chaos seed=…,delay=…]} (the chaos option string). */
    @Override
    public String toString() {
        String name = ordinal == 0 ? properties.name() : properties.name() + " " + ordinal;
        return chaos == null ? name : name + " [chaos " + chaos + "]";
    }

    /**
     * Sets where the {@code printf} output and assertion messages of this device's kernels are written
     * ({@link System#out} unless set): each launch's output, in one write, once the kernel has finished and
     * before the launch counts as complete, so whoever waits for the kernel finds its output already written.
     * Launches already finished keep the sink they wrote to; the stream is neither closed nor owned by the
     * device. Kernels that do not print cost nothing.
     */
    public void setPrintfSink(OutputStream sink) {
        this.printfSink = Objects.requireNonNull(sink, "sink must not be null");
    }

    /**
     * Limits how long each launch may run, from when its first block may start (queueing behind other work on its
     * stream does not count); {@code null} or zero for no limit (the default). A launch still running at the
     * limit is stopped where its threads are (at a loop back-edge or barrier, or between blocks) and fails with
     * LAUNCH_TIMEOUT, like a GPU's watchdog, naming the kernel and the limit; the device goes on with the next
     * work. Applies to launches that start after the call.
     *
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    public void setKernelTimeout(Duration limit) {
        stops.setTimeout(limit);
    }

    /**
     * Stops every launch queued or running now, on every stream: each fails with LAUNCH_FAILED and a fault that
     * names the kernel and says it stopped and {@code reason}; the device and its streams go on with later work.
     * Running threads stop at their next loop back-edge or barrier. Returns at once, without waiting for them;
     * returns how many launches it stopped.
     */
    @Override
    public int stopLaunches(String reason) {
        return stops.stopAll(Objects.requireNonNull(reason, "reason"), false);
    }

    /**
     * As {@link #stopLaunches}, and every launch queued later fails the same way without running: for a device
     * about to be {@linkplain #close() closed} whose work nobody will wait for (a context closed while a kernel
     * may never end), so that the close does not wait for it.
     */
    @Override
    public void stopAllLaunches(String reason) {
        stops.stopAll(Objects.requireNonNull(reason, "reason"), true);
    }

    LaunchStops launchStops() {
        return stops;
    }

    /**
     * What makes the PTX that modules compiled from CUDA C show as their {@link Module#intermediateCode()}
     * (the CUDA device's compiler, where there is one); null, the default, for none.
     */
    public void setPtxTranslator(PtxTranslator translator) {
        this.ptxTranslator = translator;
    }

    PtxTranslator ptxTranslator() {
        return ptxTranslator;
    }

    /** The current {@link #setPrintfSink printf sink}. */
    public OutputStream printfSink() {
        return printfSink;
    }

    WorkerPool pool() {
        return pool;
    }

    /** A new failure of stream {@code streamId}, ordered after the device's earlier ones. */
    Failure newFailure(int streamId, DeviceException error) {
        return failures.failure(streamId, error);
    }

    /** Called by a buffer once freed. */
    void forget(CpuBuffer b) {
        if (buffers.remove(b)) {
            allocatedBytes.addAndGet(-b.byteSize());
        }
        byAddress.remove(b.address());
    }

    /** Called by a stream once shut down, with the failure it could no longer report. */
    void streamClosed(CpuStream s, Failure unreported) {
        streams.remove(s);
        failures.orphan(unreported);
    }

    /**
     * The event as a CPU device's, this one's or another's (a stream may wait for an event of another device, as
     * {@code cudaStreamWaitEvent} allows), or INVALID_HANDLE.
     */
    static CpuEvent checkAnyEvent(Event event) {
        if (!(event instanceof CpuEvent e)) {
            throw new DeviceException(CudaError.INVALID_HANDLE,
                    event == null ? "event is null" : "the event belongs to a device of another kind");
        }
        e.ensureOpen();
        return e;
    }

    /** The event as this device's, or INVALID_HANDLE. */
    CpuEvent checkEvent(Event event) {
        if (!(event instanceof CpuEvent e) || e.device() != this) {
            throw new DeviceException(CudaError.INVALID_HANDLE,
                    event == null ? "event is null" : "the event belongs to another device");
        }
        e.ensureOpen();
        return e;
    }

    /** Throws NOT_PERMITTED when called from a stream's dispatcher (a callback), where waiting would deadlock. */
    void ensureNotOnDispatcher(String what) {
        Thread t = Thread.currentThread();
        if (!t.isVirtual()) {
            return;
        }
        for (CpuStream s : streams) {
            if (s.isDispatcher(t)) {
                throw new DeviceException(CudaError.NOT_PERMITTED, what + " was called from a completion "
                        + "callback of stream " + s.id() + "; callbacks must not call into the device");
            }
        }
    }

    private static Chaos requireChaos(Chaos chaos) {
        if (chaos == null) {
            throw new IllegalArgumentException("chaos must not be null; use the constructor without chaos for a "
                    + "device that is not in chaos mode");
        }
        return chaos;
    }

    /**
     * Throws {@link IllegalArgumentException} naming the accepted range unless {@code concurrentBlocks} is a
     * valid number of blocks in flight (1 to {@link #MAX_CONCURRENT_BLOCKS}).
     */
    private static void checkConcurrentBlocks(int concurrentBlocks) {
        if (concurrentBlocks < 1 || concurrentBlocks > MAX_CONCURRENT_BLOCKS) {
            throw new IllegalArgumentException("concurrentBlocks (how many blocks the CPU device runs at once, one"
                    + " worker thread each) must be between 1 and " + MAX_CONCURRENT_BLOCKS + ", got "
                    + concurrentBlocks);
        }
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new DeviceException(CudaError.INVALID_CONTEXT, "the CPU device was closed");
        }
    }

    /** Removes and returns the earliest unreported failure of any stream, or null. */
    private DeviceException takeFirstFailure() {
        return failures.takeFirst(streams);
    }
}
