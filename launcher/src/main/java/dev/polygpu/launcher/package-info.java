/**
 * The {@code polygpu} command ({@link dev.polygpu.launcher.Main}): runs {@code .py} and {@code .js} files in a
 * polyglot context where the {@code grcuda} language is available, starts a cluster worker, and installs and
 * runs the notebook kernel ({@code notebook}); {@code ./polygpu FILE} goes through the daemon ({@code
 * dev.polygpu.launcher.daemon}), which runs this same {@code Main} in a warm engine. It is the module that wires
 * all the others together, and it prints for the user what the libraries only report: guest errors as their
 * language reports them ({@link dev.polygpu.launcher.GuestErrors}), misspelled flags with the closest one ({@link
 * dev.polygpu.launcher.ClosestFlag}). What users rely on is the command line the README documents, not these
 * classes.
 */
package dev.polygpu.launcher;
