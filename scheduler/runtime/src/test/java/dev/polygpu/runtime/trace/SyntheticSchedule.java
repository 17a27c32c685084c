package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ScheduleObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drives a {@link ScheduleObserver} with the calls a scheduler would make, for tests: elements are described
 * fluently, their parents are given or inferred from array hazards (last writer, readers since), and their
 * times are simulated (an element starts when its parents and the previous element of its stream have ended).
 * Times are given in microseconds and reported as nanos from an arbitrary non-zero origin.
 */
final class SyntheticSchedule {
    static final long ORIGIN_NANOS = 7_000_000_123L;
    static final String DEVICE = "cpu0";

    private final ScheduleObserver observer;
    private final Map<Long, String> arrayNames = new HashMap<>();
    private final Map<Long, Long> lastWriter = new HashMap<>();
    private final Map<Long, List<Long>> readersSinceWrite = new HashMap<>();
    private final Map<Long, Long> endById = new HashMap<>();
    private final Map<String, Long> streamFreeAt = new HashMap<>();
    private long nextId = 1;
    private long nextArray = 100;
    private long hostClock;

    SyntheticSchedule(ScheduleObserver observer) {
        this.observer = observer;
    }

    /** A new array with this display name; returns its id. */
    long array(String name) {
        long id = nextArray++;
        arrayNames.put(id, name);
        return id;
    }

    Element kernel(String label) {
        return new Element(ElementKind.KERNEL, label);
    }

    Element element(ElementKind kind, String label) {
        return new Element(kind, label);
    }

    /** The simulated end of an element, in nanos. */
    long endNanos(long id) {
        return endById.get(id);
    }

    /** One element being described; {@link #submit()} reports it. */
    final class Element {
        private final ElementKind kind;
        private final String label;
        private final List<ArrayUse> uses = new ArrayList<>();
        private long[] explicitParents;
        private String device = DEVICE;
        private int stream = 1;
        private long micros = 10;
        private String failure;
        private String member;

        private Element(ElementKind kind, String label) {
            this.kind = kind;
            this.label = label;
        }

        Element reads(long... arrays) {
            return use(AccessMode.READ, arrays);
        }

        Element writes(long... arrays) {
            return use(AccessMode.WRITE, arrays);
        }

        Element readsWrites(long... arrays) {
            return use(AccessMode.READ_WRITE, arrays);
        }

        private Element use(AccessMode mode, long... arrays) {
            for (long array : arrays) {
                uses.add(new ArrayUse(array, arrayNames.getOrDefault(array, "a" + array), mode));
            }
            return this;
        }

        /** These parents instead of the inferred ones. */
        Element after(long... parents) {
            explicitParents = parents.clone();
            return this;
        }

        Element on(int streamId) {
            stream = streamId;
            return this;
        }

        Element on(String deviceName, int streamId) {
            device = deviceName;
            stream = streamId;
            return this;
        }

        Element takes(long durationMicros) {
            micros = durationMicros;
            return this;
        }

        /** Another cluster member ran it: in the middle half of its time away. */
        Element stolenBy(String memberId) {
            member = memberId;
            return this;
        }

        Element fails(String message) {
            failure = message;
            return this;
        }

        /** Reports submitted, launched (device kinds) and completed; returns the element's id. */
        long submit() {
            long id = nextId++;
            long[] parents = explicitParents != null ? explicitParents : inferParents();
            record(id);
            observer.submitted(new ElementInfo(id, kind, label, uses), parents);
            long ready = 0;
            for (long parent : parents) {
                ready = Math.max(ready, endById.getOrDefault(parent, 0L));
            }
            long start;
            if (kind.onHost()) {
                start = Math.max(ready, hostClock);
            } else if (member != null) {
                start = Math.max(ready, hostClock);
            } else {
                String key = device + "/" + stream;
                observer.launched(id, device, stream, ORIGIN_NANOS + hostClock);
                start = Math.max(ready, Math.max(hostClock, streamFreeAt.getOrDefault(key, 0L)));
                streamFreeAt.put(key, start + micros * 1000);
            }
            long end = start + micros * 1000;
            if (kind.onHost()) {
                hostClock = end;
            }
            endById.put(id, end);
            if (member != null) {
                observer.ranRemotely(id, device, member, ORIGIN_NANOS + start, ORIGIN_NANOS + start + micros * 250,
                        ORIGIN_NANOS + end - micros * 250);
            }
            observer.completed(id, ORIGIN_NANOS + start, ORIGIN_NANOS + end, failure);
            return id;
        }

        private long[] inferParents() {
            Set<Long> parents = new LinkedHashSet<>();
            for (ArrayUse use : uses) {
                Long writer = lastWriter.get(use.arrayId());
                if (writer != null) {
                    parents.add(writer);
                }
                if (use.mode().writes()) {
                    parents.addAll(readersSinceWrite.getOrDefault(use.arrayId(), List.of()));
                }
            }
            return parents.stream().mapToLong(Long::longValue).toArray();
        }

        private void record(long id) {
            for (ArrayUse use : uses) {
                if (use.mode().writes()) {
                    lastWriter.put(use.arrayId(), id);
                    readersSinceWrite.put(use.arrayId(), new ArrayList<>());
                } else {
                    readersSinceWrite.computeIfAbsent(use.arrayId(), k -> new ArrayList<>()).add(id);
                }
            }
        }
    }
}
