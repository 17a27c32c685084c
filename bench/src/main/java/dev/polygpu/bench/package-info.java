/**
 * Benchmarks of the CPU device and the scheduler through their Java API, each a command that prints Markdown
 * tables: {@link dev.polygpu.bench.CpuDeviceBench} ({@code bench/run}: the CPU device against plain
 * multi-threaded Java on the same computations, one {@link dev.polygpu.bench.BenchCase} each, and, where gcc
 * and pocl are installed, against C loops and the kernels in OpenCL C run as native processes by {@link
 * dev.polygpu.bench.NativeTool}), {@link
 * dev.polygpu.bench.SchedulerBench} ({@code bench/scheduler}) and {@link dev.polygpu.bench.PtxBench} ({@code
 * bench/ptx}: the PTX interpreter against the CUDA C engine). The figures and the commands that produced them
 * are in docs/benchmarks.md; bench/README.md says how to run each.
 */
package dev.polygpu.bench;
