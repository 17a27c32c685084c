package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.DeviceSelectionPolicy;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.MultiDeviceConfig;
import dev.polygpu.runtime.ScheduleObserver;
import dev.polygpu.runtime.SchedulerConfig;
import dev.polygpu.runtime.TrackedArray;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * In-JVM members on loopback whose schedulers have two CPU devices each, standing in for GPUs, placed round-robin:
 * the program's kernels are given away from either of its devices, the workers run what they steal on both of
 * theirs, the results are the ones a single device computes (derived by hand below, as {@link ClusterNodeTest}
 * checks them on members of one device), each given kernel comes back once, a crashed worker's kernels run again
 * at home, and no copy of an array stays on any device.
 */
@Tag("slow")
@Tag("cluster")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiDeviceClusterTest {

    private static final MultiDeviceConfig ROUND_ROBIN = MultiDeviceConfig.DEFAULT.withPolicy(
            DeviceSelectionPolicy.ROUND_ROBIN);

    /** The devices a member's kernels were launched on, from the member's scheduler's record of its launches. */
    private static final class Placements implements ScheduleObserver {
        private final Set<Long> kernels = ConcurrentHashMap.newKeySet();
        final Set<String> devices = ConcurrentHashMap.newKeySet();

        @Override
        public void submitted(ElementInfo element, long[] parents) {
            // The stolen kernels; a worker's warm-up kernel is not one.
            if (element.kind() == ElementKind.KERNEL && !element.label().equals(Warmup.KERNEL)) {
                kernels.add(element.id());
            }
        }

        @Override
        public void launched(long elementId, String deviceName, int streamId, long nanos) {
            if (kernels.contains(elementId)) {
                devices.add(deviceName);
            }
        }
    }

    private static Members.Member member(Members c, ClusterConfig config, Placements placements) {
        return c.add(new Members.Member(config, SchedulerConfig.DEFAULT, null, 2, ROUND_ROBIN,
                m -> m.scheduler.addObserver(placements)));
    }

    @Test
    void twoDeviceMembersShareTilesAndChainsAndRunStolenKernelsOnBothDevices() throws Exception {
        try (Members c = new Members()) {
            Members.Member p = member(c, c.config(ClusterConfig.Role.PROGRAM), new Placements());
            Map<Members.Member, Placements> workers = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 2; i++) {
                Placements seen = new Placements();
                workers.put(member(c, c.config(ClusterConfig.Role.WORKER).withWarmUp(true), seen), seen);
            }
            List<Members.Member> all = new ArrayList<>(List.of(p));
            all.addAll(workers.keySet());
            c.awaitSize(3, all);

            List<TrackedArray> chains = new ArrayList<>();
            for (int j = 0; j < 4; j++) {
                chains.add(p.ints("chain" + j, j));
            }
            for (int link = 0; link < 6; link++) {
                for (TrackedArray x : chains) {
                    p.bump(x, 4);
                }
            }
            Members.Tiles tiles = new Members.Tiles(p, 48, 3f, 20);
            p.scheduler.synchronize();
            readOnHost(p, tiles.outs);
            readOnHost(p, chains);
            tiles.check();
            for (int j = 0; j < chains.size(); j++) {
                for (int i = 0; i < Members.N; i++) {
                    int expected = i + j;
                    for (int link = 0; link < 6; link++) {
                        expected = expected * 3 + 1;
                    }
                    assertEquals(expected, chains.get(j).buffer().getInt(i), "chain" + j + "[" + i + "]");
                }
            }

            ClusterStats owner = p.node.stats();
            assertEquals(owner.given(), owner.completedRemote() + owner.rerun(), "each given element came back once");
            assertEquals(0, p.node.away());
            long stolen = 0;
            boolean bothUsed = false;
            for (Map.Entry<Members.Member, Placements> w : workers.entrySet()) {
                long n = w.getKey().node.stats().stolen();
                stolen += n;
                if (n >= 2) {
                    // Round-robin alternates between the devices.
                    assertEquals(Set.of("cpu device 0", "cpu device 1"), w.getValue().devices,
                            "a worker that stole " + n + " kernels ran them on both its devices");
                    bothUsed = true;
                }
            }
            assertTrue(stolen >= 2 && bothUsed, "the workers stole " + stolen + " kernels: " + owner);
            assertTrue(owner.completedRemote() > 0, "results came home: " + owner);

            List<TrackedArray> arrays = new ArrayList<>(tiles.outs);
            arrays.addAll(chains);
            arrays.addAll(tiles.ins);
            releaseAll(p, arrays);
            for (CpuDevice d : p.devices) {
                assertEquals(0, d.allocatedBytes(), "the program's " + d + " kept a copy");
            }
            for (Members.Member w : workers.keySet()) {
                for (CpuDevice d : w.devices) {
                    awaitFreed(d);
                }
            }
        }
    }

    @Test
    void aCrashedTwoDeviceWorkersKernelsRunAgainAtTheTwoDeviceOwner() throws Exception {
        try (Members c = new Members()) {
            Members.Member p = member(c, c.config(ClusterConfig.Role.PROGRAM), new Placements());
            Members.Member doomed = member(c, c.config(ClusterConfig.Role.WORKER), new Placements());
            Members.Member survivor = member(c, c.config(ClusterConfig.Role.WORKER), new Placements());
            c.awaitSize(3, List.of(p, doomed, survivor));
            Members.Tiles tiles = new Members.Tiles(p, 60, 2f, 30);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (doomed.node.holding() == 0) {
                assertTrue(System.nanoTime() < deadline, "the doomed worker never held stolen work");
                Thread.sleep(2);
            }
            doomed.node.crash();
            p.scheduler.synchronize();
            readOnHost(p, tiles.outs);
            tiles.check();
            ClusterStats s = p.node.stats();
            assertTrue(s.rerun() > 0, "the crashed worker's elements ran again: " + s);
            assertEquals(s.given(), s.completedRemote() + s.rerun(), "every given element settled once: " + s);
            List<TrackedArray> arrays = new ArrayList<>(tiles.outs);
            arrays.addAll(tiles.ins);
            releaseAll(p, arrays);
            for (CpuDevice d : p.devices) {
                assertEquals(0, d.allocatedBytes(), "the program's " + d + " kept a copy");
            }
        }
    }

    /** Brings each array's contents home (a transfer from the device holding them), for reading its buffer. */
    private static void readOnHost(Members.Member p, List<TrackedArray> arrays) {
        for (TrackedArray a : arrays) {
            p.scheduler.awaitHost(a, AccessMode.READ, "read " + a.name());
        }
    }

    private static void releaseAll(Members.Member p, List<TrackedArray> arrays) {
        for (TrackedArray a : arrays) {
            p.scheduler.release(a);
            a.buffer().free();
        }
    }

    /** A worker frees a stolen element's arrays once its result went home, which may be a moment after. */
    private static void awaitFreed(CpuDevice d) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (d.allocatedBytes() != 0) {
            assertTrue(System.nanoTime() < deadline, "a worker's " + d + " kept " + d.allocatedBytes() + " bytes");
            Thread.sleep(5);
        }
    }
}
