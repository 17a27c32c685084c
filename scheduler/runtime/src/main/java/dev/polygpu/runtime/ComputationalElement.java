package dev.polygpu.runtime;

import dev.polygpu.device.Stream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable description of one piece of device work the scheduler orders: what runs ({@link Work}), which
 * arrays it touches and how ({@link Access}), a label for messages and exports (the kernel name), and the
 * stream the user asked for, if any. Execution state (parents, stream, completion) belongs to the scheduler,
 * never to the element, so one element value could be described, sent and run elsewhere.
 *
 * <p>An array listed twice (a kernel given {@code x} for two parameters) counts once, with the union of the
 * modes.
 */
public final class ComputationalElement {
    private final ElementKind kind;
    private final String label;
    private final List<Access> accesses;
    private final Work work;
    private final Stream stream;

    private ComputationalElement(ElementKind kind, String label, List<Access> accesses, Work work, Stream stream) {
        if (kind == null || label == null || work == null) {
            throw new IllegalArgumentException("an element needs a kind, a label and work");
        }
        if (kind == ElementKind.HOST_READ || kind == ElementKind.HOST_WRITE) {
            throw new IllegalArgumentException("host accesses are not submitted as elements; use Scheduler.awaitHost");
        }
        if ((kind == ElementKind.HOST_CALL) != (work instanceof Work.HostCall)) {
            throw new IllegalArgumentException("a host call, and only a host call, has Work.HostCall as its work");
        }
        this.kind = kind;
        this.label = label;
        this.accesses = merge(accesses);
        this.work = work;
        this.stream = stream;
    }

    /** A kernel launch; {@code stream} is the user's stream or null to let the scheduler choose. */
    public static ComputationalElement kernel(String label, List<Access> accesses, Work.Kernel work, Stream stream) {
        return new ComputationalElement(ElementKind.KERNEL, label, accesses, work, stream);
    }

    /** A copy from {@code src} to {@code dst}. */
    public static ComputationalElement copy(String label, TrackedArray dst, TrackedArray src, Work.Copy work,
            Stream stream) {
        List<Access> a = new ArrayList<>(2);
        a.add(new Access(dst, AccessMode.WRITE));
        a.add(new Access(src, AccessMode.READ));
        return new ComputationalElement(ElementKind.COPY, label, a, work, stream);
    }

    /** A fill of part of {@code dst}. */
    public static ComputationalElement fill(String label, TrackedArray dst, Work.Fill work, Stream stream) {
        return new ComputationalElement(ElementKind.FILL, label, List.of(new Access(dst, AccessMode.WRITE)), work,
                stream);
    }

    /**
     * A call of a host function that touches {@code accesses}; run with {@link Scheduler#callOnHost}, never
     * submitted to a stream.
     */
    public static ComputationalElement hostCall(String label, List<Access> accesses) {
        return new ComputationalElement(ElementKind.HOST_CALL, label, accesses, Work.HostCall.INSTANCE, null);
    }

    /**
     * A transfer of {@code array}'s contents between two of its copies (made by a scheduler with several devices):
     * ordered like a read of the array, since it leaves the contents as they are.
     */
    static ComputationalElement transfer(String label, TrackedArray array, Work.Copy work) {
        return new ComputationalElement(ElementKind.TRANSFER, label, List.of(new Access(array, AccessMode.READ)),
                work, null);
    }

    /** A prefetch of {@code array}: ordered after its writers like a read. */
    public static ComputationalElement prefetch(String label, TrackedArray array, Work.Prefetch work,
            Stream stream) {
        return new ComputationalElement(ElementKind.PREFETCH, label, List.of(new Access(array, AccessMode.READ)),
                work, stream);
    }

    private static List<Access> merge(List<Access> accesses) {
        if (!repeatsAnArray(accesses)) {
            // The common case, on every launch: nothing to merge.
            return List.copyOf(accesses);
        }
        Map<TrackedArray, AccessMode> modes = new LinkedHashMap<>();
        for (Access a : accesses) {
            modes.merge(a.array(), a.mode(), (x, y) -> x == y ? x : AccessMode.READ_WRITE);
        }
        List<Access> out = new ArrayList<>(modes.size());
        modes.forEach((array, mode) -> out.add(new Access(array, mode)));
        return List.copyOf(out);
    }

    private static boolean repeatsAnArray(List<Access> accesses) {
        // A kernel has a handful of pointers: pairwise comparison beats building a set.
        for (int i = 1; i < accesses.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (accesses.get(i).array() == accesses.get(j).array()) {
                    return true;
                }
            }
        }
        return false;
    }

    public ElementKind kind() {
        return kind;
    }

    public String label() {
        return label;
    }

    public List<Access> accesses() {
        return accesses;
    }

    public Work work() {
        return work;
    }

    /** The stream the user chose, or null. */
    public Stream stream() {
        return stream;
    }

    /** How messages name this element: {@code kernel 'square'}, {@code copy 'copyFrom'}. */
    public String describe() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " '" + label + "'";
    }

    @Override
    public String toString() {
        return describe() + " " + accesses;
    }
}
