/**
 * The asynchronous scheduler: {@link dev.polygpu.runtime.Scheduler} takes computational elements (kernel
 * launches, copies, host accesses and host calls on {@link dev.polygpu.runtime.TrackedArray}s), infers their
 * dependencies from the arrays they touch, places them on the device's streams and observes their completion
 * without the host synchronizing. {@link dev.polygpu.runtime.ScheduleObserver} is how tracing and metrics plug
 * in from outside; {@link dev.polygpu.runtime.WorkExchange} and {@link dev.polygpu.runtime.StolenElement} are
 * the steal SPI a cluster layer implements. Public: the scheduler, its config, elements, arrays, observers and
 * the steal SPI; the dependency tracker, vertices and stream slots are package-private. Depends only on the
 * device SPI ({@code dev.polygpu.device}); described in docs/scheduler.md.
 */
package dev.polygpu.runtime;
