package dev.polygpu.launcher.daemon;

import java.nio.file.Path;

/**
 * The files of one daemon, beside each other in the user's daemon folder and named by its key (a hash of the
 * installation, its build and the JVM command, computed by {@code ./polygpu}): {@code KEY.sock} the socket,
 * {@code KEY.lock} held while it runs, {@code KEY.info} its pid and installation, {@code KEY.log} what it
 * printed, {@code KEY.cmd} the JVM command that starts it (written by {@code ./polygpu}).
 */
final class DaemonFiles {
    static final String SOCKET = ".sock";
    static final String INFO = ".info";
    static final String COMMAND = ".cmd";

    private DaemonFiles() {
    }

    static Path socket(Path dir, String key) {
        return dir.resolve(key + SOCKET);
    }

    static Path lock(Path socket) {
        return sibling(socket, ".lock");
    }

    static Path info(Path socket) {
        return sibling(socket, INFO);
    }

    static Path log(Path socket) {
        return sibling(socket, ".log");
    }

    static Path command(Path socket) {
        return sibling(socket, COMMAND);
    }

    /** The socket of the daemon whose info or command file is {@code file}. */
    static Path socketOf(Path file) {
        String name = file.getFileName().toString();
        return file.resolveSibling(name.substring(0, name.lastIndexOf('.')) + SOCKET);
    }

    private static Path sibling(Path socket, String suffix) {
        String name = socket.getFileName().toString();
        String key = name.endsWith(SOCKET) ? name.substring(0, name.length() - SOCKET.length()) : name;
        return socket.resolveSibling(key + suffix);
    }
}
