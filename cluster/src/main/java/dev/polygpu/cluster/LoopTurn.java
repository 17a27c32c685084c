package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.policy.Victim;
import dev.polygpu.runtime.Scheduler;

/**
 * One turn of a node's stealing loop: the device's load, its surplus and its highest stealable rank, each taken
 * once when first asked (a scan of the ready elements) and shared by the steal, report and wake-up decisions of
 * the turn. The loop's alone.
 */
final class LoopTurn {
    private final NodeContext n;
    private Scheduler.Load load;
    private int surplus = -1;
    private int topRank = -1;

    LoopTurn(NodeContext n) {
        this.n = n;
    }

    /** The device's load in this turn. */
    Scheduler.Load load() {
        if (load == null) {
            load = n.scheduler.load();
        }
        return load;
    }

    /** The device's load in this turn, as the victim counts it. */
    Victim.Load victimLoad() {
        return VictimSide.victimLoad(load());
    }

    /** What this member could give in this turn ({@link LoadDirectory#surplus}). */
    int surplus() {
        if (surplus < 0) {
            Scheduler.Load l = load();
            surplus = LoadDirectory.surplus(l.ready(), l.stealable(), l.running(), n.settings);
        }
        return surplus;
    }

    /** The highest rank among this member's stealable elements in this turn (a scan). */
    int topRank() {
        if (topRank < 0) {
            topRank = n.scheduler.topStealableRank();
        }
        return topRank;
    }
}
