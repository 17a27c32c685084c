package dev.polygpu.cluster;

import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.cuda.CudaProbe;
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * {@code polygpu worker}: a member with a device and no program, living on stolen work until it is stopped
 * (SIGINT/SIGTERM: a graceful leave, finishing what it holds) or, with {@code --for}, for a fixed time.
 */
public final class Worker {
    private Worker() {
    }

    /** Runs a worker with its command line ({@link WorkerCommand}); returns the process exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return WorkerCommand.run(args, out, err);
    }

    /** The most devices a worker runs on: the most a scheduler does. */
    static final int MAX_DEVICES = 63;

    static Device newCpuDevice(int cpuBlocks) {
        return cpuBlocks > 0 ? new CpuDevice(cpuBlocks) : new CpuDevice();
    }

    /**
     * {@code count} CPU devices: one as {@link #newCpuDevice}, or several standing in for GPUs, each with its own
     * memory and {@code cpuBlocks} blocks at once (0: its share of the processors), as {@code grcuda.NumberOfGPUs}
     * makes them.
     */
    static List<Device> newCpuDevices(int count, int cpuBlocks) {
        if (count == 1) {
            return List.of(newCpuDevice(cpuBlocks));
        }
        int blocks = cpuBlocks > 0 ? cpuBlocks : Math.max(1, CpuDevice.defaultConcurrentBlocks() / count);
        List<Device> made = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                made.add(new CpuDevice(i, blocks, null));
            }
        } catch (RuntimeException e) {
            made.forEach(Device::close);
            throw e;
        }
        return List.copyOf(made);
    }

    /**
     * CUDA device 0 when one can be used and opens (one: a worker runs on one GPU so far, which it says when
     * {@code count} asks for more), else {@code count} CPU devices, saying why on {@code err}.
     */
    static List<Device> autoDevices(int count, int cpuBlocks, PrintStream err) {
        CudaProbe.Result probe = CudaProbe.result();
        String why = "no GPU (" + probe.reason() + ")";
        if (probe.usable()) {
            try {
                Device gpu = CudaDevice.open(0);
                if (count > 1) {
                    err.println("polygpu worker: --devices=" + count + ", but a worker runs on one GPU so far: using "
                            + "1 (--device=cpu runs " + count + " CPU devices)");
                }
                return List.of(gpu);
            } catch (DeviceException e) {
                why = "CUDA device 0 could not be opened (" + e.getMessage() + ")";
            }
        }
        err.println("polygpu worker: running stolen kernels on " + (count == 1 ? "the CPU device"
                : count + " CPU devices") + ": " + why);
        return newCpuDevices(count, cpuBlocks);
    }

    /**
     * How the worker's lines name its devices: {@code cpu device 0}, or {@code 2 cpu devices, device selection
     * round-robin}.
     */
    static String describe(List<Device> devices, MultiDeviceConfig placement) {
        Device first = devices.get(0);
        return devices.size() == 1 ? first.backend() + " device " + first.ordinal()
                : devices.size() + " " + first.backend() + " devices, device selection "
                + placement.policy().spelling();
    }

    /** CUDA device 0; IllegalArgumentException with the probe's reason when no GPU can be used. */
    static Device openCuda() {
        try {
            return CudaDevice.open(0);
        } catch (DeviceException e) {
            throw new IllegalArgumentException("--device=cuda: " + e.getMessage() + "; use --device=cpu", e);
        }
    }

    /**
     * The members of the cluster a worker just joined, as its first line says them. A worker alone is the first
     * member of its cluster: expected where its own address is among those it was told to join (it is the one
     * the others will find), and otherwise most likely a mistake (a wrong port or host in {@code --join}, or the
     * member it should join not started yet), so the line says what happened and where others can find it. A
     * worker that took its port from {@code --join} ({@link JoinPort}) says so too.
     *
     * @param members       the cluster's members now, this one included
     * @param self          the address this worker listens on ({@code host:port}), or null if unknown
     * @param listed        the {@code --join} addresses
     * @param portFromJoin  whether the worker was given no {@code --port} and listens at the first free address of
     *                      {@code listed} on this machine
     */
    static String membersNow(int members, String self, List<String> listed, boolean portFromJoin) {
        if (self == null || listed.isEmpty()) {
            return members > 1 ? members + " members" : "1 member so far";
        }
        List<String> others = new ArrayList<>();
        for (String m : listed) {
            if (!resolved(m).equals(self)) {
                others.add(m);
            }
        }
        boolean listedSelf = others.size() < listed.size();
        String taken = self + ", the first free address of --join";
        if (members > 1) {
            return members + " members" + (portFromJoin && listedSelf ? "; it listens at " + taken : "");
        }
        if (!listedSelf) {
            return "1 member so far: no member answered at " + String.join(",", listed) + ", so this worker started a "
                    + "cluster of its own at " + self + "; members that list " + self + " join it";
        }
        if (!portFromJoin) {
            return "1 member so far";
        }
        return "1 member so far: " + (others.isEmpty() ? "" : "no member answered at " + String.join(",", others)
                + ", so ") + "this worker started a cluster of its own at " + taken + "; members that list " + self
                + " join it";
    }

    /** A {@code --join} address with its host as an IP address, or as written when the host is unknown. */
    private static String resolved(String member) {
        try {
            return HazelcastTransport.resolvedMember(member);
        } catch (IllegalArgumentException e) {
            return member;
        }
    }

    /**
     * {@code --check}: the warm-up's test kernel on each of {@code devices} in turn ({@link Warmup}), without
     * Hazelcast (the cluster classes it needs do not touch it, so this runs where Hazelcast is not on the class
     * path); the first device that fails ends the check.
     */
    static int check(ClusterConfig config, List<Device> devices, PrintStream out, PrintStream err) {
        try {
            for (Device device : devices) {
                Scheduler scheduler = new Scheduler(device, SchedulerConfig.DEFAULT);
                try {
                    long nanos = Warmup.run(scheduler, source -> KernelCache.build(device, source), config.key(),
                            config.maxFrameBytes());
                    out.printf(Locale.ROOT, "polygpu worker: %s device %d (%s) ran the test kernel correctly in "
                            + "%.0f ms (compiling included); --check joins nothing%n", device.backend(),
                            device.ordinal(), device.properties().name(), nanos / 1e6);
                } catch (Warmup.Failed e) {
                    err.println("polygpu worker: the check failed" + (devices.size() == 1 ? "" : " on "
                            + device.backend() + " device " + device.ordinal()) + ": " + e.getMessage());
                    return 1;
                } finally {
                    scheduler.close();
                }
            }
            return 0;
        } finally {
            devices.forEach(Device::close);
        }
    }

    static int serve(ClusterConfig config, List<Device> devices, MultiDeviceConfig placement, int window,
            Duration statsEvery, Duration runFor, boolean portFromJoin, PrintStream out, PrintStream err) {
        Device device = devices.get(0);
        Scheduler scheduler = new Scheduler(devices,
                SchedulerConfig.DEFAULT.withStolenOverflow(config.stolenOverflow()).withInFlightWindow(window),
                placement);
        ClusterNode node;
        try {
            node = ClusterNode.start(config, scheduler);
        } catch (Warmup.Failed e) {
            scheduler.close();
            devices.forEach(Device::close);
            err.println("polygpu worker: did not join: before joining, a worker runs a test kernel on its "
                    + device.backend() + " device, and " + e.getMessage() + " (--device=cpu runs stolen kernels "
                    + "on the CPU device instead)");
            return 1;
        } catch (RuntimeException e) {
            scheduler.close();
            devices.forEach(Device::close);
            err.println("polygpu worker: could not join the cluster: " + e.getMessage() + " (a worker listens on "
                    + "--bind, from --port up; the members it joins must share --cluster-name and the secret)");
            return 1;
        }
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch left = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                left.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "polygpu-worker-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("polygpu worker " + node.memberId() + " joined cluster '" + config.clusterName() + "' with "
                + describe(devices, placement) + " (" + membersNow(node.peers().size() + 1,
                node.address(), config.members(), portFromJoin) + ")" + (node.warmUpNanos() < 0 ? ""
                : String.format(Locale.ROOT, "; its test kernel ran correctly in %.0f ms", node.warmUpNanos() / 1e6))
                + "; stop with Ctrl-C");
        out.flush();
        try {
            long end = runFor == null ? Long.MAX_VALUE : System.nanoTime() + runFor.toNanos();
            long every = statsEvery == null ? Long.MAX_VALUE : statsEvery.toNanos();
            long next = statsEvery == null ? Long.MAX_VALUE : System.nanoTime() + every;
            while (true) {
                long now = System.nanoTime();
                long wait = Math.min(end, next) - now;
                if (wait <= 0) {
                    if (now >= end) {
                        break;
                    }
                    out.print(node.stats().table());
                    out.flush();
                    next = now + every;
                    continue;
                }
                if (stop.await(Math.min(wait, 1_000_000_000L), java.util.concurrent.TimeUnit.NANOSECONDS)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                out.println("polygpu worker " + node.memberId() + " leaving: finishing the work it holds");
                node.close();
                out.print(node.stats().table());
                out.flush();
                scheduler.close();
                devices.forEach(Device::close);
            } finally {
                // Even when leaving failed: the shutdown hook waits for this, and the process must end.
                left.countDown();
                if (runFor != null) {
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException e) {
                        // Already shutting down.
                    }
                }
            }
        }
        return 0;
    }

    /** Entry point for running a worker without the launcher (benchmarks start it so). */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }
}
