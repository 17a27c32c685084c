package dev.polygpu.runtime;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs computational elements on one device asynchronously: each {@link #submit submitted} element's
 * parents are inferred from the arrays it touches ({@link DependencyTracker}), it is placed on a stream by the
 * stream policies, parents on other streams become device-side event waits, and its completion is observed
 * by a stream callback as it happens, so streams return to the pool without the host synchronizing. The host
 * waits only where it must: {@link #awaitHost} for the elements that write (or, for a host write, touch) one
 * array, {@link #synchronize} for all.
 *
 * <p>Elements whose parents are placed wait until the in-flight window has room, and are then placed
 * <em>highest rank first</em>, ties in submission order. An element's rank is its bottom level: the number of
 * elements on the longest chain of dependencies from it to the last element submitted, itself included (1
 * while nothing depends on it); it is kept up to date as elements are submitted. Running the
 * heads of long chains first is list scheduling by critical path: it starts the work that decides when the
 * program ends early. Elements whose parents are all complete are <em>ready</em>, and a cluster layer may
 * {@link #steal} them, highest rank first, and complete them elsewhere. State is proportional to outstanding
 * work: completed vertices are dropped at once. With {@link SchedulerConfig#stolenOverflow()} above 0, an
 * element a cluster layer handed here ({@link #submitHere}) may go on the streams beyond a full window when it
 * is first in line and its stream priority level would be above 0, so that it waits only for a free slot on the
 * device.
 *
 * <p>Over several devices ({@link #Scheduler(List, SchedulerConfig, MultiDeviceConfig)}), each element is placed on
 * one by the device selection policy when it is submitted, and {@link Coherence} keeps each array's copies on the
 * devices and the host coherent with transfers that are elements of the DAG (see docs/scheduler.md, Several devices).
 *
 * <p>Ordering guarantee (thread-safety): any thread may call any method. Submissions are linearized by one
 * lock: an element's parents are the conflicting elements submitted before it, in the order the submitting
 * calls took the lock. Elements submitted by one thread therefore keep that thread's program order, and
 * elements from different threads are ordered as their submit calls were; the DAG is never corrupted. Host
 * accesses that race with another thread's submissions on the same array are unordered, as any data race.
 *
 * <p>Implementation notes: {@link #lock} guards every mutable field here, in the parts this class delegates to
 * ({@link RankQueue}: the waiting elements and their ranks; {@link StreamPlacer}: what is on the streams and the
 * in-flight window; {@link ClusterSide}: what a cluster layer took; {@link StreamPools}: the streams; {@link
 * Coherence}: with several devices, placement, the arrays' copies and the transfers), in {@link Vertex}, {@link
 * StreamSlot} and in the {@link TrackedArray}s' dependency fields; those parts are only called with it held. The
 * host's waits ({@link HostWaits}) take it themselves and release it only while they wait. Stream operations
 * (launch, record, waitFor, whenComplete) are called under the lock; they only queue and never wait for stream
 * callbacks, and the callbacks ({@link StreamPlacer}'s) take the lock, so the lock order is scheduler lock → stream
 * lock and never the reverse. Calls that wait for streams (synchronize, close) are made without the lock.
 * Observers are called under the lock, which keeps their calls sequential. Elements are launched by the submitting
 * thread when they can be, and otherwise by the dispatcher thread, woken by completions; completion callbacks never
 * call the device.
 */
public final class Scheduler implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Scheduler.class.getName());

    private final Device device;
    /** The devices elements run on; {@link #device} is the first. */
    private final List<Device> devices;
    /** Placement and coherence over several devices; null with one, where nothing of it is needed. */
    private final Coherence coherence;
    private final SchedulerConfig config;
    /** Elements on streams at once as configured (the configured window, or the device's default). */
    private final int configuredWindow;
    private final DependencyTracker tracker;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a vertex completes or leaves the pending queue. */
    private final Condition changed = lock.newCondition();
    /** Signalled when the dispatcher may be able to launch something. */
    private final Condition dispatchable = lock.newCondition();
    /** The elements waiting to be placed, in rank order, and the rank propagation that orders them. */
    private final RankQueue queue = new RankQueue();
    /** What a cluster layer takes from this device and gives back. */
    private final ClusterSide cluster;
    /** The host's waits for elements: host accesses, releases, fences and synchronization. */
    private final HostWaits waits;
    /** The streams elements go on, per device, owned per priority level or the user's. */
    private final StreamPools streams;
    /** Places elements on the streams within the in-flight window and observes their completion. */
    private final StreamPlacer placer;
    private final ArrayDeque<Failure> unreported = new ArrayDeque<>();
    private final List<ScheduleObserver> observers = new ArrayList<>();
    private final Thread dispatcher;
    private long nextElementId = 1;
    private long nextArrayId = 1;
    private long outstanding;
    private long submitted;
    private long completedCount;
    private boolean closed;

    public Scheduler(Device device, SchedulerConfig config) {
        this(device == null ? null : List.of(device), config, MultiDeviceConfig.DEFAULT);
    }

    /**
     * A scheduler over several devices, each with its own memory: every element is placed on one of them by
     * {@code placement}'s policy, arrays are copied between the devices (and the host, whose copy is each array's
     * own buffer) as the elements need them, by transfers that are elements of the DAG. With one device it is the
     * single-device scheduler of {@link #Scheduler(Device, SchedulerConfig)}, and {@code placement} is not used.
     * The devices should be alike (stream priorities are those all of them offer); at most 63. A cluster layer
     * takes elements with their arrays' copies on the device they were placed on ({@link StolenElement#buffer}).
     *
     * @throws IllegalArgumentException for no devices, a device listed twice, more than 63, or a bandwidth matrix
     *     of another size than the devices and the host
     */
    public Scheduler(List<Device> devices, SchedulerConfig config, MultiDeviceConfig placement) {
        if (devices == null || devices.isEmpty() || config == null || placement == null) {
            throw new IllegalArgumentException("a scheduler needs a device, a configuration and a placement config");
        }
        this.devices = List.copyOf(devices);
        if (new java.util.HashSet<>(this.devices).size() != this.devices.size()) {
            throw new IllegalArgumentException("a device is listed twice: " + devices);
        }
        this.device = this.devices.get(0);
        int window = 0;
        for (Device d : this.devices) {
            window += config.windowFor(d.properties().multiProcessorCount());
        }
        this.coherence = this.devices.size() == 1 ? null
                : new Coherence(this, this.devices, placement, config.parentStreams());
        this.config = config;
        // A configured window is the scheduler's; the default is each device's, summed.
        this.configuredWindow = config.inFlightWindow() > 0 ? config.inFlightWindow() : window;
        this.tracker = new DependencyTracker(config.dependencies());
        this.streams = new StreamPools(this.devices, config);
        this.placer = new StreamPlacer(this, config, lock, changed, dispatchable, queue, streams, observers,
                this.devices, configuredWindow);
        this.cluster = new ClusterSide(this, queue, changed, placer::deviceName, observers);
        this.waits = new HostWaits(this, lock, changed, tracker, queue, streams, observers, unreported);
        this.dispatcher = Thread.ofVirtual().name("polygpu-scheduler").start(this::dispatchLoop);
    }

    /** The first device (the only one, unless several were given). */
    public Device device() {
        return device;
    }

    /** The devices elements run on, in index order. */
    public List<Device> devices() {
        return devices;
    }

    /** What the transfers between devices (and the host) came to so far: how many, and their bytes. */
    public record Transfers(long count, long bytes) {
    }

    /** The transfers submitted so far; none with one device. */
    public Transfers transfers() {
        lock.lock();
        try {
            return coherence == null ? new Transfers(0, 0) : coherence.stats();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes device {@code index} (of {@link #devices()}) the current one, as {@code cudaSetDevice} does: the
     * {@code single-gpu} policy places every element submitted from now on there.
     *
     * @throws IllegalArgumentException if there is no such device, naming the valid indices
     */
    public void setCurrentDevice(int index) {
        lock.lock();
        try {
            if (coherence != null) {
                coherence.placement().setCurrent(index);
            } else if (index != 0) {
                throw new IllegalArgumentException("there is no device " + index + "; the only device is 0");
            }
        } finally {
            lock.unlock();
        }
    }

    /** The current device's index ({@link #setCurrentDevice}). */
    public int currentDevice() {
        lock.lock();
        try {
            return coherence == null ? 0 : coherence.placement().current();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Builds {@code function}'s kernel from {@code source} on each of the other devices that lacks it, as submitting
     * an element of it does first; nothing with one device. For a caller that compiles on a thread of its own and
     * wants the submission that follows not to compile (a cluster layer building a stolen kernel once).
     *
     * @throws DeviceException the compile error of a device
     */
    public void buildEverywhere(KernelFunction function, KernelSource source) {
        if (coherence != null) {
            coherence.buildKernels(function, source);
        }
    }

    /**
     * A buffer holding {@code array}'s contents as of the elements submitted so far, for reading them on the host
     * without a transfer home: the array's own buffer when the host's copy is up to date, else the copy on the
     * lowest device holding them (several devices). A cluster layer reads the results of an element it ran here
     * ({@link #submitHere(ComputationalElement, int, Completion)}) from it once the element completed. The caller
     * must make sure no element submitted after it writes the array while it reads.
     *
     * @throws IllegalStateException if no location holds them yet, the element that makes them so being
     *     outstanding: wait for it first
     */
    public UnifiedBuffer settledCopy(TrackedArray array) {
        lock.lock();
        try {
            if (coherence == null) {
                return array.buffer();
            }
            int at = coherence.settledLocation(array);
            if (at < 0) {
                throw new IllegalStateException(array + " is not up to date anywhere yet: an element that writes it "
                        + "or copies it is outstanding; wait for it first");
            }
            return coherence.bufferAt(array, at);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The buffer a taken element's {@code array} is read from and written to while it runs elsewhere: its copy on
     * the device the element was placed on, or with one device the array's own buffer.
     */
    UnifiedBuffer bufferOf(Vertex v, TrackedArray array) {
        lock.lock();
        try {
            return coherence == null ? array.buffer() : coherence.bufferAt(array, v.device);
        } finally {
            lock.unlock();
        }
    }

    /** Placement and coherence over several devices, or null with one; under the lock. */
    Coherence coherence() {
        return coherence;
    }

    public SchedulerConfig config() {
        return config;
    }

    /**
     * How many elements may be on this device's streams at once (elements a cluster layer handed here may go
     * up to {@link SchedulerConfig#stolenOverflow()} beyond it).
     */
    public int inFlightWindow() {
        return placer.window();
    }

    /** {@return the in-flight window this scheduler was configured with, whatever it is now} */
    public int configuredInFlightWindow() {
        return configuredWindow;
    }

    /**
     * Changes how many elements may be on this device's streams at once, from now on: a cluster layer that
     * learnt its device is slower than other members' keeps fewer elements here. Elements already on the streams
     * stay there when the window shrinks below them; when it grows, waiting elements go on at once.
     *
     * @param newWindow at least 1
     * @throws IllegalArgumentException if {@code newWindow} is below 1
     */
    public void setInFlightWindow(int newWindow) {
        if (newWindow < 1) {
            throw new IllegalArgumentException("the in-flight window must be at least 1, was " + newWindow);
        }
        lock.lock();
        try {
            placer.setWindow(newWindow);
        } finally {
            lock.unlock();
        }
    }

    /** Installs an observer; it sees what is submitted from now on. */
    public void addObserver(ScheduleObserver observer) {
        lock.lock();
        try {
            observers.add(observer);
        } finally {
            lock.unlock();
        }
    }

    /** Starts tracking an array; {@code name} is how messages and exports show it. */
    public TrackedArray track(String name, UnifiedBuffer buffer, long bytes) {
        lock.lock();
        try {
            TrackedArray array = new TrackedArray(this, nextArrayId++, name, buffer, bytes);
            if (coherence != null) {
                coherence.track(array);
            }
            return array;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Submits an element. Under the async policy this returns once the element is queued (on a stream, or
     * waiting for its parents or the window); under sync it returns once the element completed, throwing its
     * failure. An argument error the device finds when queueing is thrown here when this thread queued it.
     * Blocks while {@link SchedulerConfig#maxQueued} elements wait for the window.
     */
    public void submit(ComputationalElement element) {
        submit(element, null);
    }

    /**
     * Submits an element that runs on this device and is never taken by a cluster layer, and calls
     * {@code whenDone} once it completed: with null, or with its error (which is then considered reported and
     * does not surface at a later synchronize). For running work taken from another member. {@code whenDone}
     * runs on its own virtual thread, never under the scheduler's lock, and may call the scheduler.
     */
    public void submitHere(ComputationalElement element, Consumer<DeviceException> whenDone) {
        if (whenDone == null) {
            throw new IllegalArgumentException("submitHere needs a completion callback");
        }
        submit(element, whenDone);
    }

    /**
     * As {@link #submitHere(ComputationalElement, Consumer)}, for an element that had rank {@code rank} where it
     * came from: it counts here with at least that rank (its bottom level in the program it belongs to), so that
     * it runs ahead of the lower-ranked work here as it would have there.
     *
     * @param rank its rank elsewhere; 0 when unknown (it then ranks as any element: 1 plus its children here)
     * @throws IllegalArgumentException if {@code rank} is negative or {@code whenDone} is null
     */
    public void submitHere(ComputationalElement element, int rank, Consumer<DeviceException> whenDone) {
        if (whenDone == null) {
            throw new IllegalArgumentException("submitHere needs a completion callback");
        }
        submitHere(element, rank, (error, runNanos) -> whenDone.accept(error));
    }

    /**
     * What a cluster layer hears when an element it handed here ({@link #submitHere(ComputationalElement, int,
     * Completion)}) completed.
     */
    @FunctionalInterface
    public interface Completion {
        /**
         * @param error null, or the element's error (then considered reported)
         * @param runNanos how long it ran on the device, from its start there (or its last parent's end, if
         *     later) to its end: what the device took, without the wait for the window; 0 if it never ran
         */
        void done(DeviceException error, long runNanos);
    }

    /**
     * As {@link #submitHere(ComputationalElement, int, Consumer)}, telling {@code whenDone} also how long the
     * element ran on the device (a cluster layer compares that with its owner's time to learn how fast this
     * device is).
     *
     * @throws IllegalArgumentException if {@code rank} is negative or {@code whenDone} is null
     */
    public void submitHere(ComputationalElement element, int rank, Completion whenDone) {
        if (whenDone == null) {
            throw new IllegalArgumentException("submitHere needs a completion callback");
        }
        if (rank < 0) {
            throw new IllegalArgumentException("an element's rank is 0 (unknown) or more, got " + rank);
        }
        submit(element, rank, whenDone);
    }

    private void submit(ComputationalElement element, Consumer<DeviceException> whenDone) {
        submit(element, 0, whenDone == null ? null : (error, runNanos) -> whenDone.accept(error));
    }

    private void submit(ComputationalElement element, int rank, Completion whenDone) {
        for (Access a : element.accesses()) {
            if (a.array().owner != this) {
                throw new IllegalArgumentException(a.array() + " is tracked by another scheduler");
            }
        }
        if (coherence != null) {
            coherence.buildKernels(element);
        }
        lock.lock();
        try {
            ensureOpen();
            while (queue.pendingCount() >= config.maxQueued()) {
                changed.awaitUninterruptibly();
                ensureOpen();
            }
            Vertex[] parents = tracker.parentsOf(element);
            int on = 0;
            if (coherence != null) {
                on = coherence.place(element, parents);
                try {
                    parents = coherence.prepare(element, on, parents);
                } catch (RuntimeException e) {
                    // A copy could not be allocated there (out of memory): the element was never submitted. The
                    // transfers submitted before stay valid elements; they run and make their copies up to date.
                    coherence.unplace(on);
                    throw e;
                }
            }
            Vertex v = new Vertex(nextElementId++, element, parents);
            v.device = on;
            v.rank = Math.max(1, rank);
            if (whenDone != null) {
                // Only submitHere passes a callback: work a cluster layer took from another member.
                v.pinned = true;
                v.stolen = true;
                v.whenDone = whenDone;
                if (coherence != null) {
                    // The transfers to its device just submitted for it may pass a full window as it may.
                    for (Vertex p : parents) {
                        if (p.element != null && p.element.kind() == ElementKind.TRANSFER && !p.done()) {
                            p.stolen = true;
                        }
                    }
                }
            }
            register(v);
            if (coherence != null) {
                coherence.recorded(v, on);
                coherence.chooseStreamParent(v);
            }
            queue.enqueue(v);
            dispatchLocked();
            if (v.launchRejected) {
                // This thread queued it and the device refused the arguments: the caller's error, reported now.
                throw v.failure.report(nextElementId);
            }
            if (config.execution() == SchedulerConfig.ExecutionPolicy.SYNC) {
                awaitLocked(v);
                if (v.failure != null && !v.failure.reported()) {
                    throw v.failure.report(nextElementId);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Submits a transfer {@link Coherence} made, to run on device {@code on} after the elements the tracker finds
     * and {@code source} (what made the copy it reads up to date, if outstanding); under the lock. It is not
     * launched here: the element that needs it, submitted next, dispatches both.
     */
    Vertex submitTransfer(ComputationalElement transfer, int on, Vertex source) {
        Vertex[] parents = tracker.parentsOf(transfer);
        if (source != null && !source.done() && !java.util.Arrays.asList(parents).contains(source)) {
            parents = java.util.Arrays.copyOf(parents, parents.length + 1);
            parents[parents.length - 1] = source;
        }
        Vertex t = new Vertex(nextElementId++, transfer, parents);
        t.device = on;
        t.pinned = true;
        register(t);
        coherence.chooseStreamParent(t);
        queue.enqueue(t);
        return t;
    }

    /**
     * Enters the new vertex {@code v} into the DAG: its rank, the tracker's record of its accesses, the counters
     * and the observers; under the lock.
     */
    void register(Vertex v) {
        queue.linkAndRank(v);
        tracker.record(v, !observers.isEmpty());
        v.submitNanos = System.nanoTime();
        submitted++;
        outstanding++;
        ComputationalElement e = v.element;
        notifySubmitted(v.id, e.kind(), e.label(), e.accesses(), v.parents);
    }

    /**
     * Blocks until the host may access {@code array} with {@code mode}: a read waits for the outstanding
     * elements that write it, a write for all that touch it. Then throws, once, the failure of an element it
     * waited for or of one that wrote the array. {@code label} names the access in exports (e.g. {@code
     * read x[3]}). Cheap when nothing is outstanding; callers check {@link TrackedArray#hostReadReady()}
     * first to skip even this.
     */
    public void awaitHost(TrackedArray array, AccessMode mode, String label) {
        try {
            waits.awaitHost(array, mode, label, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * As {@link #awaitHost(TrackedArray, AccessMode, String)}, but an interrupt of the waiting thread ends the
     * wait with {@link InterruptedException}: the access did not happen, nothing it waited for is affected, and a
     * later access waits again. For callers that must let their user stop a wait (a notebook cell); a caller that
     * may resume the wait after an interrupt uses {@link #beginHostAccess} instead, so that the DAG shows one
     * access, not one per interrupt.
     */
    public void awaitHostInterruptibly(TrackedArray array, AccessMode mode, String label)
            throws InterruptedException {
        waits.awaitHost(array, mode, label, true);
    }

    /**
     * Enters a host access into the DAG without waiting: {@link #finishHostAccess} then waits for it, as often as
     * an interrupt ends that wait, and {@link #abandon} ends it if the caller gives up. The access is one element
     * of the DAG however often its wait is resumed. {@link #awaitHost} does all three at once.
     */
    public HostStep beginHostAccess(TrackedArray array, AccessMode mode, String label) {
        return waits.beginAccess(array, mode, label);
    }

    /**
     * Waits for what {@code access} follows and completes it, as {@link #awaitHost} does (and throws what that
     * throws). If {@code interruptible}, an interrupt of this thread ends the wait with {@link
     * InterruptedException} and leaves the access open, to be waited for again or {@link #abandon abandoned}.
     *
     * @throws IllegalStateException if the access has completed or was abandoned
     */
    public void finishHostAccess(HostStep access, boolean interruptible) throws InterruptedException {
        if (access.array == null) {
            throw new IllegalArgumentException(access + " is not a host access");
        }
        waits.finishAccess(access, interruptible);
    }

    /**
     * Ends {@code step} if it has not happened: an access that never happened ends failed for observers (the
     * tracker never saw it); a call that never ran completes as an element that did nothing, so nothing waits for
     * it. Nothing once the access completed or the call started; meant for a {@code finally} block.
     */
    public void abandon(HostStep step) {
        waits.abandon(step);
    }

    /**
     * Runs a host call on this thread as an element of the DAG: {@code call} (an element made by {@link
     * ComputationalElement#hostCall}) gets its parents from the arrays it touches like any element; this thread
     * waits for them, runs {@code action}, and returns what it returns. While the action runs the call is
     * outstanding: elements submitted meanwhile (by other threads) that touch its arrays wait for it, as do
     * host accesses, {@link #release} and {@link #synchronize()}. It is never taken by a cluster layer.
     *
     * <p>If an element it waited for failed, that failure is thrown (once, as {@link #awaitHost} throws it) and
     * the action does not run. An exception of the action is thrown as it is; the call is complete then, and
     * work that depends on it goes on (the caller has seen the error).
     *
     * @param interruptible whether an interrupt of this thread ends the wait for the parents with {@link
     *        InterruptedException} (the action has not run then); the action itself is not interrupted
     */
    public <T> T callOnHost(ComputationalElement call, java.util.function.Supplier<T> action, boolean interruptible)
            throws InterruptedException {
        checkHostCall(call);
        return waits.callOnHost(call, action, interruptible);
    }

    /**
     * Enters the host call {@code call} into the DAG (as {@link #callOnHost} does) without waiting: {@link
     * #runHostCall} then waits for its parents, as often as an interrupt ends that wait, and runs it; {@link
     * #abandon} ends it if the caller gives up before it ran. It is one element of the DAG however often its
     * wait is resumed.
     */
    public HostStep beginHostCall(ComputationalElement call) {
        checkHostCall(call);
        return waits.beginCall(call);
    }

    /**
     * Waits for the parents of the host call {@code call} and runs {@code action} as it, as {@link #callOnHost}
     * does; if {@code interruptible}, an interrupt of this thread ends the wait with {@link
     * InterruptedException} and leaves the call open, to be run or {@link #abandon abandoned} later.
     *
     * @throws IllegalStateException if the call has run or was abandoned
     */
    public <T> T runHostCall(HostStep call, java.util.function.Supplier<T> action, boolean interruptible)
            throws InterruptedException {
        return waits.runCall(call, action, interruptible);
    }

    private void checkHostCall(ComputationalElement call) {
        if (call.kind() != ElementKind.HOST_CALL) {
            throw new IllegalArgumentException(call.describe() + " is not a host call");
        }
        for (Access a : call.accesses()) {
            if (a.array().owner != this) {
                throw new IllegalArgumentException(a.array() + " is tracked by another scheduler");
            }
        }
    }

    /**
     * Blocks until no outstanding element touches {@code array}, so its memory may be released. A failure of
     * such an element is not thrown here (the array is going away); it stays for {@link #synchronize()}. With
     * several devices, the array's copies on them are freed; the array is not to be used again.
     */
    public void release(TrackedArray array) {
        try {
            waits.release(array, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * As {@link #release(TrackedArray)}, but an interrupt of the waiting thread ends the wait with
     * {@link InterruptedException}: the memory must not be released then, and a later release waits again.
     */
    public void releaseInterruptibly(TrackedArray array) throws InterruptedException {
        waits.release(array, true);
    }

    /**
     * Prepares {@code array}'s memory for release as {@link #release(TrackedArray)} does if no outstanding element
     * touches it, without waiting: true if it may be released now; false, and nothing done, if an element still
     * uses it (release it later, after that work). For releases that must not block the calling thread.
     */
    public boolean tryRelease(TrackedArray array) {
        return waits.tryRelease(array);
    }

    /**
     * Orders work the user queues directly on {@code stream} (an event record, an event wait) after the
     * elements submitted so far: first every element submitted for {@code stream} is placed on it (waiting
     * for the window if needed); then, if {@code joinAll}, {@code stream} waits on the device for every
     * element on the scheduler's other streams, as CUDA's default stream waits for all others. The host
     * does not wait for any element to complete.
     */
    public void fence(Stream stream, boolean joinAll) {
        waits.fence(stream, joinAll);
    }

    /** Blocks until every submitted element completed; throws the first failure not reported yet. */
    public void synchronize() {
        try {
            waits.synchronize(false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * As {@link #synchronize()}, but an interrupt of the waiting thread ends the wait with
     * {@link InterruptedException}; the elements keep running.
     */
    public void synchronizeInterruptibly() throws InterruptedException {
        waits.synchronize(true);
    }

    /**
     * Blocks until every element placed (or to be placed) on the user's {@code stream} completed; throws the
     * first unreported failure among them.
     */
    public void synchronize(Stream stream) {
        waits.synchronize(stream);
    }

    /** A snapshot of the scheduler's counters. */
    public Stats stats() {
        lock.lock();
        try {
            Load load = cluster.load(placer.inFlight());
            return new Stats(submitted, completedCount, outstanding, placer.inFlight(), queue.pendingCount(),
                    cluster.remote(), streams.ownedCount(), placer.maxInFlightSeen(), load.ready(), load.stealable(),
                    placer.overflowed());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Counters: elements submitted and completed, outstanding now, on streams now, waiting to be placed,
     * taken by a cluster layer, streams the scheduler holds, the most elements ever on streams at once, ready
     * elements (parents complete, not placed) now, how many of those a cluster layer may take (kernels with
     * their source, not pinned, on no user stream), and how many elements handed here by a cluster layer went
     * on the streams beyond a full window ({@link SchedulerConfig#stolenOverflow()}).
     */
    public record Stats(long submitted, long completed, long outstanding, int inFlight, int waiting, int remote,
            int streams, int maxInFlight, int ready, int stealable, long overflowed) {
    }

    // ---- the cluster layer's side: ready elements it may take -------------------------------------------------

    /**
     * What this device has to do now, for a cluster layer's starvation and surplus decisions: {@code ready}
     * elements (parents complete, not on a stream yet), of which {@code stealable} may be taken, and
     * {@code running} elements on its streams.
     */
    public record Load(int ready, int stealable, int running) {
    }

    /** The device's {@link Load} now. Linear in the elements that may be placed (at most maxQueued). */
    public Load load() {
        lock.lock();
        try {
            return cluster.load(placer.inFlight());
        } finally {
            lock.unlock();
        }
    }

    /** How many elements may be taken now: ready (parents complete, not on a stream yet) and stealable. */
    public int readyCount() {
        return load().stealable();
    }

    /**
     * Takes the highest-ranked stealable element (the oldest among equals) off this device, or returns null if
     * none is ready. See {@link #steal(int, Predicate)}.
     */
    public StolenElement steal() {
        return steal(0, e -> true);
    }

    /** {@link #steal(int, Predicate)} with no minimum rank. */
    public StolenElement steal(Predicate<ComputationalElement> accept) {
        return steal(0, accept);
    }

    /**
     * Takes the highest-ranked stealable element (a kernel with its source, on no user stream, whose parents are
     * complete, not yet on a stream), the oldest among equal ranks, of rank at least {@code minRank}, that
     * {@code accept} agrees to move; or returns null if there is none. The
     * taker must {@link StolenElement#complete complete}, {@link StolenElement#fail fail} or
     * {@link StolenElement#giveBack give back} it; until then its children wait and its arrays stay as they
     * are (the scheduler keeps the inputs, so losing the taker means giving back and re-running here). An
     * element given back ({@link StolenElement#giveBack}) is pinned here: it is never taken again; one put back
     * ({@link StolenElement#putBack}) may be. {@code accept} runs under the scheduler's
     * lock and must be quick and must not call the scheduler.
     *
     * @param minRank the lowest rank it may take (a request by rank: {@link #floorRank}); 0 or less: any
     */
    public StolenElement steal(int minRank, Predicate<ComputationalElement> accept) {
        lock.lock();
        try {
            ensureOpen();
            return cluster.steal(minRank, accept);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The highest rank among the elements {@link #steal(int, Predicate)} could take now; 0 if there are none.
     * A cluster layer reports it with its surplus, so that requests by rank are sent where they can be served.
     */
    public int topStealableRank() {
        lock.lock();
        try {
            return cluster.topStealableRank();
        } finally {
            lock.unlock();
        }
    }

    /**
     * How a cluster layer decides, as a taken element completes, whether to take one of the children its
     * completion made stealable as well ({@link StolenElement#completeAndTake}).
     */
    @FunctionalInterface
    public interface Continuation {
        /**
         * Whether to take {@code child}. Runs under the scheduler's lock: it must be quick and must not call the
         * scheduler.
         *
         * @param child a child of the completed element that may be taken now
         * @param load this device's load now, {@code child} counted as ready and stealable
         * @return true to take it
         */
        boolean take(ComputationalElement child, Load load);
    }

    /**
     * Completes the taken {@code v}; then, with {@code next}, offers it the children this completion made
     * stealable, highest rank first (the oldest among equals), and takes the first it accepts, before any can
     * be placed here.
     *
     * @return the child taken, or null
     */
    StolenElement completeRemote(Vertex v, DeviceException failure, String member, long startNanos, long endNanos,
            Continuation next) {
        lock.lock();
        try {
            StolenElement taken = cluster.complete(v, failure, member, startNanos, endNanos, closed ? null : next,
                    placer.inFlight());
            dispatchable.signal();
            return taken;
        } finally {
            lock.unlock();
        }
    }

    void giveBack(Vertex v, boolean pin) {
        lock.lock();
        try {
            cluster.giveBack(v, pin);
            dispatchable.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Places what may go on the streams now ({@link StreamPlacer#dispatch}); true if anything did. */
    boolean dispatchLocked() {
        return placer.dispatch();
    }

    // ---- completion ------------------------------------------------------------------------------------------

    /**
     * Marks {@code v} complete: failure bookkeeping, dependency state, observers, waiters. Also called by
     * {@link ClusterSide} (under the lock) for an element a cluster layer completed.
     */
    void finish(Vertex v, Failure own, long startNanos) {
        Failure f = own;
        for (Vertex p : v.parents) {
            if (f == null && p.failure != null && v.id < p.failure.reportedBefore) {
                f = Failure.inherited(v, p, p.failure);
            }
            startNanos = Math.max(startNanos, Math.min(p.endNanos, v.endNanos));
        }
        if (f != null) {
            f.stream = v.element.stream();
            v.failure = f;
            if (v.whenDone == null) {
                unreported.addLast(f);
            } else {
                f.report(nextElementId);
            }
        }
        if (v.whenDone != null) {
            Completion done = v.whenDone;
            DeviceException error = f == null ? null : f.error;
            long ran = v.endNanos > 0 ? Math.max(0, v.endNanos - Math.min(startNanos, v.endNanos)) : 0;
            v.whenDone = null;
            Thread.startVirtualThread(() -> done.done(error, ran));
        }
        v.state = Vertex.State.DONE;
        v.parents = NO_PARENTS;
        v.streamParent = null;
        // From pending (a launch refused) or taken: its children no longer wait for it to be placed.
        queue.placed(v);
        RankQueue.leaveRun(v);
        tracker.retire(v, f);
        placer.recycleEvent(v);
        if (coherence != null) {
            coherence.completed(v);
        }
        v.slot = null;
        outstanding--;
        completedCount++;
        changed.signalAll();
        for (ScheduleObserver o : observers) {
            o.completed(v.id, Math.min(startNanos, v.endNanos), v.endNanos, f == null ? null : f.error.detail());
        }
    }

    static final Vertex[] NO_PARENTS = new Vertex[0];

    void awaitLocked(Vertex v) {
        try {
            awaitLocked(v, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }

    /** Waits for {@code v}; if {@code interruptible}, an interrupt of this thread ends the wait. */
    void awaitLocked(Vertex v, boolean interruptible) throws InterruptedException {
        while (!v.done()) {
            if (queue.hasPending()) {
                dispatchLocked();
            }
            if (!v.done()) {
                if (interruptible) {
                    changed.await();
                } else {
                    changed.awaitUninterruptibly();
                }
            }
        }
    }

    /** Wakes the dispatcher if elements wait to be placed; under the lock. */
    void wakeDispatcher() {
        if (queue.hasPending()) {
            dispatchable.signal();
        }
    }

    private void dispatchLoop() {
        lock.lock();
        try {
            while (!closed) {
                if (!queue.hasPending() || placer.full() || !dispatchLocked()) {
                    dispatchable.awaitUninterruptibly();
                }
            }
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "the scheduler's dispatcher failed; elements may stay queued", e);
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /** Tells the observers, if any, that a vertex entered the DAG after {@code parents}. */
    void notifySubmitted(long id, ElementKind kind, String label, List<Access> accesses, Vertex[] parents) {
        if (observers.isEmpty()) {
            return;
        }
        List<ArrayUse> uses = new ArrayList<>(accesses.size());
        for (Access a : accesses) {
            uses.add(new ArrayUse(a.array().id(), a.array().toString(), a.mode(), a.array().bytes()));
        }
        ElementInfo info = new ElementInfo(id, kind, label, uses);
        long[] parentIds = new long[parents.length];
        for (int i = 0; i < parents.length; i++) {
            parentIds[i] = parents[i].id;
        }
        for (ScheduleObserver o : observers) {
            o.submitted(info, parentIds);
        }
    }

    void ensureOpen() {
        if (closed) {
            throw new DeviceException(CudaError.INVALID_VALUE, "the scheduler was closed");
        }
    }

    /** A new element id; under the lock. */
    long newElementId() {
        return nextElementId++;
    }

    /** The id the next element will get (a failure reported now counts as reported before it); under the lock. */
    long nextElementId() {
        return nextElementId;
    }

    /** Elements submitted and not complete; under the lock. */
    long outstanding() {
        return outstanding;
    }

    /**
     * Waits for all outstanding work, stops the dispatcher, releases the scheduler's streams and events and
     * tells observers. Failures not reported yet are logged, not thrown. Idempotent.
     */
    @Override
    public void close() {
        List<StreamSlot> owned;
        List<Event> events;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            dispatchLocked();
            while (outstanding - cluster.remote() > 0 && (placer.inFlight() > 0 || queue.hasPlaceable())) {
                changed.awaitUninterruptibly();
                dispatchLocked();
            }
            closed = true;
            dispatchable.signalAll();
            changed.signalAll();
            for (Failure f : unreported) {
                if (!f.reported()) {
                    LOG.log(System.Logger.Level.WARNING, "unreported failure at close: " + f.error.getMessage());
                }
            }
            unreported.clear();
            owned = streams.removeOwned();
            events = placer.drainEvents();
            for (ScheduleObserver o : observers) {
                o.closed();
            }
        } finally {
            lock.unlock();
        }
        for (StreamSlot s : owned) {
            s.stream.close();
        }
        for (Event e : events) {
            e.close();
        }
    }

    /**
     * This device's floor rank: the lowest rank among the {@code slots} highest-ranked elements it holds, on its
     * streams or ready (parents complete, waiting for the window), elements it runs for other members included;
     * or 0 if it holds fewer than {@code slots}. A cluster layer asks other members for elements of a higher
     * rank than this while it is busy: they would run ahead of its own. Linear in the elements on streams and
     * the placeable ones passed before {@code slots} ready ones are found.
     *
     * @param slots how many elements the device runs at once; at least 1
     * @throws IllegalArgumentException if {@code slots} is below 1
     */
    public int floorRank(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, was " + slots);
        }
        lock.lock();
        try {
            return queue.floorRank(slots, placer.onStreams());
        } finally {
            lock.unlock();
        }
    }

    /** The rank of each element pending or on a stream now, by id (for tests). */
    java.util.Map<Long, Integer> ranks() {
        lock.lock();
        try {
            java.util.Map<Long, Integer> out = new java.util.TreeMap<>();
            for (Vertex v : queue.pending()) {
                out.put(v.id, RankQueue.rankOf(v));
            }
            for (Vertex v : placer.onStreams()) {
                out.put(v.id, RankQueue.rankOf(v));
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** The ids of the elements that may be placed now, in the order they would be (for tests). */
    List<Long> placeableOrder() {
        lock.lock();
        try {
            List<Long> out = new ArrayList<>();
            for (Vertex v : queue.placeable()) {
                out.add(v.id);
            }
            return out;
        } finally {
            lock.unlock();
        }
    }
}
