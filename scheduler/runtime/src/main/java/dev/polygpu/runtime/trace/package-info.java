/**
 * Traces of a schedule, for people looking at what the scheduler did: {@link
 * dev.polygpu.runtime.trace.ScheduleRecorder} is a {@link dev.polygpu.runtime.ScheduleObserver} that keeps
 * every computational element with its dependencies, placement, times and failure; {@link
 * dev.polygpu.runtime.trace.RecordedDag} is a consistent snapshot of what it kept. From a snapshot,
 * {@link dev.polygpu.runtime.trace.DotExporter} writes the DAG as Graphviz DOT, {@link
 * dev.polygpu.runtime.trace.ChromeTraceWriter} writes a timeline in Chrome's Trace Event Format (Perfetto,
 * {@code chrome://tracing}), {@link dev.polygpu.runtime.trace.SvgDagWriter} and {@link
 * dev.polygpu.runtime.trace.SvgTimelineWriter} draw the DAG and the timeline as standalone SVG, and {@link
 * dev.polygpu.runtime.trace.DagMetrics} computes the DAG's width, critical path and makespan.
 *
 * <p>Public API: the classes named above, {@link dev.polygpu.runtime.trace.RecordedElement} and {@link
 * dev.polygpu.runtime.trace.Dependency}. Everything package-private is internal (no compatibility). This
 * package depends only on the observer types of {@code dev.polygpu.runtime}; the scheduler does not depend on
 * it.
 */
package dev.polygpu.runtime.trace;
