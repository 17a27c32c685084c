/**
 * The cluster layer: members of a Hazelcast cluster steal ready computational elements (with their data) from
 * each other. Plain Java over the scheduler's cluster SPI ({@code Scheduler.steal}); no Truffle.
 *
 * <p>Sub-packages: {@code policy} (the stealing policy, pure and deterministic: also driven by the simulator),
 * {@code wire} (explicit message formats and their authentication).
 */
package dev.polygpu.cluster;
