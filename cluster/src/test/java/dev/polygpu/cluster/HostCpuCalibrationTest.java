package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Digest;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WireCodec;
import dev.polygpu.cluster.wire.WireException;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Measures the host CPU time a member spends on one message, for the simulator's host CPU model
 * ({@code polygpu simulate --host-cpu-per-message --host-cpu-per-byte}, docs/simulator.md): not a check, a
 * calibration that prints its figures. Run it alone:
 * <pre>
 * ./build -q test -pl cluster -Pslow -Dtest=HostCpuCalibrationTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Two parts, both with the real code and warm (after a warm-up of the same work):
 * <ul>
 *   <li><b>Packing and unpacking</b>, on one thread, timed with its CPU time ({@link ThreadMXBean}). The
 *       sender's side of a reply is what {@code VictimSide.give} and {@code NodeContext.send} do: each input array's
 *       digest and copy out of its buffer, then {@link WireCodec#encode} (sizing, copying, HMAC-SHA256); of a
 *       result, the copy of its output and the encoding. The receiver's side is {@link WireCodec#decode} (HMAC,
 *       parsing, copying) and, for each array, a CPU device buffer allocated and filled as
 *       {@code StolenElements.localArray} does (freed again, as the node does when the element is done).</li>
 *   <li><b>The transport</b>: two {@link HazelcastTransport}s in this JVM on loopback; frames of each size go
 *       one at a time from one to the other (the next once the last arrived), and the process's CPU time
 *       (every thread, both members: Hazelcast's I/O, event and GC threads) less what the same two members
 *       spend idle over as long is the cost of both ends; half is charged to each.</li>
 * </ul>
 * A line a + b x bytes is fitted to each side by least squares; what the simulator takes per message handled
 * (sent or received) is the mean of the two sides plus half the transport.
 */
@Tag("slow")
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostCpuCalibrationTest {

    /** Payload sizes of a reply (its input bytes, over two work items as a reply of bench/cluster). */
    private static final int[] REPLY_BYTES = {4 << 10, 48 << 10, 96 << 10, 272 << 10, 550 << 10};
    /** The output of a result: one 32 x 32 float tile, as bench/cluster's. */
    private static final int RESULT_BYTES = 4 << 10;
    private static final String MEMBER = "0f9e4c1a-5b7d-4c3e-9a21-6d8f0b2e7c54";
    private static final SharedSecret KEY = SharedSecret.loopbackDefault("calibration");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String SOURCE = "extern \"C\" __global__ void bspgemm(const float* a, const int* ks, "
            + "const float* b, float* c, int nnz, int bk, int bj, int ms) { /* " + "x".repeat(700) + " */ }";

    /** One message shape: its name, payload bytes and what each side does with it. */
    private record Shape(String name, long payload, Sender send, Side receive) {
    }

    /** The sender's work on one message: the frame it makes. */
    @FunctionalInterface
    private interface Sender {
        byte[] frame();
    }

    /** One side's work on one message; returns something that depends on all of it. */
    @FunctionalInterface
    private interface Side {
        long run() throws WireException;
    }

    @Test
    void hostCpuPerMessageAndPerByte() throws Exception {
        assertTrue(THREADS.isCurrentThreadCpuTimeSupported(), "this JVM measures no thread CPU time");
        THREADS.setThreadCpuTimeEnabled(true);
        List<Shape> shapes = new ArrayList<>();
        try (CpuDevice device = new CpuDevice(1)) {
            shapes.add(request());
            shapes.add(result(device));
            for (int bytes : REPLY_BYTES) {
                shapes.add(reply(device, bytes));
            }
            System.out.println("Host CPU per message, packing and unpacking (one thread, warm), load "
                    + load() + ":");
            System.out.println("| message | payload | frame | sender, us (median of 9) | receiver, us |");
            System.out.println("|---|---:|---:|---:|---:|");
            double[] xs = new double[shapes.size()];
            double[] send = new double[shapes.size()];
            double[] receive = new double[shapes.size()];
            for (int i = 0; i < shapes.size(); i++) {
                Shape s = shapes.get(i);
                int reps = (int) Math.max(20, Math.min(4000, 40_000_000L / (s.payload + 2_000)));
                send[i] = cpuNanosPerCall(() -> s.send.frame().length, reps);
                receive[i] = cpuNanosPerCall(s.receive, reps);
                xs[i] = s.payload;
                System.out.printf(Locale.ROOT, "| %s | %,d B | %,d B | %.1f | %.1f |%n", s.name, s.payload,
                        frameBytes(s), send[i] / 1e3, receive[i] / 1e3);
            }
            double[] sendFit = fit(xs, send);
            double[] receiveFit = fit(xs, receive);
            System.out.printf(Locale.ROOT, "sender:   %.1f us per message + %.3f ns per byte (%.2f us per KB)%n",
                    sendFit[0] / 1e3, sendFit[1], sendFit[1] * 1024 / 1e3);
            System.out.printf(Locale.ROOT, "receiver: %.1f us per message + %.3f ns per byte (%.2f us per KB)%n",
                    receiveFit[0] / 1e3, receiveFit[1], receiveFit[1] * 1024 / 1e3);
            System.out.printf(Locale.ROOT, "of the sender's, the digest (only with the input cache on): %.3f ns per "
                    + "byte%n", digestNanosPerByte(device));

            double[] transport = transport(shapes);
            System.out.printf(Locale.ROOT, "transport, both ends: %.1f us per message + %.3f ns per byte%n",
                    transport[0] / 1e3, transport[1]);
            double perMessage = (sendFit[0] + receiveFit[0]) / 2 + transport[0] / 2;
            double perByte = (sendFit[1] + receiveFit[1]) / 2 + transport[1] / 2;
            System.out.printf(Locale.ROOT, "per message handled (sent or received): %.1f us + %.3f ns per byte: "
                    + "--host-cpu-per-message=%.0fus --host-cpu-per-byte=%.2f%n", perMessage / 1e3, perByte,
                    perMessage / 1e3, perByte);
            assertTrue(perMessage > 0 && perByte > 0, "a message costs something");
        }
    }

    // ---- the messages -----------------------------------------------------------------------------------------

    private static Shape request() {
        Sender send = () -> WireCodec.encode(new StealRequest(MEMBER, 42, MEMBER, 0, 2, 0), KEY);
        byte[] frame = send.frame();
        return new Shape("steal request", 0, send, () -> ((StealRequest) WireCodec.decode(frame, KEY,
                WireCodec.DEFAULT_MAX_FRAME_BYTES)).requestId());
    }

    /** A result with one output tile: the thief copies it out and encodes; the owner decodes and copies it in. */
    private static Shape result(CpuDevice device) {
        UnifiedBuffer out = filled(device, RESULT_BYTES, 7);
        UnifiedBuffer home = device.allocate(RESULT_BYTES);
        Sender send = () -> {
            byte[] data = out.hostView().asSlice(0, RESULT_BYTES).toArray(ValueLayout.JAVA_BYTE);
            return WireCodec.encode(new WorkResult(MEMBER, 1, 1, true, null, 1_000, 20_000_000,
                    List.of(new ArrayData(3, 0, data))), KEY);
        };
        // Encoding is canonical: the sender makes this frame every time.
        byte[] frame = send.frame();
        Side receive = () -> {
            WorkResult r = (WorkResult) WireCodec.decode(frame, KEY, WireCodec.DEFAULT_MAX_FRAME_BYTES);
            byte[] data = r.outputs().getFirst().bytes();
            MemorySegment.copy(data, 0, home.hostView(), ValueLayout.JAVA_BYTE, 0, data.length);
            return data.length;
        };
        return new Shape("work result", RESULT_BYTES, send, receive);
    }

    /**
     * A reply of two work items whose inputs hold {@code bytes} in all (one array each): the victim digests and
     * copies each array and encodes; the thief decodes and puts each array in a device buffer of its own.
     */
    private static Shape reply(CpuDevice device, int bytes) {
        int each = bytes / 2;
        UnifiedBuffer[] arrays = {filled(device, each, 1), filled(device, each, 2)};
        Sender send = () -> {
            List<WorkItem> items = new ArrayList<>();
            for (int i = 0; i < arrays.length; i++) {
                MemorySegment view = arrays[i].hostView().asSlice(0, each);
                Digest digest = Digest.of(view);
                byte[] data = view.toArray(ValueLayout.JAVA_BYTE);
                items.add(new WorkItem(i, 1, element(i, each), List.of(new ArrayData(i, 0, data, digest)), 3));
            }
            return WireCodec.encode(new StealReply(MEMBER, 42, items), KEY);
        };
        // Encoding is canonical: the sender makes this frame every time.
        byte[] frame = send.frame();
        Side receive = () -> {
            StealReply r = (StealReply) WireCodec.decode(frame, KEY, WireCodec.DEFAULT_MAX_FRAME_BYTES);
            long sum = 0;
            for (WorkItem item : r.items()) {
                for (ArrayData d : item.inputs()) {
                    UnifiedBuffer b = device.allocate(d.bytes().length);
                    MemorySegment.copy(d.bytes(), 0, b.hostView(), ValueLayout.JAVA_BYTE, 0, d.bytes().length);
                    sum += b.hostView().get(ValueLayout.JAVA_BYTE, d.bytes().length - 1);
                    b.free();
                }
            }
            return sum;
        };
        return new Shape("steal reply, 2 items", bytes, send, receive);
    }

    private static ElementMessage element(long id, long bytes) {
        return new ElementMessage(100 + id, ElementKind.KERNEL, "bspgemm", new KernelSource(SOURCE, "bspgemm",
                "bspgemm(a: in pointer float, ks: in pointer sint32, b: in pointer float, c: out pointer float, "
                        + "nnz: sint32, bk: sint32, bj: sint32, ms: sint32)"), new int[] {1, 1, 1},
                new int[] {32, 32, 1}, 0, 0, List.of(new ElementMessage.ArrayArg(id, bytes, 0, AccessMode.READ),
                new ElementMessage.ArrayArg(9, 4096, 0, AccessMode.WRITE),
                new ElementMessage.ScalarArg(ElementType.INT32, 4),
                new ElementMessage.ScalarArg(ElementType.INT32, 16)));
    }

    private static UnifiedBuffer filled(CpuDevice device, int bytes, long seed) {
        UnifiedBuffer b = device.allocate(bytes);
        byte[] data = new byte[bytes];
        new Random(seed).nextBytes(data);
        MemorySegment.copy(data, 0, b.hostView(), ValueLayout.JAVA_BYTE, 0, bytes);
        return b;
    }

    private static long frameBytes(Shape s) {
        return s.send.frame().length;
    }

    // ---- measuring --------------------------------------------------------------------------------------------

    /** The CPU time per byte of {@link Digest#of} over the largest reply's array, in place. */
    private static double digestNanosPerByte(CpuDevice device) throws WireException {
        int bytes = REPLY_BYTES[REPLY_BYTES.length - 1] / 2;
        UnifiedBuffer b = filled(device, bytes, 3);
        MemorySegment view = b.hostView().asSlice(0, bytes);
        double perCall = cpuNanosPerCall(() -> Digest.of(view).lo(), 200);
        b.free();
        return perCall / bytes;
    }

    /** The median over 9 rounds of {@code reps} calls of the CPU time per call, after 3 rounds of warm-up. */
    private static double cpuNanosPerCall(Side side, int reps) throws WireException {
        long sink = 0;
        double[] perCall = new double[9];
        for (int round = -3; round < perCall.length; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < reps; i++) {
                sink += side.run();
            }
            long cpu = THREADS.getCurrentThreadCpuTime() - start;
            if (round >= 0) {
                perCall[round] = (double) cpu / reps;
            }
        }
        assertTrue(sink != 0x5EED, "keeps the work");
        Arrays.sort(perCall);
        return perCall[perCall.length / 2];
    }

    /**
     * The transport's CPU time per frame at both ends, fitted as a + b x bytes over the shapes' frames: frames go
     * one at a time from one member to the other.
     */
    private static double[] transport(List<Shape> shapes) throws Exception {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean();
        String name = "calibration-" + ProcessHandle.current().pid();
        int port = FreePorts.block(2);
        List<String> addresses = List.of("127.0.0.1:" + port, "127.0.0.1:" + (port + 1));
        ClusterConfig config = ClusterConfig.loopback().withName(name).withMembers(addresses).withPort(port)
                .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(10));
        Semaphore arrived = new Semaphore(0);
        Transport.Listener quiet = listener(null);
        try (HazelcastTransport a = HazelcastTransport.start(config, Map.of(), quiet);
             HazelcastTransport b = HazelcastTransport.start(config, Map.of(), listener(arrived))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (a.peers().isEmpty() || b.peers().isEmpty()) {
                assertTrue(System.nanoTime() < deadline, "the two members did not meet in 30 s");
                Thread.sleep(20);
            }
            double idlePerNano = idleCpuRate(os);
            System.out.printf(Locale.ROOT, "Transport (two Hazelcast members in this JVM, loopback), idle CPU %.2f%% "
                    + "of a core, load %s:%n", idlePerNano * 100, load());
            System.out.println("| frame | CPU per frame, both ends, us (median of 5) | wall per frame, us |");
            System.out.println("|---:|---:|---:|");
            double[] xs = new double[shapes.size()];
            double[] ys = new double[shapes.size()];
            for (int i = 0; i < shapes.size(); i++) {
                byte[] frame = new byte[(int) frameBytes(shapes.get(i))];
                new Random(i).nextBytes(frame);
                int reps = (int) Math.max(30, Math.min(2000, 200_000_000L / (frame.length + 20_000)));
                double[] cpu = new double[5];
                double wall = 0;
                for (int round = -2; round < cpu.length; round++) {
                    long w0 = System.nanoTime();
                    long c0 = os.getProcessCpuTime();
                    for (int k = 0; k < reps; k++) {
                        assertTrue(a.send(b.self(), frame), "sent");
                        assertTrue(arrived.tryAcquire(10, TimeUnit.SECONDS), "a frame did not arrive in 10 s");
                    }
                    long c = os.getProcessCpuTime() - c0;
                    long w = System.nanoTime() - w0;
                    if (round >= 0) {
                        cpu[round] = (c - idlePerNano * w) / reps;
                        wall = (double) w / reps;
                    }
                }
                Arrays.sort(cpu);
                xs[i] = frame.length;
                ys[i] = cpu[cpu.length / 2];
                System.out.printf(Locale.ROOT, "| %,d B | %.1f | %.1f |%n", frame.length, ys[i] / 1e3, wall / 1e3);
            }
            return fit(xs, ys);
        }
    }

    private static Transport.Listener listener(Semaphore arrived) {
        return new Transport.Listener() {
            @Override
            public void received(String from, byte[] frame) {
                if (arrived != null) {
                    arrived.release();
                }
            }

            @Override
            public void membersChanged(List<String> joined, List<String> left) {
            }

            @Override
            public void selfLeft(String why) {
            }
        };
    }

    /** The process's CPU time per nanosecond while it waits (Hazelcast's own threads, heartbeats). */
    private static double idleCpuRate(com.sun.management.OperatingSystemMXBean os) throws InterruptedException {
        long w0 = System.nanoTime();
        long c0 = os.getProcessCpuTime();
        Thread.sleep(3_000);
        return (double) (os.getProcessCpuTime() - c0) / (System.nanoTime() - w0);
    }

    /** Least squares a + b x: {a, b}. */
    private static double[] fit(double[] xs, double[] ys) {
        int n = xs.length;
        double mx = Arrays.stream(xs).average().orElse(0);
        double my = Arrays.stream(ys).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            sxy += (xs[i] - mx) * (ys[i] - my);
            sxx += (xs[i] - mx) * (xs[i] - mx);
        }
        double b = sxx == 0 ? 0 : sxy / sxx;
        return new double[] {my - b * mx, b};
    }

    private static String load() {
        double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", l);
    }
}
