/**
 * The cluster benchmark ({@link dev.polygpu.bench.cluster.ClusterBench}, {@code bench/cluster}): a block-sparse
 * matrix product whose kernels are all submitted at one member, in this JVM, and spread by work stealing over
 * worker processes on loopback ({@link dev.polygpu.bench.cluster.WorkerProcess}). It reports makespans against
 * the best balance the kernels' device times allow ({@link dev.polygpu.bench.cluster.Balance}), where the
 * kernels ran, the stealing counters and join-to-work times, as Markdown tables; figures in docs/benchmarks.md.
 */
package dev.polygpu.bench.cluster;
