package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrBuiltin;
import dev.polygpu.grcuda.objects.GrNone;
import dev.polygpu.runtime.trace.ChromeTraceWriter;
import dev.polygpu.runtime.trace.DagFormat;
import dev.polygpu.runtime.trace.DagMetrics;
import dev.polygpu.runtime.trace.DotExporter;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import dev.polygpu.runtime.trace.SvgDagWriter;
import dev.polygpu.runtime.trace.SvgTimelineWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code polygpu_schedule(format)}: a polygpu extension (not GrCUDA API) returning, as a string, what ran so far
 * (since the start or the last {@code polygpu_schedule_clear()}): {@code "dag-svg"} the DAG drawn as SVG,
 * {@code "timeline-svg"} the timeline drawn as SVG, {@code "chrome-trace"} the timeline as Chrome trace JSON
 * (Perfetto), {@code "dot"} the DAG as Graphviz DOT, {@code "summary"} one line with the DAG's size, width,
 * critical path and makespan. It waits for nothing: work still running shows as not completed. Needs
 * {@code grcuda.RecordSchedule=true} (or one of the export options), which the notebook kernel sets.
 */
final class ScheduleBuiltin extends GrBuiltin {
    static final String NAME = "polygpu_schedule";
    private static final Map<String, DagFormat> FORMATS = formats();

    private final GrContext context;

    ScheduleBuiltin(GrContext context) {
        super(NAME);
        this.context = context;
    }

    private static Map<String, DagFormat> formats() {
        Map<String, DagFormat> m = new LinkedHashMap<>();
        m.put("dag-svg", new SvgDagWriter());
        m.put("timeline-svg", new SvgTimelineWriter());
        m.put("chrome-trace", new ChromeTraceWriter());
        m.put("dot", new DotExporter());
        m.put("summary", (dag, out) -> out.append(DagMetrics.of(dag).summary()));
        return m;
    }

    @Override
    @TruffleBoundary
    protected Object call(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        String format = Args.string(args, 0, NAME, "format");
        DagFormat writer = FORMATS.get(format);
        if (writer == null) {
            throw GrError.of(NAME + ": unknown format '" + format + "'; the formats are "
                    + String.join(", ", FORMATS.keySet()));
        }
        return writer.export(recorder(context).snapshot());
    }

    /** The context's recorder; a guest error saying how to turn recording on when there is none. */
    static ScheduleRecorder recorder(GrContext context) {
        ScheduleRecorder recorder = context.scheduleRecorder();
        if (recorder == null) {
            throw GrError.of(NAME + ": nothing is recorded: start the context with grcuda.RecordSchedule=true"
                    + " (polygpu --grcuda.RecordSchedule=true …; the notebook kernel sets it)");
        }
        return recorder;
    }

    /** {@code polygpu_schedule_clear()}: forgets what was recorded, so the next drawing starts afresh. */
    static final class Clear extends GrBuiltin {
        private final GrContext context;

        Clear(GrContext context) {
            super("polygpu_schedule_clear");
            this.context = context;
        }

        @Override
        protected Object call(Object[] args) throws ArityException {
            Args.arity(args, 0, 0);
            recorder(context).clear();
            return GrNone.INSTANCE;
        }
    }
}
