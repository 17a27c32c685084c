package dev.polygpu.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Ports for members that tests start on loopback: a block of consecutive ports that nothing listens on now, so
 * that a test does not meet another process's member (another build on the machine runs the same tests) or
 * fail to listen where it expected to.
 *
 * <p>Blocks are looked for from a place that depends on the process id, below the kernel's range of ephemeral
 * ports (32768 and up on Linux), so two test JVMs that start together rarely probe the same block. Nothing holds
 * the ports between the probe and the member's start; a member takes the next free port when one is taken
 * meanwhile, and lists of members name the whole block.
 */
final class FreePorts {
    private static final int FIRST = 20_000;
    private static final int BLOCKS = 120;
    private static final int STEP = 100;

    private FreePorts() {
    }

    /** The first port of {@code count} consecutive ports on 127.0.0.1 that nothing listens on now. */
    static int block(int count) {
        int start = (int) (ProcessHandle.current().pid() % BLOCKS);
        for (int i = 0; i < BLOCKS; i++) {
            int base = FIRST + (start + i) % BLOCKS * STEP;
            if (free(base, count)) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free ports in a row on 127.0.0.1 in " + FIRST + ".."
                + (FIRST + BLOCKS * STEP - 1) + "; close what listens there and run the test again");
    }

    private static boolean free(int base, int count) {
        for (int port = base; port < base + count; port++) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                s.getLocalPort();
            } catch (IOException taken) {
                return false;
            }
        }
        return true;
    }
}
