/**
 * The Jupyter notebook kernel of {@code polygpu notebook}: kernelspecs ({@link
 * dev.polygpu.launcher.notebook.KernelSpecs}, written by {@code install}), and the kernel ({@link
 * dev.polygpu.launcher.notebook.PolygpuKernel}) that runs Python and JavaScript cells in one polyglot context,
 * with cell magics, variables shared between the languages, and the {@code polygpu} helpers that draw the
 * schedule the {@code grcuda} language recorded. The Jupyter protocol is jupyter-jvm-basekernel's (over jeromq).
 *
 * <p>Internal to the launcher (no compatibility): what users rely on is the command line, the kernelspec names,
 * the magics and the helpers' names, as the README documents them. This package talks to the language only
 * through the polyglot API ({@code CU.polygpu_schedule}); it does not reach into the scheduler.
 */
package dev.polygpu.launcher.notebook;
