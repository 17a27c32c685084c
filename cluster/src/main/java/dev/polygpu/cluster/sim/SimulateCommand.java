package dev.polygpu.cluster.sim;

import dev.polygpu.cli.CommandLines;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * {@code polygpu simulate}: runs the work-stealing simulator ({@link Simulator}) over a sweep of cluster sizes and
 * prints a Markdown table (on stdout; progress on stderr), optionally a CSV and an SVG plot of efficiency against
 * members ({@link SimulateReport}). Its options are {@link SimulateOptions}. Exit status 0; 1 if a file could not be
 * written or a trace read; 2 for bad arguments, with what was wrong and what to write.
 */
public final class SimulateCommand extends SimulateOptions implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    private SimulateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the command.
     *
     * @param args the arguments after {@code simulate}
     * @param out where the table goes
     * @param err where progress and errors go
     * @return the exit status: 0, 1 if a file could not be written or a trace read, 2 for bad arguments
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = CommandLines.create(new SimulateCommand(out, err), out, err);
        CommandLines.optionSections(commandLine, SECTIONS);
        return CommandLines.execute(commandLine, args);
    }

    @Override
    public Integer call() {
        check();
        try {
            return simulate(this, out, err);
        } catch (IllegalArgumentException e) {
            // A value the workload or a run refuses (a trace that is no trace, too few members for its owners).
            err.println("polygpu simulate: " + e.getMessage());
            return CommandLines.EXIT_USAGE;
        } catch (IOException e) {
            err.println("polygpu simulate: " + e.getMessage());
            return 1;
        }
    }

    private static int simulate(SimulateOptions o, PrintStream out, PrintStream err) throws IOException {
        List<SimulateReport.Row> rows = new ArrayList<>();
        Network network = new Network(o.latency, o.bandwidth, o.rackSize, o.interRackLatency,
                o.interRackBandwidth, o.perMessage);
        boolean headerDone = false;
        for (int members : o.members) {
            List<SimulateReport.Row> ofThisSize = new ArrayList<>();
            for (long seed : o.seeds) {
                Workload w = workload(o, members, seed, err);
                if (!headerDone) {
                    out.println(SimulateReport.describe(o, w, network));
                    out.println();
                    out.println("| members | tasks | stealing | makespan | lower bound | efficiency | moved "
                            + "| requests (by rank) | empty | forwarded | messages per member, mean / max "
                            + "| bytes per member, mean / max | idle | steal latency median / p99 | reruns "
                            + "| refused by the gate | inputs sent / saved | cache misses / handed back "
                            + "| simulated in | seed |");
                    out.println("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
                            + "|---:|---:|---:|---:|");
                    headerDone = true;
                }
                long central = -1;
                if (o.central) {
                    long started = System.nanoTime();
                    central = CentralSchedule.makespan(w, members, o.slots, o.speeds);
                    if (!o.quiet) {
                        err.printf(Locale.ROOT, "central list schedule of %s on %,d slots: %s, in %.1f s%n",
                                w.name(), (long) members * o.slots, Units.nanos(central),
                                (System.nanoTime() - started) / 1e9);
                    }
                }
                for (boolean stealing : modes(o)) {
                    SimConfig c = config(o, members, seed, network, stealing, w);
                    if (!o.quiet) {
                        err.printf(Locale.ROOT, "simulating %s (%,d tasks) on %d members%s…%n", w.name(),
                                w.tasks(), members, stealing ? "" : " without stealing");
                    }
                    Simulator sim = new Simulator(w, c);
                    if (!o.quiet) {
                        sim.progress(Math.max(1, w.tasks() / 4), err::println);
                    }
                    SimResult r = sim.run();
                    SimulateReport.Row row = new SimulateReport.Row(stealing, r, seed, central, w.owners());
                    rows.add(row);
                    ofThisSize.add(row);
                    out.println(SimulateReport.tableRow(row));
                    if (c.hostCpu().on()) {
                        out.println(SimulateReport.hostCpuLine(r));
                    }
                    for (String note : r.notes()) {
                        out.println("note: " + note);
                    }
                }
                if (o.central) {
                    out.println(SimulateReport.centralLine(ofThisSize.getLast(), o.slots));
                }
            }
            if (o.seeds.size() > 1) {
                for (boolean stealing : modes(o)) {
                    out.println(SimulateReport.seedsLine(ofThisSize, stealing, o));
                }
            }
        }
        if (o.csv != null) {
            writeFile(o.csv, SimulateReport.csv(rows, network, o));
            if (!o.quiet) {
                err.println("wrote " + o.csv);
            }
        }
        if (o.plot != null) {
            writeFile(o.plot, SimulateReport.plot(rows, o));
            if (!o.quiet) {
                err.println("wrote " + o.plot);
            }
        }
        return 0;
    }

    /** The runs of each member count and seed: without stealing first with {@code --baseline}, then as asked. */
    private static List<Boolean> modes(SimulateOptions o) {
        return o.baseline && o.stealing() ? List.of(false, true) : List.of(o.stealing());
    }

    private static SimConfig config(SimulateOptions o, int members, long seed, Network network, boolean stealing,
            Workload w) {
        if (members < w.owners()) {
            throw new IllegalArgumentException("--members=" + members + ": the workload's tasks are owned by "
                    + w.owners() + " members; simulate at least that many");
        }
        return new SimConfig(members, o.slots, o.window, o.settings(), stealing, network, o.failAfter, o.events,
                o.inputCache, o.order, o.priorityLevels, seed, o.stolenOverflow, o.forgetAfter,
                o.randomEvery, o.hostCpu(), o.directories, o.speeds.withScaledLimits(o.scaleBySpeed)
                .withLearnedLimits(o.learnSpeeds));
    }

    /**
     * The workload for a run on {@code members} members: generated workloads spread over all of them, or over the
     * first {@code --owners} (the others are workers that live on stolen work).
     */
    private static Workload workload(SimulateOptions o, int all, long seed, PrintStream err) throws IOException {
        long started = System.nanoTime();
        int members = o.owners > 0 ? Math.min(o.owners, all) : all;
        Workload w = switch (o.workload) {
            case "bspgemm-tiles" -> Workloads.blockSparseTiles(o.tiles > 0 ? o.tiles
                    : Math.max(1, (int) Math.round(Math.sqrt(o.tasks))), o.density, o.skew, members, o.tileTime,
                    o.tileBytes, seed);
            case "bspgemm" -> Workloads.blockSparseGemm(o.tiles > 0 ? o.tiles
                    : Math.max(2, (int) Math.round(Math.cbrt(o.tasks / o.density))), o.density, o.skew, members,
                    o.tileTime, o.tileBytes, seed);
            case "gemm" -> Workloads.denseGemm(o.tiles > 0 ? o.tiles : Math.max(1, (int) Math.round(
                    Math.cbrt(o.tasks))), members, o.tileTime, o.tileBytes, seed);
            case "cholesky" -> Workloads.cholesky(o.tiles > 0 ? o.tiles : Math.max(1, (int) Math.round(
                    Math.cbrt(6.0 * o.tasks))), members, o.tileTime, o.tileBytes, seed);
            default -> trace(Path.of(o.workload.substring("trace:".length())), o.copies,
                    Math.min(all, o.copies), o.traceSlots);
        };
        if (!o.quiet) {
            err.printf(Locale.ROOT, "built %s in %.1f s%n", w, (System.nanoTime() - started) / 1e9);
        }
        return w;
    }

    private static Workload trace(Path file, int copies, int owners, int deviceSlots) throws IOException {
        try {
            return TraceReplay.read(file, copies, owners, deviceSlots);
        } catch (IOException e) {
            // A NoSuchFileException's message is the bare path.
            throw new IOException("could not read the trace " + file + ": " + (e instanceof NoSuchFileException
                    ? "no such file" : e.getMessage()), e);
        }
    }

    private static void writeFile(Path file, String text) throws IOException {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new IOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Entry point without the launcher. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }
}
