/**
 * The differential oracle: runs CUDA C kernels both through nvcc and the CPU device's PTX interpreter and
 * through the CPU device's CUDA C engine, and compares what they leave in memory
 * ({@link dev.polygpu.device.cpu.oracle.DifferentialOracle}). The public types are the oracle, its options and
 * the records a case and its result are made of ({@code OracleCase}, {@code OracleArg}, {@code OracleType},
 * {@code OracleResult}), which a kernel generator shares; the nvcc runner, the batching, the comparison and the
 * side runs are internals (private, no compatibility). Described in the scheduler module's README, section
 * "Differential oracle".
 */
package dev.polygpu.device.cpu.oracle;
