package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.cluster.ClusterConfig.Role;
import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.StealRequest;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.DeviceSelectionPolicy;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.ScheduleObserver;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster member with two CPU devices standing in for GPUs, message by message (the test plays the other member
 * over a {@link ScriptedTransport}): as a thief it runs the kernels it steals on both devices, placed by its device
 * selection policy, and sends each result home once; as an owner it gives a kernel whose array is up to date only
 * on one of its devices, with that device's contents, and takes the result back there.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiDeviceMemberTest {

    private static final MultiDeviceConfig ROUND_ROBIN = MultiDeviceConfig.DEFAULT.withPolicy(
            DeviceSelectionPolicy.ROUND_ROBIN);
    private static final KernelSource BUMP = new KernelSource(Members.SOURCE, "bump",
            "bump(inout x: sint32, ms: sint32, n: sint32)");

    /** Records, per element label, the devices its elements were launched on. */
    private static final class Placements implements ScheduleObserver {
        private final Map<Long, String> labels = new ConcurrentHashMap<>();
        final Map<String, Set<String>> devices = new ConcurrentHashMap<>();

        @Override
        public void submitted(ElementInfo element, long[] parents) {
            if (element.kind() == ElementKind.KERNEL) {
                labels.put(element.id(), element.label());
            }
        }

        @Override
        public void launched(long elementId, String deviceName, int streamId, long nanos) {
            String label = labels.get(elementId);
            if (label != null) {
                devices.computeIfAbsent(label, l -> ConcurrentHashMap.newKeySet()).add(deviceName);
            }
        }
    }

    @Test
    void aThiefWithTwoDevicesRunsWhatItStealsOnBothAndSendsEachResultHomeOnce() throws Exception {
        ClusterConfig c = ClusterConfig.loopback().withName("two-device-thief").withRole(Role.WORKER)
                .withHoldInterval(Duration.ofMillis(100));
        ScriptedTransport t = new ScriptedTransport("w", c);
        t.join("p", Role.PROGRAM);
        Placements placements = new Placements();
        Members.Member w = new Members.Member(c, SchedulerConfig.DEFAULT, t.factory(), 2, ROUND_ROBIN,
                m -> m.scheduler.addObserver(placements));
        try {
            // Four kernels, each on an array of its own: x_j[i] = 100 * j + i, bumped to x * 3 + 1.
            List<WorkItem> items = new ArrayList<>();
            for (int j = 0; j < 4; j++) {
                int[] x = new int[Members.N];
                for (int i = 0; i < x.length; i++) {
                    x[i] = 100 * j + i;
                }
                ElementMessage m = new ElementMessage(j + 1, ElementKind.KERNEL, "bump", BUMP, new int[] {1, 1, 1},
                        new int[] {Members.N, 1, 1}, 0, 0, List.of(
                        new ElementMessage.ArrayArg(10 + j, 4L * Members.N, 0, AccessMode.READ_WRITE),
                        new ElementMessage.ScalarArg(ElementType.INT32, 2),
                        new ElementMessage.ScalarArg(ElementType.INT32, Members.N)));
                items.add(new WorkItem(50 + j, 1, m, List.of(new ArrayData(10 + j, 0, bytes(x))), 1, 0));
            }
            // Pushed: it answers no request, so no request of the thief's can have expired meanwhile.
            t.deliver(StealReply.pushed("p", items));
            Map<Long, WorkResult> results = new java.util.TreeMap<>();
            for (int k = 0; k < 4; k++) {
                WorkResult r = t.await("p", WorkResult.class, x -> true);
                assertEquals(null, results.put(r.stealId(), r), "a second result for steal " + r.stealId());
            }
            assertEquals(Set.of(50L, 51L, 52L, 53L), results.keySet());
            for (int j = 0; j < 4; j++) {
                WorkResult r = results.get(50L + j);
                assertTrue(r.ok(), r.toString());
                assertEquals(1, r.outputs().size());
                assertEquals(10 + j, r.outputs().get(0).arrayId());
                int[] out = ints(r.outputs().get(0).bytes());
                for (int i = 0; i < out.length; i++) {
                    assertEquals((100 * j + i) * 3 + 1, out[i], "result of steal " + (50 + j) + " at " + i);
                }
            }
            assertEquals(Set.of("cpu device 0", "cpu device 1"), placements.devices.get("bump"),
                    "round-robin placed the stolen kernels on both devices");
            assertEquals(4, w.node.stats().stolen());
            // Each result once: none is sent again while the member keeps running.
            assertEquals(null, t.poll("p", WorkResult.class, x -> true, Duration.ofMillis(300)));
            for (CpuDevice d : w.devices) {
                ScriptedTransport.until(() -> d.allocatedBytes() == 0, d + " kept no copy of a stolen array");
            }
        } finally {
            w.close();
        }
    }

    /**
     * The owner's array is up to date only on its device 1 (its host copy is stale) when a kernel there that reads
     * and writes it is given away: the thief gets device 1's contents, the result goes back into device 1's copy,
     * and the next kernel, on device 0, reads it from there.
     */
    @Test
    void anOwnerWithTwoDevicesGivesAKernelWithItsDevicesCopyAndTakesTheResultBackThere() throws Exception {
        ClusterConfig c = ClusterConfig.loopback().withName("two-device-owner").withThreshold(1)
                .withHoldInterval(Duration.ofMillis(100));
        ScriptedTransport t = new ScriptedTransport("p", c);
        t.join("w", Role.WORKER);
        Members.Member p = new Members.Member(c, SchedulerConfig.DEFAULT.withInFlightWindow(1), t.factory(), 2,
                MultiDeviceConfig.DEFAULT.withPolicy(DeviceSelectionPolicy.SINGLE_GPU), m -> { });
        UnifiedBuffer flag = p.device.allocate(4);
        flag.setInt(0, 0);
        TrackedArray x = p.ints("x", 5);
        TrackedArray z = p.ints("z", 0);
        try {
            p.scheduler.setCurrentDevice(1);
            // 20 ms: the cost gate then finds the kernel long enough to be worth moving.
            p.bump(x, 20);
            p.scheduler.synchronize();
            // The hold kernel (no source: device 0) fills the window of 1, so the second bump waits, ready.
            p.hold(flag, z);
            p.bump(x, 0);
            t.deliver(new StealRequest("w", 1, "w", 0, 1, 0));
            StealReply reply = t.await("w", StealReply.class, r -> r.requestId() == 1);
            assertEquals(1, reply.items().size(), "the ready bump: " + reply);
            WorkItem item = reply.items().get(0);
            int[] sent = ints(item.inputs().get(0).bytes());
            for (int i = 0; i < Members.N; i++) {
                assertEquals((5 + i) * 3 + 1, sent[i], "x[" + i + "] as the first bump left it on device 1");
                assertEquals(5 + i, x.buffer().getInt(i), "the host's copy of x[" + i + "] is still the old one");
            }
            int[] back = new int[Members.N];
            for (int i = 0; i < back.length; i++) {
                back[i] = sent[i] * 3 + 1;
            }
            t.deliver(new WorkResult("w", item.stealId(), item.epoch(), true, null, 0, 1000,
                    List.of(new ArrayData(item.inputs().get(0).arrayId(), 0, bytes(back))), 0));
            ScriptedTransport.until(() -> p.node.stats().completedRemote() == 1, "the result accepted");
            // A third bump on device 0: x comes from device 1, where the result was written.
            p.scheduler.setCurrentDevice(0);
            p.bump(x, 0);
            flag.setInt(0, 1);
            p.scheduler.synchronize();
            p.scheduler.awaitHost(x, AccessMode.READ, "read x");
            for (int i = 0; i < Members.N; i++) {
                assertEquals((((5 + i) * 3 + 1) * 3 + 1) * 3 + 1, x.buffer().getInt(i), "x[" + i + "]");
            }
            assertEquals(1, p.node.stats().given());
            assertEquals(0, p.node.away());
        } finally {
            flag.setInt(0, 1);
            p.scheduler.synchronize();
            for (TrackedArray a : List.of(x, z)) {
                p.scheduler.release(a);
                a.buffer().free();
            }
            flag.free();
            for (CpuDevice d : p.devices) {
                assertEquals(0, d.allocatedBytes(), d + " kept a copy");
            }
            p.close();
        }
    }

    static byte[] bytes(int[] values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    static int[] ints(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[bytes.length / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getInt();
        }
        return out;
    }
}
