package dev.polygpu.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import dev.polygpu.runtime.ElementInfo;
import dev.polygpu.runtime.ElementKind;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ScheduleRecorderTest {

    private static ElementInfo kernel(long id, String label, ArrayUse... uses) {
        return new ElementInfo(id, ElementKind.KERNEL, label, List.of(uses));
    }

    private static ArrayUse use(long array, AccessMode mode) {
        return new ArrayUse(array, "a" + array, mode);
    }

    @Test
    void recordsPlacementTimesAndFailures() {
        ScheduleRecorder recorder = new ScheduleRecorder();
        recorder.submitted(kernel(3, "square", use(7, AccessMode.READ_WRITE)), new long[0]);
        recorder.submitted(new ElementInfo(4, ElementKind.HOST_READ, "", List.of(use(7, AccessMode.READ))),
                new long[] {3});
        recorder.launched(3, "cpu0", 2, 1_000);
        recorder.completed(3, 1_500, 4_500, null);
        recorder.completed(4, 4_600, 4_700, "index 9 out of bounds");

        RecordedDag dag = recorder.snapshot();
        assertEquals(2, dag.size());
        RecordedElement square = dag.element(3);
        assertEquals(new RecordedElement.Placement("cpu0", 2, 1_000), square.placement());
        assertEquals(3_000, square.durationNanos());
        assertFalse(square.failed());
        RecordedElement read = dag.element(4);
        assertNull(read.placement());
        assertTrue(read.failed());
        assertEquals("index 9 out of bounds", read.run().failure());
        assertEquals("host read", read.displayName());
        assertEquals(List.of(new Dependency(3, 4, List.of(use(7, AccessMode.READ)))), dag.dependencies());
        assertFalse(dag.closed());
    }

    @Test
    void callsForUnknownElementsAndUnknownParentsAreIgnored() {
        ScheduleRecorder recorder = new ScheduleRecorder();
        recorder.launched(99, "cpu0", 1, 5);
        recorder.completed(99, 5, 6, null);
        recorder.submitted(kernel(5, "k"), new long[] {1, 2});
        recorder.submitted(kernel(6, "k"), new long[] {5, 5, 42});

        RecordedDag dag = recorder.snapshot();
        assertEquals(2, dag.size());
        assertNull(dag.element(99));
        assertEquals(List.of(1L, 2L), dag.element(5).parents());
        assertEquals(List.of(new Dependency(5, 6, List.of())), dag.dependencies());
    }

    @Test
    void aParentSubmittedAfterItsChildGivesNoEdge() {
        ScheduleRecorder recorder = new ScheduleRecorder();
        recorder.submitted(kernel(1, "a"), new long[] {2});
        recorder.submitted(kernel(2, "b"), new long[] {1});
        assertEquals(List.of(new Dependency(1, 2, List.of())), recorder.snapshot().dependencies());
    }

    @Test
    void snapshotsDoNotChangeWithLaterEvents() {
        ScheduleRecorder recorder = new ScheduleRecorder();
        recorder.submitted(kernel(1, "a"), new long[0]);
        RecordedDag before = recorder.snapshot();
        recorder.launched(1, "cpu0", 1, 10);
        recorder.completed(1, 10, 20, null);
        recorder.submitted(kernel(2, "b"), new long[] {1});

        assertEquals(1, before.size());
        assertNull(before.element(1).placement());
        assertFalse(before.element(1).completed());
        assertTrue(recorder.snapshot().element(1).completed());
    }

    @Test
    void dependencyArraysAreTheHazardsElseTheSharedArrays() {
        RecordedElement parent = element(1, use(10, AccessMode.READ), use(11, AccessMode.WRITE),
                use(12, AccessMode.READ));
        RecordedElement child = element(2, use(10, AccessMode.READ), use(11, AccessMode.READ),
                use(12, AccessMode.WRITE), use(13, AccessMode.WRITE));
        assertEquals(List.of(use(11, AccessMode.READ), use(12, AccessMode.WRITE)),
                Dependency.between(parent, child).arrays(), "read-after-write and write-after-read only");

        RecordedElement reader = element(3, use(10, AccessMode.READ));
        assertEquals(List.of(use(10, AccessMode.READ)), Dependency.between(parent, reader).arrays(),
                "no hazard: the shared array");

        RecordedElement twice = element(4, use(11, AccessMode.READ), use(11, AccessMode.WRITE));
        assertEquals(List.of(use(11, AccessMode.READ_WRITE)), Dependency.between(parent, twice).arrays(),
                "uses of one array are merged");
    }

    private static RecordedElement element(long id, ArrayUse... uses) {
        return new RecordedElement(kernel(id, "k" + id, uses), List.of(), null, null);
    }

    @Test
    void closingHandsTheFinalSnapshotOverOnceAndStopsRecording() {
        AtomicReference<RecordedDag> last = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        ScheduleRecorder recorder = new ScheduleRecorder(dag -> {
            calls.incrementAndGet();
            last.set(dag);
        });
        recorder.submitted(kernel(1, "a"), new long[0]);
        recorder.closed();
        recorder.closed();
        recorder.submitted(kernel(2, "b"), new long[0]);

        assertEquals(1, calls.get());
        assertNotNull(last.get());
        assertTrue(last.get().closed());
        assertEquals(1, last.get().size());
        assertEquals(1, recorder.size());
    }

    @Test
    void aFailingCloseActionDoesNotReachTheScheduler() {
        ScheduleRecorder recorder = new ScheduleRecorder(dag -> {
            throw new IllegalStateException("disk full");
        });
        recorder.closed();
        assertTrue(recorder.snapshot().closed());
    }

    @Test
    void snapshotsTakenWhileRecordingAreConsistent() throws InterruptedException {
        ScheduleRecorder recorder = new ScheduleRecorder();
        int count = 5_000;
        Thread scheduler = Thread.ofPlatform().start(() -> {
            SyntheticSchedule schedule = new SyntheticSchedule(recorder);
            long x = schedule.array("x");
            for (int i = 0; i < count; i++) {
                schedule.kernel("k").readsWrites(x).on(1 + i % 3).submit();
            }
        });
        int previous = 0;
        while (scheduler.isAlive() || previous < count) {
            RecordedDag dag = recorder.snapshot();
            assertTrue(dag.size() >= previous, "snapshots only grow");
            previous = dag.size();
            assertEquals(Math.max(0, dag.size() - 1), dag.dependencies().size(), "a chain: one edge per element");
            for (Dependency edge : dag.dependencies()) {
                assertSame(dag.element(edge.childId()), dag.elements().get(dag.indexOf(edge.childId())));
                assertTrue(dag.indexOf(edge.parentId()) < dag.indexOf(edge.childId()));
            }
        }
        scheduler.join();
        assertEquals(count, recorder.snapshot().size());
    }
}
