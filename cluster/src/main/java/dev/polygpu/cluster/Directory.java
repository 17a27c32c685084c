package dev.polygpu.cluster;

import dev.polygpu.cluster.policy.LoadDirectory;
import dev.polygpu.cluster.wire.LoadReport;

/**
 * The load directories of one member ({@link LoadDirectory}, with {@link ClusterConfig#directories()} above 0):
 * as a directory, the surplus the other programs reported here, which the victim side forwards starving thieves
 * by; as a program, the reports of its own surplus to its directory. Thread-safe: the table is; the last report
 * sent is the stealing loop's alone.
 */
final class Directory {
    private final NodeContext n;
    /** As a directory: the load that the members reporting here sent last. */
    private final LoadDirectory table = new LoadDirectory();
    /** What this member last reported to its directory (the stealing loop's alone). */
    private int reported;
    private int reportedTop;
    /** Set when members join or leave: the directory may have changed, so the next report goes at once. */
    private volatile boolean reportAgain;

    Directory(NodeContext n) {
        this.n = n;
    }

    /** The table the victim side forwards by, or null without directories. */
    LoadDirectory table() {
        return n.config.directories() > 0 ? table : null;
    }

    /** How many members' surplus this member keeps as a directory now. */
    int size() {
        return table.size();
    }

    /** The next report goes at once: members joined or left, so this member's directory may have changed. */
    void reportAgain() {
        reportAgain = true;
    }

    void forget(String member) {
        table.forget(member);
    }

    /** A program's load report, from a member that proved the secret and is not leaving: a program keeps it. */
    void onReport(LoadReport l) {
        if (n.config.role() == ClusterConfig.Role.PROGRAM) {
            table.report(l.sender(), l.surplus(), l.topRank());
        }
    }

    /**
     * With directories: reports this member's surplus and the highest rank among its stealable elements to
     * its directory when {@link LoadDirectory#reportDue} says so (none while leaving). Only programs report;
     * workers never have work of their own. Runs on the stealing loop.
     */
    void maybeReport(LoopTurn turn) {
        if (n.config.directories() == 0 || !n.config.stealing() || n.config.role() != ClusterConfig.Role.PROGRAM) {
            return;
        }
        if (reportAgain) {
            reportAgain = false;
            reported = 0;
            reportedTop = 0;
        }
        int surplus = 0;
        int top = 0;
        if (n.active()) {
            surplus = turn.surplus();
            top = surplus > 0 ? turn.topRank() : 0;
        }
        if (!LoadDirectory.reportDue(reported, reportedTop, surplus, top)) {
            return;
        }
        reported = surplus;
        reportedTop = top;
        String self = n.self();
        String to = LoadDirectory.directoryFor(self, n.members.programs(), n.config.directories());
        if (to != null && !to.equals(self) && n.send(to, new LoadReport(self, surplus, top))) {
            n.counters.loadReports.incrementAndGet();
        }
    }
}
