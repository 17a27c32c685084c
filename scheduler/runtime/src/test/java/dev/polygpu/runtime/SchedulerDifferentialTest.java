package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.polygpu.device.cpu.Chaos;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.runtime.RandomProgram.Outcome;
import dev.polygpu.runtime.SchedulerConfig.DependencyPolicy;
import dev.polygpu.runtime.SchedulerConfig.ExecutionPolicy;
import dev.polygpu.runtime.SchedulerConfig.NewStreamPolicy;
import dev.polygpu.runtime.SchedulerConfig.ParentStreamPolicy;
import dev.polygpu.runtime.trace.RecordedElement;
import dev.polygpu.runtime.trace.ScheduleRecorder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Differential testing of the scheduler: random programs ({@link RandomProgram}) run under the sync policy
 * on a plain CPU device (the reference, itself checked against the programs' plain-Java meaning) and under
 * the async policy on a CPU device in chaos mode, with policy combinations that cover every pair of policy
 * values and small in-flight windows. Every host read and the final arrays must be identical. A missing
 * dependency lets chaos reorder two elements, which changes a value; {@link #aWrongAccessModeIsCaught()} and
 * {@link #aSingleWrongAccessModeIsCaught()} show that this machinery does catch one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchedulerDifferentialTest {
    /** Program i of a run has the seed {@code SEED + i}; its chaos device has the same seed. */
    private static final long SEED = 0x5EED_0000L;
    private static final long META_SEED = 0xB0_0000L;
    private static final long CHAOS_DELAY_MICROS = 200;

    /**
     * Async configurations. The first six cover every pair of values of the dependency, parent-stream and
     * new-stream policies, the windows 1, 2 and default, and input prefetching (each window's two rows are
     * complements of each other; prefetching is the exclusive or of the three policies). The last two also
     * cap the streams at 2, so elements share busy streams, and keep the ready queue short, so submitting
     * threads block on back-pressure.
     */
    static final List<SchedulerConfig> ASYNC_CONFIGS = List.of(
            config(DependencyPolicy.WITH_CONST, ParentStreamPolicy.DISJOINT, NewStreamPolicy.REUSE, 1, false),
            config(DependencyPolicy.NO_CONST, ParentStreamPolicy.SAME_AS_PARENT, NewStreamPolicy.ALWAYS_NEW, 1, true),
            config(DependencyPolicy.WITH_CONST, ParentStreamPolicy.SAME_AS_PARENT, NewStreamPolicy.ALWAYS_NEW, 2,
                    false),
            config(DependencyPolicy.NO_CONST, ParentStreamPolicy.DISJOINT, NewStreamPolicy.REUSE, 2, true),
            config(DependencyPolicy.NO_CONST, ParentStreamPolicy.DISJOINT, NewStreamPolicy.ALWAYS_NEW,
                    SchedulerConfig.DEFAULT_IN_FLIGHT_WINDOW, false),
            config(DependencyPolicy.WITH_CONST, ParentStreamPolicy.SAME_AS_PARENT, NewStreamPolicy.REUSE,
                    SchedulerConfig.DEFAULT_IN_FLIGHT_WINDOW, true),
            SchedulerConfig.DEFAULT.withMaxStreams(2).withMaxQueued(4),
            config(DependencyPolicy.NO_CONST, ParentStreamPolicy.SAME_AS_PARENT, NewStreamPolicy.ALWAYS_NEW, 2, false)
                    .withMaxStreams(2).withMaxQueued(8));

    private static final SchedulerConfig REFERENCE = SchedulerConfig.DEFAULT.withExecution(ExecutionPolicy.SYNC);

    private CpuDevice plain;
    private DiffKernels plainKernels;

    private static SchedulerConfig config(DependencyPolicy d, ParentStreamPolicy p, NewStreamPolicy s, int window,
            boolean prefetch) {
        return SchedulerConfig.DEFAULT.withDependencies(d).withParentStreams(p).withNewStreams(s)
                .withInFlightWindow(window).withPrefetchInputs(prefetch);
    }

    @BeforeAll
    void openDevice() {
        plain = new CpuDevice();
        plainKernels = new DiffKernels(plain);
    }

    @AfterAll
    void closeDevice() {
        plain.close();
    }

    @TestFactory
    Stream<DynamicTest> randomProgramsGiveUnderEveryAsyncPolicyAndChaosWhatTheyGiveUnderSync() {
        return programs(30, 25, 60);
    }

    @Tag("slow")
    @TestFactory
    Stream<DynamicTest> manyLongerRandomProgramsGiveUnderEveryAsyncPolicyAndChaosWhatTheyGiveUnderSync() {
        return programs(300, 40, 150);
    }

    @Test
    void theProgramsUseEveryKindOfOperationAndArraysTwiceInOneKernel() {
        Set<Class<?>> kinds = new HashSet<>();
        boolean aliased = false;
        for (long seed = SEED; seed < SEED + 30; seed++) {
            for (RandomProgram.Op op : RandomProgram.generate(seed, 25, 60, true).ops) {
                kinds.add(op.getClass());
                aliased |= op instanceof RandomProgram.Add(int z, int x, int y) && (z == x || z == y || x == y);
            }
        }
        assertEquals(9, kinds.size(), "kinds of operation generated: " + kinds);
        assertTrue(aliased, "no kernel was given one array for two parameters");
    }

    private Stream<DynamicTest> programs(int count, int minOps, int maxOps) {
        return LongStream.range(SEED, SEED + count).mapToObj(seed -> dynamicTest("program seed=" + seed,
                () -> check(RandomProgram.generate(seed, minOps, maxOps, true))));
    }

    private void check(RandomProgram p) {
        Outcome reference = reference(p);
        Chaos chaos = new Chaos(p.seed, CHAOS_DELAY_MICROS);
        try (CpuDevice chaotic = new CpuDevice(chaos)) {
            DiffKernels kernels = new DiffKernels(chaotic);
            for (SchedulerConfig c : ASYNC_CONFIGS) {
                String where = "async on a chaos device (" + chaos + ") with " + c;
                Outcome got;
                try (Scheduler s = new Scheduler(chaotic, c)) {
                    got = run(p, s, chaotic, kernels, where);
                    Scheduler.Stats st = s.stats();
                    assertEquals(0, st.outstanding(), () -> where + ": outstanding after synchronize: " + st);
                    assertTrue(st.maxInFlight() <= s.inFlightWindow(), () -> where + ": window exceeded: " + st);
                    assertTrue(st.streams() <= c.maxStreams(), () -> where + ": too many streams: " + st);
                }
                String diff = got.differenceFrom(reference, p);
                assertNull(diff, () -> where + " differs from sync: " + diff + "\n" + p.listing());
            }
        }
    }

    /** The program under sync on the plain device, checked against its plain-Java meaning. */
    private Outcome reference(RandomProgram p) {
        Outcome reference;
        try (Scheduler s = new Scheduler(plain, REFERENCE)) {
            reference = run(p, s, plain, plainKernels, "sync on the plain CPU device");
        }
        String diff = reference.differenceFrom(p.model(), p);
        assertNull(diff, () -> "sync on the plain CPU device differs from plain Java: " + diff + "\n" + p.listing());
        return reference;
    }

    private static Outcome run(RandomProgram p, Scheduler s, CpuDevice device, DiffKernels kernels, String where) {
        try {
            return p.run(s, device, kernels);
        } catch (RuntimeException e) {
            throw new AssertionError(where + " threw " + e + "\n" + p.listing(), e);
        }
    }

    /**
     * Meta-test: a submitter that declares the array every {@code step} writes as only read leaves the
     * scheduler without the edges from each step to the readers after it. Under sync that does no harm (each
     * element completes before the next is submitted), but under async with chaos the differential comparison
     * must notice in at least one of a few random programs, or it could not be trusted to catch a scheduler
     * that drops edges.
     */
    @Test
    void aWrongAccessModeIsCaught() {
        List<RandomProgram> programs = LongStream.range(META_SEED, META_SEED + 10)
                .mapToObj(seed -> RandomProgram.generate(seed, 40, 60, false)).toList();
        int caught = caught("every step declared READ", programs, DiffKernels::lyingAboutEveryStep);
        assertTrue(caught >= 1, "chaos + differential testing never noticed the missing edges in "
                + programs.size() + " programs (seeds " + META_SEED + "..)");
    }

    /**
     * Meta-test, sharper: one element with a wrong access mode. {@code a0 = a0 * 31 + 7} declared as only
     * reading a0, then four readers {@code ai = a0 * k}: the scheduler lets each overlap the step, and chaos must
     * make one of them see the old a0 in at least one of a few runs.
     */
    @Test
    void aSingleWrongAccessModeIsCaught() {
        List<RandomProgram> programs = LongStream.range(META_SEED, META_SEED + 40)
                .mapToObj(seed -> RandomProgram.of(seed, 5, 256, List.of(new RandomProgram.Step(0, 7),
                        new RandomProgram.Scale(1, 0, 3), new RandomProgram.Scale(2, 0, -5),
                        new RandomProgram.Scale(3, 0, 7), new RandomProgram.Scale(4, 0, 2))))
                .toList();
        RandomProgram first = programs.get(0);
        assertEquals(List.of(List.of(), List.of(1L), List.of(1L), List.of(1L), List.of(1L)),
                parentsOfEach(first, plainKernels), "declared honestly, each reader follows the step");
        assertEquals(List.of(List.of(), List.of(), List.of(), List.of(), List.of()),
                parentsOfEach(first, plainKernels.lyingAboutTheFirstStep()), "the wrong mode drops those edges");
        int caught = caught("one step declared READ", programs, DiffKernels::lyingAboutTheFirstStep);
        assertTrue(caught >= 1, "chaos + differential testing never noticed the missing edges of one element in "
                + programs.size() + " runs (seeds " + META_SEED + "..)");
    }

    /** The parents the scheduler gave each element of {@code p}, as a {@link ScheduleRecorder} saw them. */
    private List<List<Long>> parentsOfEach(RandomProgram p, DiffKernels kernels) {
        ScheduleRecorder recorder = new ScheduleRecorder();
        try (Scheduler s = new Scheduler(plain, SchedulerConfig.DEFAULT)) {
            s.addObserver(recorder);
            run(p, s, plain, kernels, "recording the DAG");
        }
        return recorder.snapshot().elements().stream().map(RecordedElement::parents).toList();
    }

    /**
     * Runs each program with the kernels {@code broken} makes, under sync on the plain device (which must
     * still be right) and under async on a chaos device seeded with the program's seed; returns how many of
     * the async runs differ from the programs' meaning.
     */
    private int caught(String what, List<RandomProgram> programs, UnaryOperator<DiffKernels> broken) {
        int caught = 0;
        StringBuilder seen = new StringBuilder();
        for (RandomProgram p : programs) {
            Outcome expected = p.model();
            Outcome brokenSync;
            try (Scheduler s = new Scheduler(plain, REFERENCE)) {
                brokenSync = run(p, s, plain, broken.apply(plainKernels), "sync, " + what);
            }
            String syncDiff = brokenSync.differenceFrom(expected, p);
            assertNull(syncDiff, () -> "under sync, " + what + " should be harmless: " + syncDiff + "\n"
                    + p.listing());
            try (CpuDevice chaotic = new CpuDevice(new Chaos(p.seed, CHAOS_DELAY_MICROS));
                    Scheduler s = new Scheduler(chaotic, SchedulerConfig.DEFAULT)) {
                Outcome got = run(p, s, chaotic, broken.apply(new DiffKernels(chaotic)), "async, " + what);
                String diff = got.differenceFrom(expected, p);
                if (diff != null) {
                    caught++;
                    seen.append("\n  seed=").append(p.seed).append(": ").append(diff);
                }
            }
        }
        System.out.println(what + ": caught in " + caught + " of " + programs.size() + " async runs" + seen);
        return caught;
    }
}
