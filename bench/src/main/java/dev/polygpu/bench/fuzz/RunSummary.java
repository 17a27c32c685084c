package dev.polygpu.bench.fuzz;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The summary file of a campaign split over several runs ({@code --summary FILE}): one JSON object per line,
 * one line per run, appended when the run ends. {@code --resume} starts where the runs of the same seed, profile
 * and mode stopped, and every run prints the totals of those runs, so 100,000 kernels can be checked a few
 * thousand at a time.
 */
final class RunSummary {
    /** One run: which cases (first inclusive, end exclusive), what came of them, how long it took, what it found. */
    record Entry(long seed, String profile, boolean invalid, long first, long end, Map<String, Integer> results,
            int unexplained, double seconds, double loadAverage, List<Long> findings, String finished) {
        boolean sameCampaign(long seed, String profile, boolean invalid) {
            return this.seed == seed && this.profile.equals(profile) && this.invalid == invalid;
        }
    }

    /** One entry per line: not indented. */
    private static final Gson LINE = new GsonBuilder().disableHtmlEscaping().create();

    private RunSummary() {
    }

    /** The system load average over the last minute, or -1 where the platform has none. */
    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** An entry for a run that ends now. */
    static Entry entry(FuzzArgs a, String profile, Map<String, Integer> results, int unexplained, double seconds,
            List<Long> findings) {
        long[] r = a.range();
        return new Entry(a.seed(), profile, a.invalid(), r[0], r[1], results, unexplained, seconds, loadAverage(),
                findings, Instant.now().toString());
    }

    /** Appends {@code e} to {@code file} as one line. */
    static void append(Path file, Entry e) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.writeString(file, LINE.toJson(e) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException x) {
            throw new UncheckedIOException("cannot append to the summary " + file + ": " + x.getMessage(), x);
        }
    }

    /** The entries of {@code file} (none when it does not exist yet). */
    static List<Entry> read(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<Entry> entries = new ArrayList<>();
        try {
            int n = 0;
            for (String line : Files.readAllLines(file)) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    entries.add(LINE.fromJson(line, Entry.class));
                } catch (JsonParseException e) {
                    throw new IllegalArgumentException(file + ":" + n + " is not a run summary line: "
                            + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the summary " + file + ": " + e.getMessage(), e);
        }
        return entries;
    }

    /** Where a resumed run of this campaign starts: the furthest case its recorded runs reached, or 0. */
    static long resumeFrom(List<Entry> entries, long seed, String profile, boolean invalid) {
        long end = 0;
        for (Entry e : entries) {
            if (e.sameCampaign(seed, profile, invalid)) {
                end = Math.max(end, e.end());
            }
        }
        return end;
    }

    /**
     * The totals of a campaign's runs: kernels, cases covered (ranges merged, gaps named), unexplained results,
     * findings, seconds and kernels per minute.
     */
    static String totals(List<Entry> entries, long seed, String profile, boolean invalid) {
        List<Entry> mine = entries.stream().filter(e -> e.sameCampaign(seed, profile, invalid))
                .sorted(Comparator.comparingLong(Entry::first)).toList();
        long kernels = 0;
        long unexplained = 0;
        long findings = 0;
        double seconds = 0;
        long covered = 0;
        long reach = 0;
        List<String> gaps = new ArrayList<>();
        for (Entry e : mine) {
            kernels += e.end() - e.first();
            unexplained += e.unexplained();
            findings += e.findings().size();
            seconds += e.seconds();
            if (e.first() > reach) {
                gaps.add(reach + "-" + (e.first() - 1));
            }
            covered += Math.max(0, e.end() - Math.max(e.first(), reach));
            reach = Math.max(reach, e.end());
        }
        return String.format(Locale.ROOT, "campaign seed %d, profile '%s'%s: %d runs, %d kernels, cases 0-%d (%d "
                + "covered%s), %d unexplained, %d findings written, %.0f s (%.1f/minute)", seed, profile,
                invalid ? ", --invalid" : "", mine.size(), kernels, reach - 1, covered,
                gaps.isEmpty() ? "" : "; gaps " + String.join(", ", gaps), unexplained, findings, seconds,
                seconds > 0 ? kernels * 60 / seconds : 0.0);
    }
}
