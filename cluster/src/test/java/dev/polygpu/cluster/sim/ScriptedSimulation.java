package dev.polygpu.cluster.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * A simulated run that a test drives, for comparing the simulator's decisions with the cluster node's
 * ({@code dev.polygpu.cluster.SameDecisionsTest}): no member's thief asks on its own, the test hands members
 * steal requests and makes tasks ready, and sees every message the members send. Simulated time stays at 0
 * unless the test moves it on, so no message sent arrives.
 */
public final class ScriptedSimulation {
    /**
     * A message a member sent.
     *
     * @param kind {@code request}, {@code reply}, {@code load}, {@code result} or {@code handback}
     * @param from the sender's index
     * @param to the receiver's index
     * @param thief for a request, the thief's index
     * @param requestId for a request or a reply, the request's id
     * @param items for a reply, how many tasks it carries
     * @param hops for a request, how often it was forwarded
     * @param pushed for a reply, whether it answers no request
     */
    public record Sent(String kind, int from, int to, int thief, long requestId, int items, int hops,
                       boolean pushed) {
    }

    private final Simulator simulator;
    private final List<SimEvent> sent = new ArrayList<>();

    /** A run of {@code work} on {@code config}, set up (every member's first tasks dispatched), at time 0. */
    public ScriptedSimulation(Workload work, SimConfig config) {
        simulator = new Simulator(work, config);
        simulator.startScripted(m -> true, sent::add);
    }

    /** A steal request of member {@code thief} reaches member {@code victim} now. */
    public void request(int thief, int victim, long requestId, int wanted, int minRank, int hops) {
        simulator.request(thief, victim, requestId, wanted, minRank, hops);
    }

    /** Task {@code task} becomes ready at its owner now, as if its parents had completed. */
    public void release(int task) {
        simulator.release(task);
    }

    /** The messages sent since the last call, in the order they were sent. */
    public List<Sent> drain() {
        List<Sent> out = new ArrayList<>();
        for (SimEvent e : sent) {
            out.add(new Sent(SimEvent.kindName(e.kind), e.from, e.member, e.thief, e.requestId,
                    e.items == null ? 0 : e.items.length, e.hops, e.pushed));
        }
        sent.clear();
        return out;
    }
}
