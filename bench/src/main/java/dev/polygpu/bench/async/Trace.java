package dev.polygpu.bench.async;

import java.util.ArrayList;
import java.util.List;

/**
 * The computational elements of one run of a DAG program, in program order, as the harness saw them: each
 * kernel launch with the arrays it uses and how (from the kernel's NIDL signature) and, under
 * {@code ExecutionPolicy=sync}, how long it took; and each host access to an array (which takes no device
 * time but may make the host wait). {@link DagModel} turns it into the dependency graph.
 *
 * <p>Not thread-safe: one program thread records.
 */
final class Trace {
    /** How a computational element uses an array. */
    enum Mode {
        READ, WRITE, READ_WRITE;

        boolean writes() {
            return this != READ;
        }
    }

    /** One array argument of an element. */
    record Use(int array, Mode mode) {
    }

    /** A kernel launch ({@code host} false) or a host access to arrays ({@code host} true). */
    record Node(String label, boolean host, List<Use> uses, long nanos) {
    }

    private final List<Node> nodes = new ArrayList<>();

    void kernel(String label, List<Use> uses, long nanos) {
        nodes.add(new Node(label, false, List.copyOf(uses), nanos));
    }

    void host(String label, Use use) {
        nodes.add(new Node(label, true, List.of(use), 0));
    }

    List<Node> nodes() {
        return List.copyOf(nodes);
    }
}
