package dev.polygpu.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The native columns of one case of {@code bench/run}: one {@link NativeSession} per installed tool, the times
 * of its measured iterations, and why it failed if it did. A tool's failure (it stopped, or its results differ
 * from plain Java's) ends that tool's column for the case and nothing else. Used by the bench's one thread.
 */
final class NativeRuns implements AutoCloseable {

    private final List<NativeTool> tools;
    private final NativeSession[] sessions;
    private final double[][] times;
    private final String[] failures;
    private final Path inputs;

    /**
     * Writes case {@code c}'s inputs to a file in {@code work} and starts each available tool on them;
     * {@code name} names the file.
     */
    NativeRuns(List<NativeTool> tools, NativeCase c, String name, int threads, int iterations, Path work)
            throws IOException {
        this.tools = tools;
        this.sessions = new NativeSession[tools.size()];
        this.times = new double[tools.size()][iterations];
        this.failures = new String[tools.size()];
        boolean any = tools.stream().anyMatch(NativeTool::available);
        this.inputs = any ? Files.createTempFile(work, name + "-", ".pgb") : null;
        if (any) {
            c.nativeInputs().write(inputs);
        }
        for (int t = 0; t < tools.size(); t++) {
            if (tools.get(t).available() && tools.get(t).kind() == NativeTool.Kind.POCL && c.notOnPocl() != null) {
                failures[t] = c.notOnPocl();
            } else if (tools.get(t).available()) {
                try {
                    sessions[t] = tools.get(t).start(c, inputs, threads, work);
                } catch (IOException | RuntimeException e) {
                    failures[t] = describe(e);
                }
            }
        }
    }

    /**
     * Runs one iteration on each running tool; {@code measured} is the index of a measured iteration, or -1
     * for a warm-up. Returns the times for the progress line ({@code ", C 1.20 ms, pocl 3.40 ms"}).
     */
    String iteration(int measured) {
        StringBuilder line = new StringBuilder();
        for (int t = 0; t < sessions.length; t++) {
            if (sessions[t] == null) {
                continue;
            }
            try {
                double ms = sessions[t].iteration();
                if (measured >= 0) {
                    times[t][measured] = ms;
                }
                line.append(String.format(Locale.ROOT, ", %s %s ms", tools.get(t).label(), Sizes.ms(ms)));
            } catch (IOException | RuntimeException e) {
                fail(t, describe(e));
            }
        }
        return line.toString();
    }

    /** Compares each running tool's last outputs with plain Java's (the case's {@link NativeCase#verifyNative}). */
    void verify(NativeCase c) {
        for (int t = 0; t < sessions.length; t++) {
            if (sessions[t] == null) {
                continue;
            }
            try {
                c.verifyNative(tools.get(t).label(), sessions[t].results());
            } catch (IOException | RuntimeException | AssertionError e) {
                fail(t, describe(e));
            }
        }
    }

    /** The measured times of tool {@code t}; meaningful only if it is installed and did not fail. */
    double[] times(int t) {
        return times[t];
    }

    /** Why tool {@code t} failed on this case; null if it did not (or is not installed). */
    String failure(int t) {
        return failures[t];
    }

    private void fail(int t, String why) {
        failures[t] = why;
        try {
            sessions[t].close();
        } catch (IOException e) {
            failures[t] = why + "; closing it: " + e.getMessage();
        }
        sessions[t] = null;
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m.replace('\n', ' '));
    }

    @Override
    public void close() throws IOException {
        for (int t = 0; t < sessions.length; t++) {
            if (sessions[t] != null) {
                sessions[t].close();
                sessions[t] = null;
            }
        }
        if (inputs != null) {
            Files.deleteIfExists(inputs);
        }
    }
}
