/**
 * The daemon behind {@code ./polygpu FILE}: {@link dev.polygpu.launcher.daemon.DaemonServer} keeps one polyglot
 * engine warm and runs each command sent to it in a fresh context of it ({@link
 * dev.polygpu.launcher.daemon.DaemonSession}: the launcher's own {@code Main} with the client's folder,
 * environment, streams and subprocess handling); {@link dev.polygpu.launcher.daemon.DaemonClient} is the small
 * JVM {@code ./polygpu} starts instead of the whole runtime, which hands the command over, starting the daemon
 * on first use. They speak {@link dev.polygpu.launcher.daemon.Frames} on a Unix-domain socket in a folder that
 * is the user's alone ({@code dev/daemon.sh} makes and checks it). The client loads no polyglot class, so that
 * it starts in a tenth of a second.
 */
package dev.polygpu.launcher.daemon;
