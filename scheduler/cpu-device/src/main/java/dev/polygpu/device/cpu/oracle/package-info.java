/**
 * The records of the differential oracle, which runs one CUDA C source two independent ways (nvcc's PTX on the
 * CPU device's PTX interpreter, and the CPU device's own CUDA C engine) and compares the results: a case
 * (source, kernel, launch and arguments), its argument and element types, and what the comparison found. Data
 * only, shared by the oracle's runner and the kernel generator; neither lives in this package.
 */
package dev.polygpu.device.cpu.oracle;
