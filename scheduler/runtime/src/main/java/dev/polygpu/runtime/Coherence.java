package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Scheduler}'s placement and coherence over several devices, each with its own memory. Every element is
 * placed on a device when it is submitted ({@link #place}: the user's stream's device, else the
 * {@link DevicePlacement selection policy}); the host is one more location, where host calls and host accesses
 * run. Per array ({@link Replicas}) it knows which locations hold the contents up to date, and before an element
 * that needs an array where it is stale it submits a {@linkplain ElementKind#TRANSFER transfer} from the location
 * with the fastest link, an element of the DAG like any other, which the element then follows ({@link #prepare}).
 * A write leaves only its location up to date ({@link #recorded}). Elements run on their device with the arrays'
 * buffers there in place of the arrays' own, and kernels built for their device ({@link #workOn}). Under the
 * multi-GPU parent-stream policies it also gives each element, when submitted, the parent whose stream it is to
 * continue ({@link #chooseStreamParent}), and under {@code multigpu-disjoint} lets the parents' devices bound the
 * device choice.
 *
 * <p>What a kernel writes ({@code out}) is transferred first all the same, unless the element overwrites the whole
 * array (a copy or fill of all of it): a kernel may write only part of an {@code out} array, and the rest must be
 * the current contents.
 *
 * <p>Implementation notes: every method but {@link #buildKernels} runs under the scheduler's lock, which guards the
 * arrays' {@link Replicas}, the counters and the policy's state. {@link #buildKernels} runs before the lock is taken
 * (compiling takes long) and fills a concurrent map, so two threads may build the same module twice and one copy
 * is kept. Replica buffers are allocated under the lock (the devices' allocation does not call back into the
 * scheduler) and freed by {@link #drop} once nothing outstanding touches the array.
 */
final class Coherence {
    private final Scheduler owner;
    private final List<Device> devices;
    private final int n;
    private final DevicePlacement placement;
    /** How elements with parents get their streams: the multi-GPU policies choose at submission, here. */
    private final SchedulerConfig.ParentStreamPolicy parentStreams;
    /** Per device, the elements placed there and not complete. */
    private final long[] outstanding;
    /** Per module built for one device, the same module built for each device (null where not built yet). */
    private final Map<Module, Module[]> modules = new ConcurrentHashMap<>();
    private long transfers;
    private long transferredBytes;

    Coherence(Scheduler owner, List<Device> devices, MultiDeviceConfig config,
            SchedulerConfig.ParentStreamPolicy parentStreams) {
        this.owner = owner;
        this.devices = devices;
        this.n = devices.size();
        this.placement = new DevicePlacement(config, n);
        this.parentStreams = parentStreams;
        this.outstanding = new long[n];
    }

    /** The policy's placement (for the current device). */
    DevicePlacement placement() {
        return placement;
    }

    /** The host's location index: after the devices'. */
    int host() {
        return n;
    }

    /** How the exports and messages name location {@code location}. */
    String locationName(int location) {
        return location == n ? "host" : devices.get(location).backend() + " device " + location;
    }

    void track(TrackedArray array) {
        array.replicas = new Replicas(n);
        array.refresh();
    }

    // ---- placement ------------------------------------------------------------------------------------------

    /**
     * Builds the kernel of {@code element}, if it is one with its source, for every device that lacks it, before
     * the scheduler's lock is taken. A kernel without source can only run where it was built ({@link #place}).
     */
    void buildKernels(ComputationalElement element) {
        if (element.work() instanceof Work.Kernel k && k.source() != null) {
            buildKernels(k.function(), k.source());
        }
    }

    /** Builds {@code function}'s module from {@code source} for every device that lacks it; outside the lock. */
    void buildKernels(KernelFunction function, KernelSource source) {
        Module built = function.module();
        if (modules.containsKey(built)) {
            return;
        }
        Module[] each = new Module[n];
        for (int d = 0; d < n; d++) {
            Device device = devices.get(d);
            each[d] = device == built.device() ? built : device.compile(source.source(), source.name() + ".cu");
        }
        modules.putIfAbsent(built, each);
    }

    /**
     * The device {@code element}, following {@code parents} (the tracker's), runs on; counts it there until it
     * completes ({@link #completed}). Under {@code multigpu-disjoint} the policy chooses among the devices of the
     * parents whose stream no child was given yet, if there are any.
     */
    int place(ComputationalElement element, Vertex[] parents) {
        int d;
        if (element.stream() != null) {
            d = indexOf(element.stream().device(), element.describe() + "'s stream");
        } else if (element.work() instanceof Work.Kernel k && k.source() == null) {
            // Nothing to build it from elsewhere: it runs where it was built.
            d = indexOf(k.function().module().device(), element.describe());
        } else {
            List<Access> accesses = element.accesses();
            long[] bytes = new long[accesses.size()];
            long[] valid = new long[accesses.size()];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = accesses.get(i).array().bytes();
                valid[i] = accesses.get(i).array().replicas.valid;
            }
            long candidates = parentStreams == SchedulerConfig.ParentStreamPolicy.MULTIGPU_DISJOINT
                    ? devicesOfFreeStreams(parents) : 0;
            d = candidates == 0 ? placement.choose(bytes, valid, outstanding)
                    : placement.choose(bytes, valid, outstanding, candidates);
        }
        outstanding[d]++;
        return d;
    }

    /** The devices, a bit each, of the {@code parents} whose stream a child may still be given. */
    private static long devicesOfFreeStreams(Vertex[] parents) {
        long bits = 0;
        for (Vertex p : parents) {
            if (streamFree(p)) {
                bits |= 1L << p.device;
            }
        }
        return bits;
    }

    /**
     * Whether a child may be given {@code p}'s stream: {@code p} runs on a device, on one of the scheduler's
     * streams (not a user's), and no child was given its stream yet. A completed parent counts too, as it stays
     * in the DAG, so that placement does not depend on how fast the parents ran; its stream is not continued
     * ({@link StreamPool#pickStream}).
     */
    private static boolean streamFree(Vertex p) {
        return p.device >= 0 && !p.childClaimed && p.element != null && p.element.stream() == null;
    }

    /**
     * Under the multi-GPU parent-stream policies: gives {@code v}, just submitted on its device, the stream of its
     * first parent there whose stream no child was given yet (the transfers it needs there count as parents, after
     * the others), or none, for a free or new stream; an element on a user's stream keeps that stream. Under the
     * other policies streams are chosen at launch.
     */
    void chooseStreamParent(Vertex v) {
        if ((parentStreams != SchedulerConfig.ParentStreamPolicy.MULTIGPU_DISJOINT
                && parentStreams != SchedulerConfig.ParentStreamPolicy.MULTIGPU_EARLY_DISJOINT)
                || v.element.stream() != null) {
            return;
        }
        v.streamChosen = true;
        for (Vertex p : v.parents) {
            if (p.device == v.device && streamFree(p)) {
                p.childClaimed = true;
                v.streamParent = p;
                return;
            }
        }
    }

    private int indexOf(Device device, String what) {
        int i = devices.indexOf(device);
        if (i < 0) {
            throw new IllegalArgumentException(what + " belongs to " + device + ", which is not one of the "
                    + "scheduler's devices");
        }
        return i;
    }

    /** An element placed on {@code device} was not submitted after all. */
    void unplace(int device) {
        outstanding[device]--;
    }

    /** {@code v}, placed on a device, completed. */
    void completed(Vertex v) {
        if (v.device >= 0) {
            outstanding[v.device]--;
        }
    }

    // ---- coherence ------------------------------------------------------------------------------------------

    /**
     * Makes every array {@code element} touches up to date at {@code location} before it runs, submitting
     * transfers where needed, and returns {@code parents} with the elements it must also follow: the transfers, and
     * outstanding transfers that an earlier element started there.
     */
    Vertex[] prepare(ComputationalElement element, int location, Vertex[] parents) {
        List<Vertex> extra = null;
        for (Access a : element.accesses()) {
            TrackedArray array = a.array();
            Replicas r = array.replicas;
            if (location < n && r.buffers[location] == null) {
                r.buffers[location] = devices.get(location).allocate(Math.max(1, array.bytes()));
            }
            Vertex need;
            if (r.holds(location)) {
                need = r.producers[location];
            } else if (a.mode().reads() || !overwritesAll(element, array)) {
                need = transfer(array, location);
            } else {
                need = null;
            }
            if (need != null && !need.done() && !contains(parents, need) && (extra == null || !extra.contains(need))) {
                if (extra == null) {
                    extra = new ArrayList<>(2);
                }
                extra.add(need);
            }
        }
        if (extra == null) {
            return parents;
        }
        Vertex[] all = java.util.Arrays.copyOf(parents, parents.length + extra.size());
        for (int i = 0; i < extra.size(); i++) {
            all[parents.length + i] = extra.get(i);
        }
        return all;
    }

    /** {@code v}, at {@code location}, is recorded: what it writes is up to date there only. */
    void recorded(Vertex v, int location) {
        for (Access a : v.element.accesses()) {
            if (a.mode().writes()) {
                a.array().replicas.onlyAt(location, v);
                a.array().refresh();
            }
        }
    }

    /**
     * The elements a host access to {@code array} waits for besides {@code deps}: a transfer home, submitted now
     * if the host's copy is stale, or the one already on its way.
     */
    Vertex[] forHost(TrackedArray array, Vertex[] deps) {
        Replicas r = array.replicas;
        Vertex need = r.holds(n) ? r.producers[n] : transfer(array, n);
        if (need == null || need.done() || contains(deps, need)) {
            return deps;
        }
        Vertex[] all = java.util.Arrays.copyOf(deps, deps.length + 1);
        all[deps.length] = need;
        return all;
    }

    /** The host wrote {@code array} in place: the devices' copies are stale. */
    void hostWrote(TrackedArray array) {
        array.replicas.onlyAt(n, null);
        array.refresh();
    }

    /**
     * Frees {@code array}'s copies on the devices; nothing outstanding may touch it. The host's copy (the array's
     * own buffer) is the caller's to free.
     */
    void drop(TrackedArray array) {
        Replicas r = array.replicas;
        for (int d = 0; d < n; d++) {
            if (r.buffers[d] != null) {
                r.buffers[d].free();
                r.buffers[d] = null;
            }
        }
        r.onlyAt(n, null);
        array.refresh();
    }

    /**
     * The buffer at {@code location} (a device, or the host: the array's own buffer) of {@code array}; null for a
     * device it never went to.
     */
    UnifiedBuffer bufferAt(TrackedArray array, int location) {
        return location == n ? array.buffer() : array.replicas.buffers[location];
    }

    /**
     * A location holding {@code array}'s contents as of the elements submitted so far whose copy is complete (what
     * made it up to date has completed): the host if it is one, else the lowest such device; -1 if none is yet.
     */
    int settledLocation(TrackedArray array) {
        Replicas r = array.replicas;
        if (settled(r, n)) {
            return n;
        }
        for (int d = 0; d < n; d++) {
            if (settled(r, d)) {
                return d;
            }
        }
        return -1;
    }

    private static boolean settled(Replicas r, int location) {
        return r.holds(location) && (r.producers[location] == null || r.producers[location].done());
    }

    /** Submits a transfer of {@code array} to {@code to} from the best location holding it, and returns it. */
    private Vertex transfer(TrackedArray array, int to) {
        Replicas r = array.replicas;
        int from = placement.source(r.valid, to);
        UnifiedBuffer src = from == n ? array.buffer() : r.buffers[from];
        UnifiedBuffer dst = to == n ? array.buffer() : r.buffers[to];
        String label = array + ": " + locationName(from) + " → " + locationName(to);
        ComputationalElement e = ComputationalElement.transfer(label, array,
                new Work.Copy(dst, 0, src, 0, array.bytes()));
        // A device runs it: the destination, or for a transfer home the source.
        int device = to == n ? from : to;
        Vertex source = r.producers[from];
        Vertex t = owner.submitTransfer(e, device, source);
        outstanding[device]++;
        r.alsoAt(to, t);
        array.refresh();
        transfers++;
        transferredBytes += array.bytes();
        return t;
    }

    private static boolean overwritesAll(ComputationalElement element, TrackedArray array) {
        return switch (element.work()) {
            case Work.Copy c -> c.dst() == array.buffer() && c.dstOffset() == 0 && c.bytes() == array.bytes();
            case Work.Fill f -> f.dst() == array.buffer() && f.offset() == 0 && f.bytes() == array.bytes();
            default -> false;
        };
    }

    private static boolean contains(Vertex[] vertices, Vertex v) {
        for (Vertex u : vertices) {
            if (u == v) {
                return true;
            }
        }
        return false;
    }

    /** Transfers submitted so far, and their bytes. */
    Scheduler.Transfers stats() {
        return new Scheduler.Transfers(transfers, transferredBytes);
    }

    // ---- the work as it runs on a device --------------------------------------------------------------------

    /**
     * {@code work} of {@code v} as it runs on its device: the arrays' own buffers replaced by their copies there,
     * a kernel by the one built for that device. A transfer's work is already its device's.
     */
    Work workOn(Vertex v, Work work) {
        if (v.element.kind() == ElementKind.TRANSFER) {
            return work;
        }
        int d = v.device;
        List<Access> accesses = v.element.accesses();
        return switch (work) {
            case Work.Kernel k -> new Work.Kernel(functionOn(k, d), k.config(), argsOn(k.args(), accesses, d),
                    k.source());
            case Work.Copy c -> new Work.Copy(bufferOn(c.dst(), accesses, d), c.dstOffset(),
                    bufferOn(c.src(), accesses, d), c.srcOffset(), c.bytes());
            case Work.Fill f -> new Work.Fill(bufferOn(f.dst(), accesses, d), f.offset(), f.bytes(), f.value());
            case Work.Prefetch p -> new Work.Prefetch(bufferOn(p.buffer(), accesses, d), p.offset(), p.bytes());
            case Work.HostCall h -> h;
        };
    }

    private KernelFunction functionOn(Work.Kernel k, int d) {
        Device device = devices.get(d);
        if (k.function().module().device() == device) {
            return k.function();
        }
        Module[] each = modules.get(k.function().module());
        // place() kept a kernel without source on its own device, and buildKernels() built the others.
        return each[d].function(k.source().name());
    }

    private static KernelArgs argsOn(KernelArgs args, List<Access> accesses, int d) {
        List<KernelArg> list = args.list();
        List<KernelArg> out = new ArrayList<>(list.size());
        BitSet readOnly = new BitSet();
        for (int i = 0; i < list.size(); i++) {
            KernelArg a = list.get(i);
            if (a instanceof KernelArg.Pointer p && p.buffer() != null) {
                a = new KernelArg.Pointer(bufferOn(p.buffer(), accesses, d), p.offset());
            }
            if (args.isReadOnly(i)) {
                readOnly.set(i);
            }
            out.add(a);
        }
        return KernelArgs.of(out).withReadOnly(readOnly);
    }

    /** The copy on device {@code d} of the array whose own buffer is {@code buffer}; a buffer of no array as it is. */
    private static UnifiedBuffer bufferOn(UnifiedBuffer buffer, List<Access> accesses, int d) {
        for (Access a : accesses) {
            if (a.array().buffer() == buffer) {
                return a.array().replicas.buffers[d];
            }
        }
        return buffer;
    }
}
