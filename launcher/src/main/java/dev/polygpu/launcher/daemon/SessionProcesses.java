package dev.polygpu.launcher.daemon;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.graalvm.polyglot.io.ProcessHandler;

/**
 * Starts a daemon-run program's subprocesses so that they behave as they would under the client: an output the
 * program lets the subprocess inherit (Python's {@code subprocess.run(["ls"])}) is the client's, not the
 * daemon's: it becomes a pipe, copied to the client by a thread. An inherited standard input is empty instead:
 * copying the client's to a subprocess could only be done ahead of its reads, and a subprocess that never reads
 * (most do not) would swallow what the program itself reads next; the program passes input explicitly
 * ({@code subprocess.run(…, input=…)}). Pipes and redirects the program asks for are kept. The command, folder
 * and environment are the ones the program gave (polyglot fills them from the context: the client's folder and
 * environment).
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
        if (command.getInputRedirect() == Redirect.INHERIT) {
            builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        // the outputs are pipes: the ones the program reads itself, and the ones copied below
        Process process = builder.start();
        String name = "subprocess " + process.pid();
        List<Thread> pumps = new ArrayList<>(2);
        boolean outCopied = copyOut(name + " stdout", command.getOutputRedirect(), process.getInputStream(),
                client.out, pumps);
        boolean errCopied = !command.isRedirectErrorStream() && copyOut(name + " stderr",
                command.getErrorRedirect(), process.getErrorStream(), client.err, pumps);
        return pumps.isEmpty() ? process : new PumpedProcess(process, pumps, outCopied, errCopied);
    }

    /** Copies an output the program does not read itself to where it goes; false when the program reads it. */
    private static boolean copyOut(String name, Redirect redirect, InputStream from, OutputStream inherited,
            List<Thread> pumps) {
        if (redirect == Redirect.INHERIT) {
            pumps.add(copy(name, from, inherited));
            return true;
        }
        if (redirect != Redirect.PIPE && redirect.getOutputStream() != null) {
            pumps.add(copy(name, from, redirect.getOutputStream()));
            return true;
        }
        return false;
    }

    /** Copies {@code from} to {@code to} on a daemon thread until {@code from} ends; returns the thread. */
    private static Thread copy(String name, InputStream from, OutputStream to) {
        return Thread.ofPlatform().daemon().name("polygpu-daemon " + name).start(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = from.read(buffer)) >= 0;) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // the subprocess closed its end, or the client went away: nothing more to copy
            }
        });
    }
}
