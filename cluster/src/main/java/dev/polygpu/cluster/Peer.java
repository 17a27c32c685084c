package dev.polygpu.cluster;

import java.util.Map;

/**
 * Another member as the transport sees it.
 *
 * @param id         its member id (Hazelcast's member UUID: new for every start, so it also fences restarts)
 * @param address    host:port it listens on, for messages to people
 * @param attributes what it announced when it joined ({@link HazelcastTransport#ROLE} and its secret proof)
 */
public record Peer(String id, String address, Map<String, String> attributes) {
    public Peer {
        attributes = Map.copyOf(attributes);
    }

    /** The attribute, or {@code ""}. */
    public String attribute(String name) {
        return attributes.getOrDefault(name, "");
    }
}
