/**
 * The cluster layer: members of a Hazelcast cluster steal ready computational elements (with their data) from
 * each other. Plain Java over the scheduler's cluster SPI ({@code Scheduler.steal}); no Truffle.
 *
 * <h2>Public API</h2>
 * <ul>
 *   <li>{@link dev.polygpu.cluster.ClusterNode}: one member, started on a scheduler
 *       ({@link dev.polygpu.cluster.ClusterNode#start}), with its counters ({@link dev.polygpu.cluster.ClusterStats})
 *       and its graceful leave.
 *   <li>{@link dev.polygpu.cluster.ClusterConfig} (with {@link dev.polygpu.cluster.FaultInjection} for tests of
 *       the protocol): every option, validated, with its documented default.
 *   <li>{@link dev.polygpu.cluster.Worker}: the {@code polygpu worker} entry point;
 *       {@link dev.polygpu.cluster.ClusterProvider}: the scheduler's work-exchange provider (a service).
 *   <li>{@link dev.polygpu.cluster.Peer}: another member as the transport sees it.
 * </ul>
 * Everything package-private here is internal (no compatibility): the parts of a node, which
 * {@code NodeContext} lists with what each owns and which thread runs it ({@code ThiefSide} and
 * {@code HeldElements}, {@code VictimSide} and {@code GivenElements}, {@code Membership},
 * {@code Authentication}, {@code Learning}, {@code Directory}), the transport ({@code Transport},
 * {@code HazelcastTransport}, {@code FaultyTransport}), the kernel cache and the warm-up.
 *
 * <p>Sub-packages: {@code policy} (the stealing policy, pure and deterministic: every decision of the protocol,
 * also driven by the simulator), {@code wire} (explicit message formats and their authentication), {@code sim}
 * (the discrete-event simulator behind {@code polygpu simulate}). The policy and the wire formats depend on
 * nothing of this package or of Hazelcast; the node depends on them, never the reverse.
 */
package dev.polygpu.cluster;
