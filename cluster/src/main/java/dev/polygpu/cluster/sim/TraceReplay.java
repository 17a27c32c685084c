package dev.polygpu.cluster.sim;

import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a recorded program into a {@link Workload}: reads a Chrome trace written by
 * {@link dev.polygpu.runtime.trace.ChromeTraceWriter} and keeps its kernels, their measured durations, their
 * dependencies and the arrays they read, so the simulator can replay a real program's DAG, or many copies of
 * it, at any cluster size.
 *
 * <p>What is read: the complete events ({@code "ph":"X"}) and the {@code process_name} metadata; other events
 * (flows, other metadata) are skipped. Each element is one task, in increasing {@code args.id} (the
 * scheduler's submission order):
 * <ul>
 *   <li><b>Kernels</b> ({@code args.kind} {@code KERNEL}) become tasks with the event's name as kernel, its
 *       {@code dur} (microseconds, to the nanosecond) as duration, the distinct arrays it uses with a reading
 *       mode ({@code READ}, {@code READ_WRITE}) as read arrays, and the sum of the sizes of the distinct arrays
 *       it writes as output bytes.</li>
 *   <li><b>Other elements</b> (copies, fills, prefetches, host reads and writes) are contracted: they become
 *       no task, and a kernel that depended on one depends on that element's own parents instead (through any
 *       number of contracted elements), so no order is lost. Their time is dropped: the simulator models
 *       kernels and the transfers stealing causes, not a program's own copies.</li>
 *   <li>A <b>moved element</b> has two slices, one on its owner ({@code cluster (moved away)}, the whole time
 *       away) and one in a process named {@code member <id>} (when it ran there): the member's slice gives the
 *       duration. Should an id have several slices otherwise, the shortest is used.</li>
 *   <li>A parent that is not in the trace (an element that did not complete, or came before recording began)
 *       or that does not come before its child gives no dependency, as in
 *       {@link dev.polygpu.runtime.trace.RecordedDag}.</li>
 *   <li>An array's size is its {@code bytes}; traces written before sizes were recorded have none, and such
 *       arrays count as 0 bytes (stealing them then costs nothing to move).</li>
 * </ul>
 * Arrays and durations are exact, so replaying a trace gives its kernels' measured total work.
 *
 * <p>Copies: {@link #read(Path, int, int)} repeats the DAG {@code copies} times, independent of each other
 * (each with arrays of its own), copy {@code c} owned by member {@code c mod owners}: one recorded program
 * becomes the load of many members. Stateless; the methods may be called from any thread.
 */
public final class TraceReplay {
    private static final String MEMBER_PROCESS = "member ";

    private TraceReplay() {
    }

    /**
     * {@return the trace's kernels as one workload, all owned by member 0}
     *
     * @param file a Chrome trace written by {@link dev.polygpu.runtime.trace.ChromeTraceWriter}, in UTF-8
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException naming the file, the place (the line and column of malformed JSON, the
     *         JSON path of an event whose content is wrong) and what was expected there, if it is not such a
     *         trace or has no completed kernel
     */
    public static Workload read(Path file) throws IOException {
        return read(file, 1, 1);
    }

    /**
     * {@return {@code copies} independent copies of the trace's kernels, copy {@code c} owned by member
     * {@code c mod owners}} Members from {@code copies} on get no task when {@code copies < owners}.
     *
     * @param file a Chrome trace written by {@link dev.polygpu.runtime.trace.ChromeTraceWriter}, in UTF-8
     * @param copies how many copies; at least 1
     * @param owners how many members own them; at least 1
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if {@code copies} or {@code owners} is below 1, if the copies would
     *         hold more than {@link Workloads#MAX_TASKS} tasks, or naming the file, the place and what was
     *         expected there, if it is not such a trace or has no completed kernel
     */
    public static Workload read(Path file, int copies, int owners) throws IOException {
        return read(file, copies, owners, 0);
    }

    /**
     * {@link #read(Path, int, int)}, with kernel durations taken as the time each kernel ran on a device that
     * runs {@code deviceSlots} kernels at once, instead of its slice's length.
     *
     * <p>A slice lasts from the kernel's launch on its stream to its completion, and a scheduler keeps more
     * kernels on its streams (its window) than the device runs at once, so a slice also holds the time a kernel
     * waited for the device. With {@code deviceSlots > 0} that wait is taken out: the kernels of each device
     * process, in launch order, are taken to start when launched or when the earliest of the
     * {@code deviceSlots} kernels before them ended (first come, first served, as the CPU device runs blocks),
     * and run until their recorded end. Moved elements (timed on the member that ran them) are kept as they
     * are.
     *
     * @param deviceSlots kernels the recording device ran at once; 0 keeps the slices' lengths
     * @throws IllegalArgumentException also if {@code deviceSlots} is negative
     */
    public static Workload read(Path file, int copies, int owners, int deviceSlots) throws IOException {
        Objects.requireNonNull(file, "file");
        checkCounts(copies, owners);
        if (deviceSlots < 0) {
            throw new IllegalArgumentException("deviceSlots must be >= 0, was " + deviceSlots);
        }
        String text = Files.readString(file);
        return replay(text, file.toString(), copies, owners, deviceSlots);
    }

    /**
     * The workload of trace {@code text}, named {@code source} in the workload's name and in errors.
     *
     * @throws IllegalArgumentException as {@link #read(Path, int, int)} does
     */
    static Workload replay(String text, String source, int copies, int owners) {
        return replay(text, source, copies, owners, 0);
    }

    static Workload replay(String text, String source, int copies, int owners, int deviceSlots) {
        checkCounts(copies, owners);
        Template template = Template.of(text, source, deviceSlots);
        if ((long) template.tasks.size() * copies > Workloads.MAX_TASKS) {
            throw new IllegalArgumentException(copies + " copies of the " + template.tasks.size() + " kernels of "
                    + source + " exceed the " + Workloads.MAX_TASKS + " tasks a workload may have");
        }
        String name = "replay(" + source + (copies > 1 ? ", copies=" + copies + ", owners=" + owners : "") + ")";
        Workload.Builder b = Workload.builder(name);
        int[] kernels = new int[template.tasks.size()];
        for (int t = 0; t < kernels.length; t++) {
            kernels[t] = b.kernel(template.tasks.get(t).kernel);
        }
        int arraysPerCopy = template.arrayBytes.length;
        for (int c = 0; c < copies; c++) {
            for (long bytes : template.arrayBytes) {
                b.array(bytes);
            }
            int firstArray = c * arraysPerCopy;
            int firstTask = b.tasks();
            for (int t = 0; t < kernels.length; t++) {
                Task task = template.tasks.get(t);
                int[] reads = new int[task.reads.length];
                for (int r = 0; r < reads.length; r++) {
                    reads[r] = firstArray + task.reads[r];
                }
                int[] parents = new int[task.parents.length];
                for (int p = 0; p < parents.length; p++) {
                    parents[p] = firstTask + task.parents[p];
                }
                b.task(c % owners, kernels[t], task.durationNanos, task.outputBytes, reads, parents);
            }
        }
        return b.build();
    }

    private static void checkCounts(int copies, int owners) {
        if (copies < 1 || owners < 1) {
            throw new IllegalArgumentException("copies and owners must be >= 1, were " + copies + " and " + owners);
        }
    }

    /** One kernel of the trace: parents and reads are indices into the template's tasks and arrays. */
    private record Task(String kernel, long durationNanos, long outputBytes, int[] reads, int[] parents) {
    }

    /** One complete event, as read. */
    private record Slice(long id, String name, ElementKind kind, long durationNanos, long startNanos, long pid,
            long[] parents, List<Use> arrays) {
    }

    /** One array of a slice's {@code args.arrays}. */
    private record Use(long arrayId, AccessMode mode, long bytes) {
    }

    /** The kernels of one trace, to be copied into a workload. */
    private static final class Template {
        final List<Task> tasks = new ArrayList<>();
        long[] arrayBytes = new long[0];

        static Template of(String text, String source, int deviceSlots) {
            Map<Long, String> processNames = new HashMap<>();
            Map<Long, List<Slice>> slicesById = new TreeMap<>();
            boolean events = false;
            try (JsonReader json = JsonValues.reader(text)) {
                json.beginObject();
                while (json.hasNext()) {
                    String name = json.nextName();
                    if (!name.equals("traceEvents")) {
                        JsonValues.value(json, source);
                        continue;
                    }
                    if (events) {
                        throw new IllegalArgumentException(source + ": at " + json.getPath()
                                + ": expected one traceEvents array, found a second");
                    }
                    events = true;
                    json.beginArray();
                    while (json.hasNext()) {
                        Where where = new Where(source, json.getPath());
                        readEvent(JsonValues.value(json, source), where, processNames, slicesById);
                    }
                    json.endArray();
                }
                json.endObject();
                if (json.peek() != JsonToken.END_DOCUMENT) {
                    throw new IllegalArgumentException(source + ": expected the end of the text after the trace's "
                            + "object, found more");
                }
            } catch (IOException | IllegalStateException e) {
                // Gson's reader: malformed JSON, or a value of another kind than the trace's structure needs.
                throw JsonValues.malformed(source, e);
            }
            if (!events) {
                throw new IllegalArgumentException(source + ": expected an object with a traceEvents array (a "
                        + "Chrome trace), found none");
            }
            Template template = new Template();
            template.build(slicesById, processNames, deviceSlots);
            if (template.tasks.isEmpty()) {
                throw new IllegalArgumentException(source + ": expected at least one completed KERNEL element, "
                        + "found none");
            }
            return template;
        }

        private void build(Map<Long, List<Slice>> slicesById, Map<Long, String> processNames, int deviceSlots) {
            Map<Long, Long> runNanos = deviceSlots > 0 ? deviceRunTimes(slicesById, processNames, deviceSlots)
                    : Map.of();
            Map<Long, Integer> taskOf = new HashMap<>();
            Map<Long, int[]> contracted = new HashMap<>();
            Map<Long, Integer> arrayOf = new HashMap<>();
            List<Long> sizes = new ArrayList<>();
            for (List<Slice> slices : slicesById.values()) {
                Slice slice = chosen(slices, processNames);
                Set<Integer> parents = new LinkedHashSet<>();
                for (long parent : slice.parents) {
                    Integer task = parent < slice.id ? taskOf.get(parent) : null;
                    if (task != null) {
                        parents.add(task);
                    } else if (parent < slice.id && contracted.containsKey(parent)) {
                        for (int p : contracted.get(parent)) {
                            parents.add(p);
                        }
                    }
                }
                int[] parentTasks = parents.stream().mapToInt(Integer::intValue).toArray();
                if (slice.kind != ElementKind.KERNEL) {
                    contracted.put(slice.id, parentTasks);
                    continue;
                }
                Set<Integer> read = new LinkedHashSet<>();
                Set<Integer> written = new LinkedHashSet<>();
                for (Use use : slice.arrays) {
                    Integer array = arrayOf.get(use.arrayId);
                    if (array == null) {
                        array = sizes.size();
                        arrayOf.put(use.arrayId, array);
                        sizes.add(0L);
                    }
                    sizes.set(array, Math.max(sizes.get(array), use.bytes));
                    if (use.mode.reads()) {
                        read.add(array);
                    }
                    if (use.mode.writes()) {
                        written.add(array);
                    }
                }
                long output = 0;
                for (int array : written) {
                    output += sizes.get(array);
                }
                int[] reads = read.stream().mapToInt(Integer::intValue).toArray();
                taskOf.put(slice.id, tasks.size());
                tasks.add(new Task(slice.name, runNanos.getOrDefault(slice.id, slice.durationNanos), output, reads,
                        parentTasks));
            }
            arrayBytes = sizes.stream().mapToLong(Long::longValue).toArray();
        }

        /**
         * Each local kernel's run time on a device of {@code slots} concurrent kernels, first come first served
         * by launch time (see {@link TraceReplay#read(Path, int, int, int)}): start = max(launch, the earliest
         * end among the {@code slots} kernels started before it), run time = end - start.
         */
        private static Map<Long, Long> deviceRunTimes(Map<Long, List<Slice>> slicesById,
                Map<Long, String> processNames, int slots) {
            Map<Long, List<Slice>> byDevice = new TreeMap<>();
            for (List<Slice> slices : slicesById.values()) {
                Slice slice = chosen(slices, processNames);
                if (slice.kind == ElementKind.KERNEL
                        && !processNames.getOrDefault(slice.pid, "").startsWith(MEMBER_PROCESS)) {
                    byDevice.computeIfAbsent(slice.pid, pid -> new ArrayList<>()).add(slice);
                }
            }
            Map<Long, Long> run = new HashMap<>();
            for (List<Slice> kernels : byDevice.values()) {
                kernels.sort((a, b) -> a.startNanos != b.startNanos ? Long.compare(a.startNanos, b.startNanos)
                        : Long.compare(a.id, b.id));
                java.util.PriorityQueue<Long> ends = new java.util.PriorityQueue<>();
                for (Slice k : kernels) {
                    long end = k.startNanos + k.durationNanos;
                    long start = k.startNanos;
                    if (ends.size() == slots) {
                        start = Math.max(start, ends.poll());
                    }
                    ends.add(end);
                    run.put(k.id, Math.max(0, end - Math.min(start, end)));
                }
            }
            return run;
        }

        /** The slice that gives an element's duration: the one on a member's process, else the shortest. */
        private static Slice chosen(List<Slice> slices, Map<Long, String> processNames) {
            Slice best = slices.getFirst();
            for (Slice slice : slices) {
                boolean onMember = processNames.getOrDefault(slice.pid, "").startsWith(MEMBER_PROCESS);
                boolean bestOnMember = processNames.getOrDefault(best.pid, "").startsWith(MEMBER_PROCESS);
                if (onMember && !bestOnMember || onMember == bestOnMember && slice.durationNanos < best.durationNanos) {
                    best = slice;
                }
            }
            return best;
        }
    }

    /** Which event of which file, for errors about its content: its JSON path, such as {@code $.traceEvents[3]}. */
    private record Where(String source, String path) {
        IllegalArgumentException error(String what) {
            return new IllegalArgumentException(source + ": in the event at " + path + ", " + what);
        }
    }

    private static void readEvent(Object value, Where where, Map<Long, String> processNames,
            Map<Long, List<Slice>> slicesById) {
        if (!(value instanceof Map<?, ?> event)) {
            throw where.error("expected an object");
        }
        Object phase = event.get("ph");
        if ("M".equals(phase) && "process_name".equals(event.get("name"))) {
            processNames.put(integer(event, "pid", where), text(map(event, "args", where), "name", where));
        } else if ("X".equals(phase)) {
            Slice slice = slice(event, where);
            slicesById.computeIfAbsent(slice.id, id -> new ArrayList<>(2)).add(slice);
        }
    }

    private static Slice slice(Map<?, ?> event, Where where) {
        Map<?, ?> args = map(event, "args", where);
        long id = integer(args, "id", where);
        ElementKind kind = constant(ElementKind.class, args, "kind", where);
        List<?> parentList = list(args, "parents", where);
        long[] parents = new long[parentList.size()];
        for (int i = 0; i < parents.length; i++) {
            if (!(parentList.get(i) instanceof Long parent)) {
                throw where.error("args.parents must hold integer ids, found " + parentList.get(i));
            }
            parents[i] = parent;
        }
        List<Use> uses = new ArrayList<>();
        for (Object item : list(args, "arrays", where)) {
            if (!(item instanceof Map<?, ?> array)) {
                throw where.error("args.arrays must hold objects, found " + item);
            }
            AccessMode mode = constant(AccessMode.class, array, "mode", where);
            long bytes = array.containsKey("bytes") ? integer(array, "bytes", where) : 0;
            if (bytes < 0) {
                throw where.error("an array's bytes must be >= 0, was " + bytes);
            }
            uses.add(new Use(integer(array, "id", where), mode, bytes));
        }
        return new Slice(id, text(event, "name", where), kind, nanos(event, "dur", where),
                event.containsKey("ts") ? nanos(event, "ts", where) : 0, integer(event, "pid", where), parents,
                uses);
    }

    /** The event's {@code field} ({@code dur} or {@code ts}), microseconds with up to three decimals, in ns. */
    private static long nanos(Map<?, ?> event, String field, Where where) {
        Object value = event.get(field);
        BigDecimal micros = switch (value) {
            case Long whole -> BigDecimal.valueOf(whole);
            case BigDecimal exact -> exact;
            case null, default -> throw where.error(field + " must be a number of microseconds, found " + value);
        };
        if (micros.signum() < 0) {
            throw where.error(field + " must be >= 0, was " + micros);
        }
        try {
            return micros.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw where.error(field + " " + micros + " µs does not fit in a long of nanoseconds");
        }
    }

    /** The constant of {@code type} named by member {@code name}, or an error listing the constants. */
    private static <E extends Enum<E>> E constant(Class<E> type, Map<?, ?> object, String name, Where where) {
        String constant = text(object, name, where);
        try {
            return Enum.valueOf(type, constant);
        } catch (IllegalArgumentException e) {
            throw where.error(name + " must be one of " + List.of(type.getEnumConstants()) + ", was '" + constant
                    + "'");
        }
    }

    private static long integer(Map<?, ?> object, String name, Where where) {
        if (object.get(name) instanceof Long value) {
            return value;
        }
        throw where.error(name + " must be an integer, found " + object.get(name));
    }

    private static String text(Map<?, ?> object, String name, Where where) {
        if (object.get(name) instanceof String value) {
            return value;
        }
        throw where.error(name + " must be a string, found " + object.get(name));
    }

    private static Map<?, ?> map(Map<?, ?> object, String name, Where where) {
        if (object.get(name) instanceof Map<?, ?> value) {
            return value;
        }
        throw where.error(name + " must be an object, found " + object.get(name));
    }

    private static List<?> list(Map<?, ?> object, String name, Where where) {
        if (object.get(name) instanceof List<?> value) {
            return value;
        }
        throw where.error(name + " must be an array, found " + object.get(name));
    }
}
