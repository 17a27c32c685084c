package dev.polygpu.bench.cluster;

import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ScheduleObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records on the program's scheduler where each {@link Launch} ran: a kernel is recognised by the C tile it
 * writes (each launch writes its own array). The scheduler calls it one callback at a time; the maps are
 * concurrent because the benchmark thread registers launches while completions of earlier ones arrive.
 */
final class Placement implements ScheduleObserver {
    private final Map<Long, Launch> byArray = new ConcurrentHashMap<>();
    private final Map<Long, Launch> byElement = new ConcurrentHashMap<>();

    /** Watches {@code launch} from its next submission on. */
    void watch(Launch launch) {
        launch.reset();
        byArray.put(launch.c.id(), launch);
    }

    /** Forgets {@code launch} (its arrays are about to be released). */
    void forget(Launch launch) {
        byArray.remove(launch.c.id(), launch);
        if (launch.elementId >= 0) {
            byElement.remove(launch.elementId, launch);
        }
    }

    @Override
    public void submitted(ElementInfo element, long[] parents) {
        if (element.kind() != ElementKind.KERNEL) {
            return;
        }
        for (ArrayUse use : element.arrays()) {
            Launch l = use.mode().writes() ? byArray.get(use.arrayId()) : null;
            if (l != null) {
                if (l.elementId >= 0) {
                    byElement.remove(l.elementId, l);
                }
                l.elementId = element.id();
                byElement.put(element.id(), l);
                return;
            }
        }
    }

    @Override
    public void ranRemotely(long elementId, String ownerDevice, String member, long takenNanos, long startNanos,
            long endNanos) {
        Launch l = byElement.get(elementId);
        if (l != null) {
            l.member = member;
            l.takenNanos = takenNanos;
            l.startNanos = startNanos;
            l.endNanos = endNanos;
        }
    }

    @Override
    public void completed(long elementId, long startNanos, long endNanos, String failure) {
        Launch l = byElement.get(elementId);
        if (l == null) {
            return;
        }
        if (l.member == null) {
            l.startNanos = startNanos;
            l.endNanos = endNanos;
        }
        l.failure = failure;
    }
}
