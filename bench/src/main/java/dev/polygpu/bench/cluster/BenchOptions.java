package dev.polygpu.bench.cluster;

import static dev.polygpu.bench.BenchArgs.number;
import static dev.polygpu.bench.BenchArgs.value;

import java.io.PrintStream;

/**
 * The options of {@code bench/cluster}, parsed and checked once.
 *
 * @param tiles         T: A, B and C are T × T grids of tiles
 * @param tileSize      a tile is tileSize × tileSize floats (one thread per element)
 * @param zeroFraction  the share of A's tiles that are zero
 * @param seed          the sparsity pattern's and the values' seed
 * @param msPerProduct  device time (sleep) per tile product, in ms
 * @param cpuBlocks     concurrent blocks of every member's CPU device
 * @param kernelBlocks  blocks per kernel launch (each block sleeps the kernel's whole time)
 * @param workers       worker processes besides the program's member
 * @param warmup        untimed runs per configuration, at least
 * @param warmupMillis  and untimed runs until this much time has passed in them: every member's JIT compiler
 *                      busy through the measured runs is what the members wait for on two cores
 * @param reps          measured runs per configuration
 * @param joinReps      join-to-work measurements (a late worker each)
 * @param threshold     steal threshold on every member, 0 = the cluster's default
 * @param chunk         most kernels per steal reply on every member, 0 = the cluster's default
 * @param inputCache    the input cache of every member in bytes ({@code ClusterConfig.inputCacheBytes}), -1 = the
 *                      cluster's default
 * @param port          the first port to look for a free one from
 * @param join          whether to measure join-to-work
 * @param bColumns      each kernel reads only B's tile column j instead of all of B
 * @param trace         print every kernel's placement and times of every run on stderr
 * @param chromeTraces  null, or a folder where the last measured run of each configuration is written as a
 *                      Chrome trace (the program's scheduler), for {@code polygpu simulate --workload=trace:FILE}
 * @param oldPolicies   every member runs without the five policies of issue #7 (stolen overflow, random
 *                      requests, rank chunk 1, directories, pushed continuations), as the defaults were before
 * @param noWake        the program does not wake the thieves it sent away ({@code ClusterConfig.wakeThieves})
 * @param noLearn       no member learns its speed ({@code ClusterConfig.learnSpeeds}): thresholds and windows
 *                      stay as configured
 */
record BenchOptions(int tiles, int tileSize, double zeroFraction, long seed, int msPerProduct, int cpuBlocks,
        int kernelBlocks, int workers, int warmup, long warmupMillis, int reps, int joinReps, int threshold, int chunk,
        long inputCache, int port, boolean join, boolean makespans, boolean warmUp, boolean bColumns, boolean trace,
        java.nio.file.Path chromeTraces, boolean oldPolicies, boolean noWake, boolean noLearn) {

    static final long DEFAULT_SEED = 8;
    static final double DEFAULT_WARMUP_SECONDS = 4;

    BenchOptions {
        if (tileSize % kernelBlocks != 0 || (long) tileSize * tileSize / kernelBlocks > 1024) {
            throw new IllegalArgumentException("a block is tile-size x (tile-size / kernel-blocks) threads: tile size "
                    + tileSize + " must be a multiple of --kernel-blocks " + kernelBlocks + " and a block at most 1024"
                    + " threads");
        }
        if (cpuBlocks % kernelBlocks != 0) {
            throw new IllegalArgumentException("--cpu-blocks " + cpuBlocks + " must be a multiple of --kernel-blocks "
                    + kernelBlocks + " (so that a member runs a whole number of kernels at once)");
        }
    }

    /** Kernels one member runs at once. */
    int slotsPerMember() {
        return cpuBlocks / kernelBlocks;
    }

    static void usage(PrintStream s) {
        s.println("usage: bench/cluster [--quick] [options]");
        s.println("  --quick              a smoke run: 2 ms per product, 1 warm-up + 3 runs, 1 join measurement");
        s.println("  --tiles T            T x T tiles (default 8)");
        s.println("  --tile-size S        S x S floats per tile, one thread each (default 32)");
        s.println("  --zero-fraction F    share of A's tiles that are zero (default 0.5)");
        s.println("  --seed N             sparsity and values (default " + DEFAULT_SEED + ")");
        s.println("  --ms-per-product M   device time per tile product (default 4; --quick 2)");
        s.println("  --cpu-blocks N       concurrent blocks of every member's CPU device (default 2)");
        s.println("  --kernel-blocks N    blocks per kernel (default 1)");
        s.println("  --workers N          worker processes besides the program (default 3)");
        s.println("  --warmup N           at least N untimed runs per configuration (default 3; --quick 1)");
        s.println("  --warmup-time S      and untimed runs until S seconds have passed in them (default 4; --quick 0)");
        s.println("  --reps N             measured runs per configuration (default 20; --quick 3)");
        s.println("  --join-reps N        join-to-work measurements (default 3; --quick 1)");
        s.println("  --no-join            skip the join-to-work measurement");
        s.println("  --old-policies       every member without the five policies of issue #7 (the defaults before them)");
        s.println("  --no-wake            the program does not wake the thieves it sent away when it has work again");
        s.println("  --no-learn           no member learns its speed (thresholds and windows stay as configured)");
        s.println("  --join-only          only the join-to-work measurement (no makespans)");
        s.println("  --no-warm-up         workers skip their warm-up (worker --warm-up=false)");
        s.println("  --threshold N        steal threshold on every member (default: the cluster's, window + 2)");
        s.println("  --chunk N            most kernels per steal reply on every member (default: window / 2)");
        s.println("  --input-cache SIZE   every member's input cache (default: the cluster's, 256MB; 0: off)");
        s.println("  --port P             look for free ports from P (default 18200)");
        s.println("  --b-columns          each kernel reads only B's tile column j (T tiles), not all of B");
        s.println("  --trace              every kernel of every run on stderr: where, when taken, started, ended");
        s.println("  --chrome-trace DIR   write the last measured run of each configuration as a Chrome trace in DIR");
        s.println("                       (the program's schedule; polygpu simulate --workload=trace:FILE replays it)");
    }

    static BenchOptions parse(String[] args) {
        boolean quick = false;
        Integer msPerProduct = null;
        Integer reps = null;
        Integer joinReps = null;
        int tiles = 8;
        int tileSize = 32;
        double zeroFraction = 0.5;
        long seed = DEFAULT_SEED;
        int cpuBlocks = 2;
        int kernelBlocks = 1;
        int workers = 3;
        Integer warmup = null;
        Double warmupSeconds = null;
        int threshold = 0;
        int chunk = 0;
        boolean oldPolicies = false;
        boolean noWake = false;
        boolean noLearn = false;
        long inputCache = -1;
        int port = 18200;
        boolean join = true;
        boolean makespans = true;
        boolean warmUp = true;
        boolean trace = false;
        boolean bColumns = false;
        java.nio.file.Path chromeTraces = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--tiles" -> tiles = number(args, ++i, 1);
                case "--tile-size" -> tileSize = number(args, ++i, 1);
                case "--zero-fraction" -> zeroFraction = fraction(args, ++i);
                case "--seed" -> seed = longNumber(args, ++i);
                case "--ms-per-product" -> msPerProduct = number(args, ++i, 1);
                case "--cpu-blocks" -> cpuBlocks = number(args, ++i, 1);
                case "--kernel-blocks" -> kernelBlocks = number(args, ++i, 1);
                case "--workers" -> workers = number(args, ++i, 1);
                case "--warmup" -> warmup = number(args, ++i, 0);
                case "--warmup-time" -> warmupSeconds = seconds(args, ++i);
                case "--reps" -> reps = number(args, ++i, 1);
                case "--join-reps" -> joinReps = number(args, ++i, 1);
                case "--no-join" -> join = false;
                case "--old-policies" -> oldPolicies = true;
                case "--no-wake" -> noWake = true;
                case "--no-learn" -> noLearn = true;
                case "--join-only" -> makespans = false;
                case "--no-warm-up" -> warmUp = false;
                case "--trace" -> trace = true;
                case "--chrome-trace" -> chromeTraces = java.nio.file.Path.of(value(args, ++i));
                case "--b-columns" -> bColumns = true;
                case "--threshold" -> threshold = number(args, ++i, 1);
                case "--chunk" -> chunk = number(args, ++i, 1);
                case "--input-cache" -> inputCache = size(args, ++i);
                case "--port" -> port = number(args, ++i, 1024);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (!join && !makespans) {
            throw new IllegalArgumentException("--no-join and --join-only leave nothing to measure");
        }
        if (port > 65535 - 1000) {
            throw new IllegalArgumentException("--port must leave room for 1000 ports above it, got " + port);
        }
        return new BenchOptions(tiles, tileSize, zeroFraction, seed, msPerProduct != null ? msPerProduct
                : quick ? 2 : 4, cpuBlocks, kernelBlocks, workers, warmup != null ? warmup : quick ? 1 : 3,
                Math.round(1000 * (warmupSeconds != null ? warmupSeconds : quick ? 0 : DEFAULT_WARMUP_SECONDS)),
                reps != null ? reps : quick ? 3 : 20,
                joinReps != null ? joinReps : quick ? 1 : 3, threshold, chunk, inputCache, port, join, makespans, warmUp,
                bColumns, trace,
                chromeTraces, oldPolicies, noWake, noLearn);
    }

    private static long size(String[] args, int i) {
        String v = value(args, i);
        try {
            return dev.polygpu.cluster.ClusterConfig.parseSize(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(args[i - 1] + ": " + e.getMessage());
        }
    }

    private static double seconds(String[] args, int i) {
        String v = value(args, i);
        try {
            double s = Double.parseDouble(v);
            if (s >= 0 && s <= 3600) {
                return s;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(args[i - 1] + " needs seconds from 0 to 3600, got " + v);
    }

    private static long longNumber(String[] args, int i) {
        String v = value(args, i);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(args[i - 1] + " needs an integer, got " + v);
        }
    }

    private static double fraction(String[] args, int i) {
        String v = value(args, i);
        try {
            double f = Double.parseDouble(v);
            if (f >= 0 && f < 1) {
                return f;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new IllegalArgumentException(args[i - 1] + " needs a number in [0, 1), got " + v);
    }
}
