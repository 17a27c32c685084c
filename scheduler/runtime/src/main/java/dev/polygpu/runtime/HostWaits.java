package dev.polygpu.runtime;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Stream;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A {@link Scheduler}'s host waits: a host access to one array ({@link Scheduler#awaitHost}), a host call that
 * runs as an element of the DAG ({@link Scheduler#callOnHost}), releasing an array ({@link Scheduler#release}),
 * ordering the user's stream work after the elements ({@link Scheduler#fence}), and synchronizing with all elements
 * or one stream's; each ends by throwing, once, a failure it waited for.
 *
 * <p>Implementation notes: it holds the owner's lock, condition, tracker, queue, streams, observers and list of
 * unreported failures (the same objects, guarded by the same lock, as the owner's implementation notes describe)
 * and takes the lock itself; the waits release it while they wait on {@code changed}. Element ids and the count of
 * outstanding elements are the owner's, read and taken under the lock.
 */
final class HostWaits {
    private final Scheduler owner;
    private final ReentrantLock lock;
    /** The owner's condition for "a vertex completed or left the pending queue". */
    private final Condition changed;
    private final DependencyTracker tracker;
    private final RankQueue queue;
    private final StreamPools streams;
    private final List<ScheduleObserver> observers;
    /** Failures no host wait has thrown yet, oldest first. */
    private final ArrayDeque<Failure> unreported;

    HostWaits(Scheduler owner, ReentrantLock lock, Condition changed, DependencyTracker tracker, RankQueue queue,
            StreamPools streams, List<ScheduleObserver> observers, ArrayDeque<Failure> unreported) {
        this.owner = owner;
        this.lock = lock;
        this.changed = changed;
        this.tracker = tracker;
        this.queue = queue;
        this.streams = streams;
        this.observers = observers;
        this.unreported = unreported;
    }

    /** {@link Scheduler#awaitHost}; if {@code interruptible}, an interrupt of this thread ends the wait. */
    void awaitHost(TrackedArray array, AccessMode mode, String label, boolean interruptible)
            throws InterruptedException {
        HostStep access = beginAccess(array, mode, label);
        try {
            finishAccess(access, interruptible);
        } finally {
            abandon(access);
        }
    }

    /** {@link Scheduler#beginHostAccess}. */
    HostStep beginAccess(TrackedArray array, AccessMode mode, String label) {
        lock.lock();
        try {
            owner.ensureOpen();
            Vertex[] deps = tracker.hostParents(array, mode);
            Coherence coherence = owner.coherence();
            if (coherence != null) {
                // With several devices the host's copy may be stale: the access waits for a transfer home too.
                deps = coherence.forHost(array, deps);
            }
            Vertex host = null;
            boolean changedSinceHostLooked = (array.unseen & (mode.writes()
                    ? TrackedArray.UNSEEN_READ | TrackedArray.UNSEEN_WRITE : TrackedArray.UNSEEN_WRITE)) != 0;
            if (!observers.isEmpty() && (changedSinceHostLooked || hasOutstanding(deps))) {
                host = new Vertex(owner.newElementId(), null, deps);
                host.label = label;
                owner.notifySubmitted(host.id, mode.writes() ? ElementKind.HOST_WRITE : ElementKind.HOST_READ,
                        label, List.of(new Access(array, mode)), deps);
            }
            return new HostStep(array, mode, host, deps, System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /** {@link Scheduler#finishHostAccess}. */
    void finishAccess(HostStep access, boolean interruptible) throws InterruptedException {
        lock.lock();
        try {
            checkOpen(access);
            for (Vertex d : access.parents) {
                owner.awaitLocked(d, interruptible);
            }
            access.ended = true;
            Vertex host = access.vertex;
            if (host != null) {
                // The host access runs from when it began, or if it had to wait, from its last parent's end.
                long end = System.nanoTime();
                long latest = access.beginNanos;
                for (Vertex d : access.parents) {
                    latest = Math.max(latest, d.endNanos);
                }
                host.state = Vertex.State.DONE;
                host.parents = Scheduler.NO_PARENTS;
                host.endNanos = end;
                for (ScheduleObserver o : observers) {
                    o.completed(host.id, Math.min(latest, end), end, null);
                }
            }
            TrackedArray array = access.array;
            tracker.hostAccessed(array, access.mode, host);
            Coherence coherence = owner.coherence();
            if (coherence != null && access.mode.writes()) {
                coherence.hostWrote(array);
            }
            for (Vertex d : access.parents) {
                if (d.failure != null && !d.failure.reported()) {
                    throw d.failure.report(owner.nextElementId());
                }
            }
            Failure f = array.failure;
            if (f != null) {
                array.failure = null;
                array.refresh();
                if (!f.reported()) {
                    throw f.report(owner.nextElementId());
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen(HostStep step) {
        if (step.ended) {
            throw new IllegalStateException(step + " has ended already");
        }
        owner.ensureOpen();
    }

    /** {@link Scheduler#abandon}. */
    void abandon(HostStep step) {
        lock.lock();
        try {
            if (step.ended) {
                return;
            }
            step.ended = true;
            Vertex v = step.vertex;
            if (v == null) {
                return;
            }
            v.endNanos = System.nanoTime();
            if (step.array == null) {
                // A call that never ran: complete it as an element that did nothing, so nothing waits for it.
                owner.finish(v, null, v.endNanos);
                owner.wakeDispatcher();
            } else {
                // The access never happened: observers see it end here, failed; the tracker never saw it.
                v.state = Vertex.State.DONE;
                v.parents = Scheduler.NO_PARENTS;
                for (ScheduleObserver o : observers) {
                    o.completed(v.id, step.beginNanos, v.endNanos, "interrupted while waiting");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private static boolean hasOutstanding(Vertex[] vertices) {
        for (Vertex v : vertices) {
            if (!v.done()) {
                return true;
            }
        }
        return false;
    }

    /** {@link Scheduler#tryRelease}. */
    boolean tryRelease(TrackedArray array) {
        lock.lock();
        try {
            if (hasOutstanding(tracker.hostParents(array, AccessMode.WRITE))) {
                return false;
            }
            array.failure = null;
            dropCopies(array);
            array.refresh();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** {@link Scheduler#release}; if {@code interruptible}, an interrupt of this thread ends the wait. */
    void release(TrackedArray array, boolean interruptible) throws InterruptedException {
        lock.lock();
        try {
            for (Vertex d : tracker.hostParents(array, AccessMode.WRITE)) {
                owner.awaitLocked(d, interruptible);
            }
            array.failure = null;
            dropCopies(array);
            array.refresh();
        } finally {
            lock.unlock();
        }
    }

    /** With several devices, frees the array's copies on them: it is being released. */
    private void dropCopies(TrackedArray array) {
        Coherence coherence = owner.coherence();
        if (coherence != null) {
            coherence.drop(array);
        }
    }

    /** {@link Scheduler#fence}, under the lock. */
    void fence(Stream stream, boolean joinAll) {
        lock.lock();
        try {
            owner.ensureOpen();
            owner.dispatchLocked();
            while (hasPending(stream, joinAll)) {
                changed.awaitUninterruptibly();
                owner.dispatchLocked();
            }
            if (joinAll) {
                streams.joinAll(stream);
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean hasPending(Stream stream, boolean any) {
        for (Vertex v : queue.pending()) {
            if (any || v.element.stream() == stream) {
                return true;
            }
        }
        return false;
    }

    /** {@link Scheduler#synchronize()}; if {@code interruptible}, an interrupt of this thread ends the wait. */
    void synchronize(boolean interruptible) throws InterruptedException {
        lock.lock();
        try {
            owner.ensureOpen();
            owner.dispatchLocked();
            while (owner.outstanding() > 0) {
                if (interruptible) {
                    changed.await();
                } else {
                    changed.awaitUninterruptibly();
                }
            }
            throwUnreported(null);
        } finally {
            lock.unlock();
        }
    }

    /** {@link Scheduler#synchronize(Stream)}, under the lock. */
    void synchronize(Stream stream) {
        lock.lock();
        try {
            owner.ensureOpen();
            owner.dispatchLocked();
            while (onStream(stream)) {
                changed.awaitUninterruptibly();
            }
            throwUnreported(stream);
        } finally {
            lock.unlock();
        }
    }

    private boolean onStream(Stream stream) {
        if (streams.busy(stream)) {
            return true;
        }
        for (Vertex v : queue.pending()) {
            if (v.element.stream() == stream) {
                return true;
            }
        }
        return false;
    }

    private void throwUnreported(Stream stream) {
        Failure first = null;
        for (Iterator<Failure> it = unreported.iterator(); it.hasNext();) {
            Failure f = it.next();
            if (f.reported()) {
                it.remove();
            } else if (stream == null || f.stream == stream) {
                if (first == null) {
                    first = f;
                }
                f.report(owner.nextElementId());
                it.remove();
            }
        }
        if (first != null) {
            throw first.error;
        }
    }

    /** {@link Scheduler#callOnHost}, after its arguments were checked. */
    <T> T callOnHost(ComputationalElement call, Supplier<T> action, boolean interruptible)
            throws InterruptedException {
        HostStep step = beginCall(call);
        try {
            return runCall(step, action, interruptible);
        } finally {
            abandon(step);
        }
    }

    /** {@link Scheduler#beginHostCall}, after its argument was checked. */
    HostStep beginCall(ComputationalElement call) {
        lock.lock();
        try {
            owner.ensureOpen();
            Vertex[] follows = tracker.parentsOf(call);
            Coherence coherence = owner.coherence();
            if (coherence != null) {
                follows = coherence.prepare(call, coherence.host(), follows);
            }
            Vertex v = new Vertex(owner.newElementId(), call, follows);
            v.device = -1;
            v.state = Vertex.State.ON_HOST;
            owner.register(v);
            if (coherence != null) {
                coherence.recorded(v, coherence.host());
            }
            return new HostStep(null, null, v, v.parents, System.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    /** {@link Scheduler#runHostCall}. */
    <T> T runCall(HostStep step, Supplier<T> action, boolean interruptible) throws InterruptedException {
        Vertex v = step.vertex;
        if (step.array != null || v == null) {
            throw new IllegalArgumentException(step + " is not a host call");
        }
        long start;
        lock.lock();
        try {
            checkOpen(step);
            for (Vertex p : step.parents) {
                owner.awaitLocked(p, interruptible);
            }
            step.ended = true;
            start = System.nanoTime();
            v.launchNanos = start;
            Vertex[] parents = v.parents;
            boolean parentFailed = false;
            for (Vertex p : parents) {
                parentFailed |= p.failure != null && v.id < p.failure.reportedBefore;
            }
            if (parentFailed) {
                // finish() gives it its parent's failure; the parent's is thrown (once) instead of running, as a
                // host access throws it, and the call's own copy of it counts as reported with it.
                v.endNanos = start;
                owner.finish(v, null, start);
                DeviceException thrown = v.failure.report(owner.nextElementId());
                for (Vertex p : parents) {
                    if (p.failure != null && !p.failure.reported()) {
                        thrown = p.failure.report(owner.nextElementId());
                        break;
                    }
                }
                throw thrown;
            }
        } finally {
            lock.unlock();
        }
        try {
            return action.get();
        } finally {
            lock.lock();
            try {
                v.endNanos = System.nanoTime();
                owner.finish(v, null, start);
                owner.wakeDispatcher();
            } finally {
                lock.unlock();
            }
        }
    }
}
