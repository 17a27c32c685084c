package dev.polygpu.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.util.List;
import java.util.OptionalInt;

/**
 * Where a worker given no {@code --port} listens: the first address of its {@code --join} list that is its own (its
 * host is the worker's bind address) and that nothing listens on yet. A worker told to join
 * {@code 127.0.0.1:5801,127.0.0.1:5802} with nobody there then becomes the member at {@code 127.0.0.1:5801}, where
 * the others will look for it, not one at Hazelcast's first port 5701, which nobody lists.
 */
final class JoinPort {
    private JoinPort() {
    }

    /**
     * The port of the first of {@code members} ({@code host:port}) whose host resolves to {@code bind} and whose
     * port is free on it, and leaves room for the {@link ClusterConfig#PORT_COUNT} ports a member may try; empty
     * when there is none (the worker then keeps the default port).
     */
    static OptionalInt firstFree(List<String> members, String bind) {
        InetAddress own = address(bind);
        if (own == null) {
            // The transport refuses an unknown bind address, saying why, when the worker starts.
            return OptionalInt.empty();
        }
        for (String m : members) {
            int colon = m.lastIndexOf(':');
            int port = Integer.parseInt(m.substring(colon + 1));
            if (own.equals(address(m.substring(0, colon))) && port + ClusterConfig.PORT_COUNT - 1 <= 65535
                    && free(own, port)) {
                return OptionalInt.of(port);
            }
        }
        return OptionalInt.empty();
    }

    /** {@code host} resolved, or null when it is no known host (such a member is not this worker's address). */
    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether a socket can listen at {@code address:port} now: false when a member (or anything) already does. */
    static boolean free(InetAddress address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(address, port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
