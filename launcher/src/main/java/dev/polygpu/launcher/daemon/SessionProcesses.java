package dev.polygpu.launcher.daemon;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.graalvm.polyglot.io.ProcessHandler;

/**
 * Starts a daemon-run program's subprocesses so that they behave as they would under the client: a stream the
 * program lets the subprocess inherit (Python's {@code subprocess.run(["ls"])}) is the client's, not the
 * daemon's. Those streams become pipes, copied to and from the client by a thread each; pipes and redirects the
 * program asks for are kept. The command, folder and environment are the ones the program gave (polyglot fills
 * them from the context: the client's folder and environment).
 */
final class SessionProcesses implements ProcessHandler {
    private final ClientLink client;

    SessionProcesses(ClientLink client) {
        this.client = client;
    }

    @Override
    public Process start(ProcessCommand command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command.getCommand());
        if (command.getDirectory() != null) {
            builder.directory(new File(command.getDirectory()));
        }
        builder.environment().clear();
        builder.environment().putAll(command.getEnvironment());
        builder.redirectErrorStream(command.isRedirectErrorStream());
        // every stream a pipe: the ones the program reads or writes itself, and the ones copied below
        Process process = builder.start();
        String name = "subprocess " + process.pid();
        if (command.getInputRedirect() == Redirect.INHERIT) {
            copy(name + " stdin", client.in, process.getOutputStream(), true, process);
        }
        List<Thread> pumps = new ArrayList<>(2);
        copyOut(name + " stdout", command.getOutputRedirect(), process.getInputStream(), client.out, process, pumps);
        if (!command.isRedirectErrorStream()) {
            copyOut(name + " stderr", command.getErrorRedirect(), process.getErrorStream(), client.err, process,
                    pumps);
        }
        return pumps.isEmpty() ? process : new PumpedProcess(process, pumps);
    }

    private static void copyOut(String name, Redirect redirect, InputStream from, OutputStream inherited,
            Process process, List<Thread> pumps) {
        if (redirect == Redirect.INHERIT) {
            pumps.add(copy(name, from, inherited, false, process));
        } else if (redirect != Redirect.PIPE && redirect.getOutputStream() != null) {
            pumps.add(copy(name, from, redirect.getOutputStream(), false, process));
        }
    }

    /**
     * Copies {@code from} to {@code to} on a daemon thread until {@code from} ends. Standard input
     * ({@code closeAtEnd}) is closed at the end of the client's input; its copy stops when the subprocess
     * ends, leaving what the client sends later for the program.
     */
    private static Thread copy(String name, InputStream from, OutputStream to, boolean closeAtEnd, Process process) {
        Thread t = Thread.ofPlatform().daemon().name("polygpu-daemon " + name).start(() -> {
            byte[] buffer = new byte[8192];
            try {
                int n;
                while (process.isAlive() || !closeAtEnd) {
                    n = from.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // the subprocess closed its end, or the client went away: nothing more to copy
            } finally {
                if (closeAtEnd) {
                    try {
                        to.close();
                    } catch (IOException e) {
                        // already closed by the subprocess's exit
                    }
                }
            }
        });
        if (closeAtEnd) {
            // a copy of standard input may wait for the client forever: stop it when the subprocess ends
            process.onExit().thenRun(t::interrupt);
        }
        return t;
    }
}
