package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.Access;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ComputationalElement;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.Scheduler;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import dev.polygpu.runtime.Work;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * In-JVM cluster members on loopback for tests: each has its own CPU device (4 concurrent blocks), scheduler and
 * node, in a cluster of its own name so tests do not meet each other, on ports that were free when the cluster
 * was made ({@link FreePorts}) so that they do not meet another process's members either.
 */
final class Members implements AutoCloseable {
    /** Each thread sleeps {@code ms} milliseconds of device time, then out[i] = a[i] * k + i (written in full). */
    static final String SOURCE = """
            extern "C" __global__ void tile(const float* a, float* out, float k, int ms, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                for (int s = 0; s < ms; s++) __nanosleep(1000000);
                if (i < n) out[i] = a[i] * k + (float) i;
            }
            extern "C" __global__ void bump(int* x, int ms, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                for (int s = 0; s < ms; s++) __nanosleep(1000000);
                if (i < n) x[i] = x[i] * 3 + 1;
            }
            extern "C" __global__ void hold(int* flag, int* x, int n) {
                while (atomicAdd(flag, 0) == 0) __nanosleep(1000000);
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) x[i] += 1;
            }
            """;
    static final int N = 256;
    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    /** Ports every member of one {@code Members} lists (and listens on the first free one of). */
    private static final int PORTS = 8;

    /** One member. */
    static final class Member {
        /** The first of {@link #devices}: the arrays' own buffers are its, and the kernels are built on it. */
        final CpuDevice device;
        /** The member's devices; one unless made with several. */
        final List<CpuDevice> devices;
        final Scheduler scheduler;
        final ClusterNode node;
        final Module module;

        Member(ClusterConfig config) {
            this(config, SchedulerConfig.DEFAULT, null);
        }

        /** A member with its own scheduler settings, over {@code transports} (null: Hazelcast). */
        Member(ClusterConfig config, SchedulerConfig schedulerConfig, ClusterNode.TransportFactory transports) {
            this(config, schedulerConfig, transports, m -> { });
        }

        /** As above, {@code beforeJoining} submitting work to the scheduler before the node starts. */
        Member(ClusterConfig config, SchedulerConfig schedulerConfig, ClusterNode.TransportFactory transports,
                java.util.function.Consumer<Member> beforeJoining) {
            this(config, schedulerConfig, transports, 1, MultiDeviceConfig.DEFAULT, beforeJoining);
        }

        /**
         * A member with {@code deviceCount} CPU devices of 2 concurrent blocks each (one: a device of 4, as above),
         * standing in for GPUs, placed by {@code placement}.
         */
        Member(ClusterConfig config, SchedulerConfig schedulerConfig, ClusterNode.TransportFactory transports,
                int deviceCount, MultiDeviceConfig placement, java.util.function.Consumer<Member> beforeJoining) {
            List<CpuDevice> made = new ArrayList<>();
            if (deviceCount == 1) {
                made.add(new CpuDevice(4));
            } else {
                for (int i = 0; i < deviceCount; i++) {
                    made.add(new CpuDevice(i, 2, null));
                }
            }
            devices = List.copyOf(made);
            device = devices.get(0);
            // As the worker does: the configuration's stolen overflow reaches the scheduler.
            scheduler = new Scheduler(List.copyOf(devices), schedulerConfig.withStolenOverflow(
                    config.stolenOverflow()), placement);
            module = device.compile(SOURCE, "members.cu");
            beforeJoining.accept(this);
            node = transports == null ? ClusterNode.start(config, scheduler)
                    : ClusterNode.start(config, scheduler, transports);
        }

        TrackedArray floats(String name, float... values) {
            UnifiedBuffer b = device.allocate(4L * N);
            for (int i = 0; i < N; i++) {
                b.setFloat(i, i < values.length ? values[i] : 0f);
            }
            return scheduler.track(name, b, 4L * N);
        }

        TrackedArray ints(String name, int first) {
            UnifiedBuffer b = device.allocate(4L * N);
            for (int i = 0; i < N; i++) {
                b.setInt(i, first + i);
            }
            return scheduler.track(name, b, 4L * N);
        }

        /** out = a * k + i after {@code ms} ms of device time; {@code out} is write-only. */
        void tile(TrackedArray a, TrackedArray out, float k, int ms) {
            KernelArgs args = KernelArgs.builder().pointer(a.buffer()).pointer(out.buffer()).f32(k).i32(ms).i32(N)
                    .build();
            scheduler.submit(ComputationalElement.kernel("tile", List.of(new Access(a, AccessMode.READ),
                    new Access(out, AccessMode.WRITE)), new Work.Kernel(module.function("tile"),
                    LaunchConfig.of(2, N / 2), args, new KernelSource(SOURCE, "tile", "tile(in a: float, out o: "
                    + "float, k: float, ms: sint32, n: sint32)")), null));
        }

        /** x = x * 3 + 1 after {@code ms} ms; reads and writes x. */
        void bump(TrackedArray x, int ms) {
            KernelArgs args = KernelArgs.builder().pointer(x.buffer()).i32(ms).i32(N).build();
            scheduler.submit(ComputationalElement.kernel("bump", List.of(new Access(x, AccessMode.READ_WRITE)),
                    new Work.Kernel(module.function("bump"), LaunchConfig.of(1, N), args, new KernelSource(SOURCE,
                    "bump", "bump(inout x: sint32, ms: sint32, n: sint32)")), null));
        }

        /**
         * x += 1 once {@code flag} (an untracked int the test sets) is non-zero, sleeping 1 ms between looks; one
         * block. Without a kernel source: it is never given to another member.
         */
        void hold(UnifiedBuffer flag, TrackedArray x) {
            KernelArgs args = KernelArgs.builder().pointer(flag).pointer(x.buffer()).i32(N).build();
            scheduler.submit(ComputationalElement.kernel("hold", List.of(new Access(x, AccessMode.READ_WRITE)),
                    new Work.Kernel(module.function("hold"), LaunchConfig.of(1, N), args, null), null));
        }

        void close() {
            try {
                node.close();
            } finally {
                scheduler.close();
                devices.forEach(CpuDevice::close);
            }
        }
    }

    /** Tiles out_j = a_j * k + i with a_j[i] = i + j: exact in float, so the expected values are exact. */
    static final class Tiles {
        final List<TrackedArray> outs = new ArrayList<>();
        final List<TrackedArray> ins = new ArrayList<>();
        final float k;

        Tiles(Member p, int count, float k, int ms) {
            this.k = k;
            for (int j = 0; j < count; j++) {
                float[] a = new float[Members.N];
                for (int i = 0; i < a.length; i++) {
                    a[i] = i + j;
                }
                TrackedArray in = p.floats("a" + j, a);
                ins.add(in);
                TrackedArray out = p.floats("out" + j);
                p.tile(in, out, k, ms);
                outs.add(out);
            }
        }

        void check() {
            for (int j = 0; j < outs.size(); j++) {
                TrackedArray out = outs.get(j);
                for (int i = 0; i < Members.N; i++) {
                    float expected = (i + j) * k + i;
                    assertEquals(expected, out.buffer().getFloat(i), "out" + j + "[" + i + "]");
                }
            }
        }
    }

    private final String name = "test-" + ProcessHandle.current().pid() + "-" + CLUSTERS.incrementAndGet();
    private final List<Member> all = new ArrayList<>();
    /** The first of {@link #PORTS} ports that were free when this cluster was made. */
    private final int basePort = FreePorts.block(PORTS);

    ClusterConfig config(ClusterConfig.Role role) {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < PORTS; i++) {
            addresses.add("127.0.0.1:" + (basePort + i));
        }
        return ClusterConfig.loopback().withName(name).withMembers(addresses).withPort(basePort).withRole(role)
                .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(3)).withHoldInterval(Duration.ofMillis(100));
    }

    Member program() {
        return add(new Member(config(ClusterConfig.Role.PROGRAM)));
    }

    /** A worker as {@code polygpu worker} makes one: it warms up before it asks for work. */
    Member worker() {
        return add(new Member(config(ClusterConfig.Role.WORKER).withWarmUp(true)));
    }

    Member add(Member m) {
        all.add(m);
        return m;
    }

    /** Waits until every live member sees {@code n} members. */
    void awaitSize(int n, List<Member> live) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        for (Member m : live) {
            while (m.node.peers().size() + 1 != n) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("members did not see " + n + " members in 30 s: "
                            + (m.node.peers().size() + 1));
                }
                Thread.sleep(20);
            }
        }
    }

    @Override
    public void close() {
        for (Member m : all) {
            try {
                m.close();
            } catch (RuntimeException e) {
                // Already gone (crashed in the test).
            }
        }
    }
}
