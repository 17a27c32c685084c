package dev.polygpu.grcuda;

import dev.polygpu.runtime.ScheduleObserver;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.WorkExchange;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link WorkExchange.Provider} for the language's tests (registered in this module's test resources), so the
 * cluster wiring is exercised without Hazelcast. It records every attachment by its {@code members} option (each
 * test uses its own addresses) with the events that matter to the language: when the exchange and the scheduler
 * close. The cluster name picks a failure: {@code refuse} throws what a bad option gives,
 * {@code unreachable} what a failed join gives, {@code leave-fails} makes the exchange's close throw.
 */
public final class RecordingExchangeProvider implements WorkExchange.Provider {
    /** What one attach saw and what happened to it since. */
    record Attachment(Scheduler scheduler, Map<String, String> options, List<String> events) {
    }

    private static final Map<String, Attachment> BY_MEMBERS = new ConcurrentHashMap<>();

    /** The attachment whose {@code members} option was {@code members}, or null if there was none. */
    static Attachment attachedWith(String members) {
        return BY_MEMBERS.get(members);
    }

    @Override
    public WorkExchange attach(Scheduler scheduler, Map<String, String> options) {
        switch (options.getOrDefault("name", "")) {
            case "refuse" -> throw new IllegalArgumentException("grcuda.ClusterHeartbeat must be a whole number of"
                    + " seconds, at least 1s (such as 1s or 2s), got 500ms");
            case "unreachable" -> throw new UncheckedIOException("cannot listen on 127.0.0.1:5701..5800",
                    new BindException("Address already in use"));
            default -> {
            }
        }
        Attachment a = new Attachment(scheduler, Map.copyOf(options), new CopyOnWriteArrayList<>());
        BY_MEMBERS.put(options.get("members"), a);
        scheduler.addObserver(new ScheduleObserver() {
            @Override
            public void closed() {
                a.events().add("scheduler closed");
            }
        });
        return new WorkExchange() {
            @Override
            public String memberId() {
                return "member-7";
            }

            @Override
            public Map<String, Object> stats() {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("member", "member-7");
                m.put("members", 3);
                m.put("stolen", 11L);
                m.put("given", 5L);
                m.put("bytesSent", 1L << 33);
                return m;
            }

            @Override
            public String statsTable() {
                return "cluster member member-7 (3 members)\n  stolen (ran here for others)   11\n";
            }

            @Override
            public void close() {
                a.events().add("exchange closed");
                if (options.getOrDefault("name", "").equals("leave-fails")) {
                    throw new IllegalStateException("2 elements given to member-3 did not come back");
                }
            }
        };
    }
}
