package dev.polygpu.cluster;

import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.WorkExchange;
import java.util.Map;

/**
 * The cluster as the scheduler's {@link WorkExchange}: how the {@code grcuda} language joins a program to a
 * cluster without knowing Hazelcast. Options are {@link ClusterConfig#parse}'s.
 */
public final class ClusterProvider implements WorkExchange.Provider {

    @Override
    public WorkExchange attach(Scheduler scheduler, Map<String, String> options) {
        ClusterNode node = ClusterNode.start(ClusterConfig.parse(options, ClusterProvider::grcudaOption), scheduler);
        return new WorkExchange() {
            @Override
            public String memberId() {
                return node.memberId();
            }

            @Override
            public Map<String, Object> stats() {
                return node.stats().asMap();
            }

            @Override
            public String statsTable() {
                return node.stats().table();
            }

            @Override
            public void close() {
                node.close();
            }
        };
    }

    /**
     * The {@code grcuda} option that sets the cluster option {@code option} ({@code members}:
     * {@code grcuda.Cluster}, {@code inputCache}: {@code grcuda.ClusterInputCache}), for errors in the user's terms.
     */
    static String grcudaOption(String option) {
        return option.equals("members") ? "grcuda.Cluster"
                : "grcuda.Cluster" + Character.toUpperCase(option.charAt(0)) + option.substring(1);
    }
}
