package dev.polygpu.bench.async;

import java.util.ArrayList;
import java.util.List;
import org.graalvm.polyglot.Value;

/**
 * A kernel built by {@code cu.buildkernel(source, signature)}, launched as a Java embedder launches one:
 * {@code kernel.execute(grid, block[, sharedBytes]).execute(args…)}. Device arrays are passed as their guest
 * values; how each pointer parameter is used ({@code in}, {@code out}, {@code inout}) is read from the NIDL
 * signature for the session's {@link Trace}, and under {@code ExecutionPolicy=sync} the launch (which then
 * returns when the kernel has run) is timed.
 */
final class Kernel {
    private final Session session;
    private final Value kernel;
    private final String name;
    private final List<Trace.Mode> modes;

    Kernel(Session session, Value kernel, List<Trace.Mode> modes) {
        this.session = session;
        this.kernel = kernel;
        this.name = kernel.getMember("name").asString();
        this.modes = modes;
    }

    /** Launches on {@code grid} blocks of {@code block} threads (each an int or an int[] of 1 to 3 extents). */
    void launch(Object grid, Object block, Object... args) {
        launch(kernel.execute(grid, block), args);
    }

    /** Launches with {@code sharedBytes} of dynamic shared memory. */
    void launchShared(Object grid, Object block, int sharedBytes, Object... args) {
        launch(kernel.execute(grid, block, sharedBytes), args);
    }

    private void launch(Value configured, Object[] args) {
        if (args.length != modes.size()) {
            throw new IllegalArgumentException(name + " takes " + modes.size() + " arguments, got " + args.length);
        }
        Object[] values = new Object[args.length];
        List<Trace.Use> uses = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof DevArray a) {
                values[i] = a.value();
                uses.add(new Trace.Use(a.id(), modes.get(i)));
            } else {
                values[i] = args[i];
            }
        }
        Trace trace = session.trace();
        long t0 = System.nanoTime();
        configured.execute(values);
        long nanos = System.nanoTime() - t0;
        if (trace != null) {
            trace.kernel(name, uses, nanos);
        }
    }

    /** The use of each parameter of a NIDL signature ({@code null} for scalars). */
    static List<Trace.Mode> modes(String signature) {
        String params = signature.substring(signature.indexOf('(') + 1, signature.lastIndexOf(')'));
        List<Trace.Mode> modes = new ArrayList<>();
        for (String p : params.split(",")) {
            String[] words = p.substring(p.indexOf(':') + 1).trim().split("\\s+");
            modes.add(switch (words[0]) {
                case "in", "const" -> Trace.Mode.READ;
                case "out" -> Trace.Mode.WRITE;
                case "inout" -> Trace.Mode.READ_WRITE;
                default -> null;
            });
        }
        return modes;
    }
}
