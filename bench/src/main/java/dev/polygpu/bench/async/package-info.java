/**
 * The asynchronous scheduler measured through the public polyglot API, as an embedder or guest program sees it:
 * the IPDPS 2021 paper's six benchmark DAGs ({@link dev.polygpu.bench.async.DagBench}, {@code bench/dags}) under
 * the sync and async execution policies, each checked against a plain-Java computation and its recorded
 * dependency graph ({@link dev.polygpu.bench.async.DagModel}), and the retained heap of a long-running program
 * ({@link dev.polygpu.bench.async.LaunchHeap}, {@code bench/launch-heap}). Commands that print tables; figures
 * in docs/benchmarks.md.
 */
package dev.polygpu.bench.async;
