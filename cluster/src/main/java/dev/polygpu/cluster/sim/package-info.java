/**
 * A discrete-event simulator of the cluster's work stealing, for sizes and conditions no test cluster reaches
 * (thousands of members, a million tasks, racks, joins and crashes), behind {@code polygpu simulate}.
 *
 * <p>Every simulated member decides with the real policy classes of {@code dev.polygpu.cluster.policy}, as
 * {@code ClusterNode} does: {@link dev.polygpu.cluster.policy.Thief} (starvation, victim choice, one request at
 * a time, timeouts and back-off), {@link dev.polygpu.cluster.policy.Victim} (chunking, the never-starve rule,
 * forwarding with hops) and the {@link dev.polygpu.cluster.policy.CostGate} with its learned
 * {@link dev.polygpu.cluster.policy.KernelCostModel} and {@link dev.polygpu.cluster.policy.BandwidthEstimator},
 * and the input cache: a thief's {@link dev.polygpu.cluster.policy.InputCache} and an owner's
 * {@link dev.polygpu.cluster.policy.SentInputs}. A change there changes what the simulator shows; nothing here copies them.
 *
 * <h2>Public API</h2>
 * <ul>
 *   <li>{@link dev.polygpu.cluster.sim.Workload} (with its builder): the tasks, their owners, durations, arrays
 *       and dependencies. {@link dev.polygpu.cluster.sim.Workloads} generates block-sparse GEMM, dense GEMM and
 *       tiled Cholesky; {@link dev.polygpu.cluster.sim.TraceReplay} reads a Chrome trace the scheduler wrote;
 *       {@link dev.polygpu.cluster.sim.Distribution} draws task durations.
 *   <li>{@link dev.polygpu.cluster.sim.SimConfig}: the cluster (members, slots, window, stealing settings,
 *       {@link dev.polygpu.cluster.sim.Network}, {@link dev.polygpu.cluster.sim.MembershipEvent}s, failure
 *       timeout, input cache, seed, and optionally the {@link dev.polygpu.cluster.sim.HostCpu} each message
 *       costs a member).
 *   <li>{@link dev.polygpu.cluster.sim.Simulator}: runs one workload on one configuration, once, and returns a
 *       {@link dev.polygpu.cluster.sim.SimResult} (makespan against its lower bound, moved tasks, messages,
 *       bytes, idle time, steal latency, reruns).
 *   <li>{@link dev.polygpu.cluster.sim.SimulateCommand}: the command line, a sweep over member counts printed
 *       as a Markdown table, with an optional CSV and SVG plot.
 * </ul>
 * The other classes are internal.
 *
 * <h2>What is modelled, and what is not</h2>
 * Modelled: each member's ready queue, in-flight window and device slots; the steal protocol (requests,
 * forwarding, replies with the arrays the tasks read or references to those the thief holds, stale replies
 * and tasks whose inputs missed in the thief's cache handed back, results sent home); the
 * network's latency, bandwidth, racks and a fixed cost per message, one message at a time per sender; workers
 * that join, leave gracefully (finishing what they hold) or crash (their tasks run again at their owners after
 * the failure timeout); optionally (off by default, for CPU devices), the host CPU a member spends on each
 * message, taken from its running kernels. Not modelled: Hazelcast itself (membership is known to all at once,
 * except a crash, noticed after the timeout), real data and kernels (a task is a duration and byte counts), the
 * waits for a core of threads on a host with fewer cores than busy threads (several members on one host),
 * kernel compile time, memory limits. Owners (members that submitted tasks) never
 * leave: a program's tasks go with it.
 *
 * <p>Time is simulated nanoseconds. A run is deterministic: the same workload, configuration and seed give the
 * same result, event for event. Nothing here is thread-safe; one simulator runs on one thread.
 */
package dev.polygpu.cluster.sim;
