package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.polygpu.device.Device;
import dev.polygpu.device.cpu.Chaos;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.CpuLink;
import dev.polygpu.runtime.RandomProgram.Outcome;
import dev.polygpu.runtime.SchedulerConfig.ExecutionPolicy;
import dev.polygpu.runtime.SchedulerConfig.ParentStreamPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Differential testing of the scheduler over several devices: random programs ({@link RandomProgram}) run under
 * sync on one plain CPU device (the reference, checked against the programs' plain-Java meaning) and on 2 to 4 CPU
 * devices, each with its own memory, under every device selection policy: under async (every parent-stream policy
 * in turn) on chaos devices with a simulated link (so transfers take time and streams of different devices move against each other), and under sync.
 * Every host read and the final arrays must be identical. Each device's memory is its own, so an element that ran
 * where an array it reads was not transferred, or a transfer that ran before the write it copies, changes a value.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiDeviceDifferentialTest {
    /** Program i has the seed {@code SEED + i}; device d of its run has chaos seed {@code seed * 8 + d}. */
    private static final long SEED = 0x3D1F_0000L;
    private static final long CHAOS_DELAY_MICROS = 200;
    private static final CpuLink LINK = new CpuLink(2, 20);
    private static final SchedulerConfig REFERENCE = SchedulerConfig.DEFAULT.withExecution(ExecutionPolicy.SYNC);

    private CpuDevice plain;
    private DiffKernels plainKernels;

    @BeforeAll
    void openDevice() {
        plain = new CpuDevice(2);
        plainKernels = new DiffKernels(plain);
    }

    @AfterAll
    void closeDevice() {
        plain.close();
    }

    @TestFactory
    Stream<DynamicTest> randomProgramsGiveOnSeveralDevicesUnderEveryPolicyWhatTheyGiveOnOne() {
        return programs(12, 25, 60);
    }

    @Tag("slow")
    @TestFactory
    Stream<DynamicTest> manyLongerRandomProgramsGiveOnSeveralDevicesUnderEveryPolicyWhatTheyGiveOnOne() {
        return programs(120, 40, 150);
    }

    private Stream<DynamicTest> programs(int count, int minOps, int maxOps) {
        return LongStream.range(SEED, SEED + count).mapToObj(seed -> dynamicTest("program seed=" + seed
                + " on " + devicesFor(seed) + " devices", () -> check(RandomProgram.generate(seed, minOps, maxOps,
                true))));
    }

    /** 2, 3 or 4 devices, by seed. */
    private static int devicesFor(long seed) {
        return 2 + (int) Math.floorMod(seed, 3L);
    }

    private void check(RandomProgram p) {
        Outcome reference;
        try (Scheduler s = new Scheduler(plain, REFERENCE)) {
            reference = p.run(s, plain, plainKernels);
        }
        String modelDiff = reference.differenceFrom(p.model(), p);
        assertNull(modelDiff, () -> "sync on one plain CPU device differs from plain Java: " + modelDiff + "\n"
                + p.listing());
        int count = devicesFor(p.seed);
        List<Device> devices = new ArrayList<>();
        try {
            for (int d = 0; d < count; d++) {
                CpuDevice device = new CpuDevice(d, 2, new Chaos(p.seed * 8 + d, CHAOS_DELAY_MICROS));
                device.setLink(LINK);
                devices.add(device);
            }
            DiffKernels kernels = new DiffKernels(devices.get(0), true);
            int i = 0;
            ParentStreamPolicy[] parents = ParentStreamPolicy.values();
            for (DeviceSelectionPolicy policy : DeviceSelectionPolicy.values()) {
                // The async configurations of the single-device test, in turn, so each policy meets several; and
                // the parent-stream policies in turn, so each program meets all of them and each device selection
                // policy meets each over four programs in a row.
                SchedulerConfig async = SchedulerDifferentialTest.ASYNC_CONFIGS.get(
                        (int) ((p.seed + i) % SchedulerDifferentialTest.ASYNC_CONFIGS.size()))
                        .withParentStreams(parents[(int) ((3 * p.seed + i) % parents.length)]);
                i++;
                compare(p, reference, devices, kernels, policy, async);
                compare(p, reference, devices, kernels, policy, REFERENCE);
            }
        } finally {
            for (Device d : devices) {
                d.close();
            }
        }
    }

    /**
     * Meta-test: kernels that write an array they declare as only read (through an undeclared alias) leave the
     * scheduler believing the other locations' copies are still up to date. On one device that does no harm under
     * sync; on several, each with its own memory, the write stays where it ran and a later element elsewhere, or
     * the host, reads a stale copy: the comparison must notice in some of a few programs, or it could not be
     * trusted to catch a missing transfer.
     */
    @org.junit.jupiter.api.Test
    void aMissingTransferIsCaught() {
        int caught = 0;
        int programs = 6;
        for (long seed = SEED + 1000; seed < SEED + 1000 + programs; seed++) {
            RandomProgram p = RandomProgram.generate(seed, 30, 50, false);
            Outcome expected = p.model();
            List<Device> devices = List.of(new CpuDevice(0, 2, null), new CpuDevice(1, 2, null));
            try (Scheduler s = new Scheduler(devices, REFERENCE, MultiDeviceConfig.DEFAULT)) {
                Outcome got = p.run(s, devices.get(0), new DiffKernels(devices.get(0), true).lyingAboutEveryStep());
                if (got.differenceFrom(expected, p) != null) {
                    caught++;
                }
            } finally {
                devices.forEach(Device::close);
            }
        }
        assertTrue(caught >= 1, "separate device memories never exposed an undeclared write in " + programs
                + " programs (seeds " + (SEED + 1000) + "..)");
    }

    private static void compare(RandomProgram p, Outcome reference, List<Device> devices, DiffKernels kernels,
            DeviceSelectionPolicy policy, SchedulerConfig config) {
        String where = config.execution() + " on " + devices.size() + " chaos CPU devices (link " + LINK + "), "
                + policy.spelling() + ", " + config;
        Outcome got;
        Scheduler.Transfers moved;
        MultiDeviceConfig placement = MultiDeviceConfig.DEFAULT.withPolicy(policy).withDataThreshold(0.1);
        java.util.Map<String, Integer> launched = new java.util.concurrent.ConcurrentHashMap<>();
        try (Scheduler s = new Scheduler(devices, config, placement)) {
            s.addObserver(new ScheduleObserver() {
                @Override
                public void launched(long elementId, String deviceName, int streamId, long nanos) {
                    launched.merge(deviceName, 1, Integer::sum);
                }
            });
            try {
                got = p.run(s, devices.get(0), kernels);
            } catch (RuntimeException e) {
                throw new AssertionError(where + " threw " + e + "\n" + p.listing(), e);
            }
            Scheduler.Stats st = s.stats();
            assertEquals(0, st.outstanding(), () -> where + ": outstanding after synchronize: " + st);
            moved = s.transfers();
        }
        String diff = got.differenceFrom(reference, p);
        assertNull(diff, () -> where + " differs from sync on one device: " + diff + "\n" + p.listing());
        // Every program reads its arrays on the host at the end, and its kernels run on the devices.
        assertTrue(moved.count() > 0, () -> where + ": no transfers at all");
        if (policy == DeviceSelectionPolicy.ROUND_ROBIN) {
            assertEquals(devices.size(), launched.size(), () -> where + ": not every device ran work: " + launched);
        }
        // The program freed its arrays after releasing them: no copy may stay behind on any device.
        for (Device d : devices) {
            assertEquals(0, d.allocatedBytes(), () -> where + ": " + d + " kept bytes after the arrays were freed");
        }
    }
}
