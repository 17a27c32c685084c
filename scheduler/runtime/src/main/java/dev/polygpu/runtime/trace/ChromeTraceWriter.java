package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.ArrayUse;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a recorded schedule as a timeline in Chrome's Trace Event Format (a JSON object whose
 * {@code traceEvents} array holds the events), which <a href="https://ui.perfetto.dev">ui.perfetto.dev</a> and
 * {@code chrome://tracing} open:
 * <ul>
 *   <li>each device is a process and each of its streams a thread, named by metadata events ({@code "ph":"M"},
 *   {@code process_name}, {@code thread_name}); host elements run on a thread named {@code host} in a process
 *   named {@code host}, as do device elements that completed without being launched (rejected before they
 *   reached a stream). Thread ids are unique across processes;</li>
 *   <li>each completed element is a complete event ({@code "ph":"X"}) named by its label, with {@code ts} and
 *   {@code dur} in microseconds (exact to the nanosecond) from the earliest start, and {@code args} holding its
 *   id, kind, parents, arrays ({@code id}, {@code name}, access {@code mode} and, where known, the array's size
 *   in {@code bytes}) and, if it failed, the error (failed events are also
 *   coloured {@code "cname":"terrible"}). Elements that had not completed are left out;</li>
 *   <li>each dependency between two completed elements is a flow: {@code "ph":"s"} at the parent's end and
 *   {@code "ph":"f"} with {@code "bp":"e"} at the child's start, sharing {@code id}, {@code cat} and
 *   {@code name}. Each is placed one nanosecond inside its slice (where the slice is long enough), so viewers
 *   bind it to that slice and not to a neighbour that ends or starts at the same instant.</li>
 *   <li>an element another cluster member ran is a slice on its owner's device, thread
 *   {@code cluster (moved away)}, for the whole time it was away (its dependency flows attach there), and a
 *   slice in a process named {@code member <id>}, thread {@code stolen work}, for when it ran there; two
 *   flows named {@code steal} join them: out at the start, home at the end.</li>
 * </ul>
 * Immutable and stateless, so one writer may be shared between threads.
 */
public final class ChromeTraceWriter implements DagFormat {
    static final String FLOW_NAME = "dependency";
    static final String HOST = "host";
    static final String STEAL_FLOW = "steal";
    static final String CLUSTER = "cluster (moved away)";
    static final String STOLEN = "stolen work";
    static final String MEMBER = "member ";

    /** Where an element's events go. */
    private record Track(int pid, int tid) {
    }

    /** Appends the trace of {@code dag} to {@code out}, one event per line. */
    @Override
    public void write(RecordedDag dag, Appendable out) throws IOException {
        JsonWriter json = new JsonWriter(out);
        json.beginObject().name("traceEvents").beginArray();
        Map<Long, Track> remoteTracks = new HashMap<>();
        Map<Long, Track> tracks = assignTracks(dag, remoteTracks, json);
        long origin = Long.MAX_VALUE;
        for (RecordedElement element : dag.elements()) {
            if (element.completed()) {
                origin = Math.min(origin, element.run().startNanos());
            }
        }
        long flow = 0;
        for (RecordedElement element : dag.elements()) {
            if (element.completed()) {
                writeSlice(element, element.run().startNanos(), element.run().endNanos(), tracks.get(element.id()),
                        origin, json);
                if (element.moved()) {
                    flow = writeMove(element, tracks.get(element.id()), remoteTracks.get(element.id()), flow, origin,
                            json);
                }
            }
        }
        for (Dependency edge : dag.dependencies()) {
            RecordedElement parent = dag.element(edge.parentId());
            RecordedElement child = dag.element(edge.childId());
            if (parent.completed() && child.completed()) {
                flow++;
                RecordedElement.Run before = parent.run();
                RecordedElement.Run after = child.run();
                writeFlow(FLOW_NAME, "s", flow, lastInside(before.startNanos(), before.endNanos()) - origin,
                        tracks.get(parent.id()), json);
                writeFlow(FLOW_NAME, "f", flow, firstInside(after.startNanos(), after.endNanos()) - origin,
                        tracks.get(child.id()), json);
            }
        }
        json.lineBreak().endArray().endObject().lineBreak();
    }

    /**
     * Gives every completed element its process and thread (by id), numbered in submission order, writing the
     * metadata events that name each new one.
     */
    private static Map<Long, Track> assignTracks(RecordedDag dag, Map<Long, Track> remoteTracks, JsonWriter json)
            throws IOException {
        Map<String, Integer> processes = new LinkedHashMap<>();
        Map<String, Track> threads = new LinkedHashMap<>();
        Map<Long, Track> tracks = new HashMap<>();
        for (RecordedElement element : dag.elements()) {
            if (!element.completed()) {
                continue;
            }
            if (element.moved()) {
                RecordedElement.Move move = element.move();
                tracks.put(element.id(), track("d:", move.ownerDevice(), CLUSTER, 1_000_000, processes, threads,
                        json));
                remoteTracks.put(element.id(), track("d:", MEMBER + move.member(), STOLEN, 0, processes, threads,
                        json));
                continue;
            }
            boolean onHost = element.kind().onHost() || element.placement() == null;
            Track track;
            if (onHost) {
                track = track("h:", HOST, HOST, 0, processes, threads, json);
            } else {
                int stream = element.placement().streamId();
                track = track("d:", element.placement().deviceName(), "stream " + stream, stream, processes, threads,
                        json);
            }
            tracks.put(element.id(), track);
        }
        return tracks;
    }

    /**
     * The track of thread {@code thread} of process {@code process} ({@code kind} keeps host and device
     * processes of the same name apart), writing the metadata that names a new process or thread.
     */
    private static Track track(String kind, String process, String thread, int sortIndex,
            Map<String, Integer> processes, Map<String, Track> threads, JsonWriter json) throws IOException {
        String processKey = kind + process;
        Integer pid = processes.get(processKey);
        if (pid == null) {
            pid = processes.size() + 1;
            processes.put(processKey, pid);
            metadata("process_name", pid, 0, "name", process, json);
            metadata("process_sort_index", pid, 0, "sort_index", pid, json);
        }
        String threadKey = processKey + "/" + thread;
        Track track = threads.get(threadKey);
        if (track == null) {
            track = new Track(pid, threads.size() + 1);
            threads.put(threadKey, track);
            metadata("thread_name", pid, track.tid(), "name", thread, json);
            metadata("thread_sort_index", pid, track.tid(), "sort_index", sortIndex, json);
        }
        return track;
    }

    private static void metadata(String name, int pid, int tid, String key, Object value, JsonWriter json)
            throws IOException {
        json.lineBreak().beginObject().name("name").value(name).name("ph").value("M")
                .name("pid").value(pid).name("tid").value(tid).name("args").beginObject().name(key);
        if (value instanceof Integer number) {
            json.value(number);
        } else {
            json.value((String) value);
        }
        json.endObject().endObject();
    }

    /**
     * A moved element's slice on the member that ran it, and two {@code steal} flows: from the owner's
     * {@code cluster} slice to the member's slice (the element and its inputs moving out) and back (the results
     * coming home). Returns the last flow id used.
     */
    private static long writeMove(RecordedElement element, Track owner, Track member, long flow, long origin,
            JsonWriter json) throws IOException {
        RecordedElement.Move move = element.move();
        RecordedElement.Run run = element.run();
        writeSlice(element, move.startNanos(), move.endNanos(), member, origin, json);
        writeFlow(STEAL_FLOW, "s", ++flow, firstInside(run.startNanos(), run.endNanos()) - origin, owner, json);
        writeFlow(STEAL_FLOW, "f", flow, firstInside(move.startNanos(), move.endNanos()) - origin, member, json);
        writeFlow(STEAL_FLOW, "s", ++flow, lastInside(move.startNanos(), move.endNanos()) - origin, member, json);
        writeFlow(STEAL_FLOW, "f", flow, lastInside(run.startNanos(), run.endNanos()) - origin, owner, json);
        return flow;
    }

    /** One nanosecond inside a slice's start, where the slice is long enough. */
    private static long firstInside(long start, long end) {
        return Math.max(start, Math.min(start + 1, end));
    }

    /** One nanosecond inside a slice's end, where the slice is long enough. */
    private static long lastInside(long start, long end) {
        return Math.max(start, end - 1);
    }

    private static void writeSlice(RecordedElement element, long startNanos, long endNanos, Track track,
            long origin, JsonWriter json) throws IOException {
        RecordedElement.Run run = element.run();
        json.lineBreak().beginObject()
                .name("name").value(element.displayName())
                .name("cat").value(RecordedElement.kindName(element.kind()))
                .name("ph").value("X")
                .name("ts").micros(startNanos - origin)
                .name("dur").micros(Math.max(0, endNanos - startNanos))
                .name("pid").value(track.pid())
                .name("tid").value(track.tid());
        if (element.failed()) {
            json.name("cname").value("terrible");
        }
        json.name("args").beginObject()
                .name("id").value(element.id())
                .name("kind").value(element.kind().name());
        json.name("parents").beginArray();
        for (long parent : element.parents()) {
            json.value(parent);
        }
        json.endArray();
        json.name("arrays").beginArray();
        for (ArrayUse use : element.arrays()) {
            json.beginObject().name("id").value(use.arrayId()).name("name").value(use.arrayName())
                    .name("mode").value(use.mode().name());
            if (use.bytesKnown()) {
                json.name("bytes").value(use.bytes());
            }
            json.endObject();
        }
        json.endArray();
        if (element.failed()) {
            json.name("failure").value(run.failure());
        }
        json.endObject().endObject();
    }

    private static void writeFlow(String name, String phase, long id, long ts, Track track, JsonWriter json)
            throws IOException {
        json.lineBreak().beginObject()
                .name("name").value(name)
                .name("cat").value(name)
                .name("ph").value(phase)
                .name("id").value(id)
                .name("ts").micros(ts)
                .name("pid").value(track.pid())
                .name("tid").value(track.tid());
        if (phase.equals("f")) {
            json.name("bp").value("e");
        }
        json.endObject();
    }
}
