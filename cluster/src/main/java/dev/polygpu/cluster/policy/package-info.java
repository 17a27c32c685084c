/**
 * The stealing policy: pure, deterministic decisions of who asks whom for work, how much is given and what is
 * worth moving. The same classes are driven by the real cluster node and by the discrete-event simulator, so
 * they import nothing of Hazelcast, start no threads, read no clock (time comes in as {@code long nowNanos}) and
 * draw randomness only from a {@link java.util.random.RandomGenerator} passed in. Members are plain
 * {@code String} ids. Calls are O(1) or O(members) and allocate little.
 *
 * <p>The protocol, after PaRSEC's inter-node stealing:
 * <ol>
 *   <li><b>Thief-initiated.</b> A member asks for work only when it is starving: its ready plus running
 *       computational elements (CEs) are below the threshold T ({@link dev.polygpu.cluster.policy.Starvation}),
 *       or, busy with low-ranked work, for elements of higher rank. A victim sends work unasked only to a thief it
 *       turned away, or to the thief that has just run the previous link of a chain (below).
 *   <li><b>One outstanding request per thief.</b> {@link dev.polygpu.cluster.policy.RequestTracker} numbers
 *       requests, matches the one reply by id (whoever sends it), drops stale and duplicate replies and gives a
 *       request up after a timeout or when its victim leaves.
 *   <li><b>Victim choice.</b> {@link dev.polygpu.cluster.policy.VictimChooser}: the last member that gave work,
 *       while it keeps giving; otherwise a uniformly random member.
 *   <li><b>Forwarding with hops.</b> A victim with nothing to give forwards the request to the member that last
 *       gave it work, or to a random one, never to the thief or itself, until the hop limit; then the thief gets
 *       an empty reply ({@link dev.polygpu.cluster.policy.Forwarding}).
 *   <li><b>Never starve the victim.</b> A victim gives only ready (not started) CEs and never drops below its own
 *       threshold, so stealing cannot make it the next thief ({@link dev.polygpu.cluster.policy.Surplus}).
 *   <li><b>Chunking.</b> One reply carries at most {@code chunk} CEs, which bounds a reply's size and leaves
 *       surplus for other thieves.
 *   <li><b>Cost gate.</b> A CE moves only when its kernel's expected run time pays for its data's transfer time
 *       ({@link dev.polygpu.cluster.policy.CostGate} over a {@link dev.polygpu.cluster.policy.KernelCostModel}
 *       and a {@link dev.polygpu.cluster.policy.BandwidthEstimator}); a kernel never timed moves only when its
 *       transfer is within a small budget.
 * </ol>
 * An option, off by default: a victim caps what it gives one thief by that thief's slots less what it holds of
 * this victim's already ({@link dev.polygpu.cluster.policy.ThiefCap}; it lost in every simulated run).
 * {@link dev.polygpu.cluster.policy.StealSettings} holds the numbers (T, chunk, hops, cost factor, budgets), and
 * {@link dev.polygpu.cluster.policy.LatencyHistogram} records steal latencies for the median and p99.
 *
 * <p>{@link dev.polygpu.cluster.policy.Thief} and {@link dev.polygpu.cluster.policy.Victim} put these together:
 * each is one member's side of the protocol as a single decision (when and whom to ask and what a reply means;
 * how many to give, forward where, whom to remember as turned away and wake:
 * {@link dev.polygpu.cluster.policy.TurnedAway}), which the cluster node and the simulator both call, so that the
 * simulator's figures are those of the node's decisions. Newer policies, on by default: requests by rank
 * ({@link dev.polygpu.cluster.policy.Priority}), load directories ({@link dev.polygpu.cluster.policy.LoadDirectory}),
 * wake-ups, pushed continuations, speeds learnt from run times ({@link dev.polygpu.cluster.policy.SpeedEstimate}),
 * the input cache ({@link dev.polygpu.cluster.policy.InputCache}, {@link dev.polygpu.cluster.policy.SentInputs}).
 *
 * <p>Public API: the classes named above. Package-private types are internal (no compatibility). The package
 * depends on the JDK only.
 */
package dev.polygpu.cluster.policy;
