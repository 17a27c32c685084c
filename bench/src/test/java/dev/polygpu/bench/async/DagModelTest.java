package dev.polygpu.bench.async;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.polygpu.bench.async.Trace.Mode;
import dev.polygpu.bench.async.Trace.Use;
import java.util.List;
import org.junit.jupiter.api.Test;

class DagModelTest {
    private static final long MS = 1_000_000;

    @Test
    void forkAndJoinHasWidthTwoAndItsLongestBranchAsCriticalPath() {
        Trace t = new Trace();
        t.kernel("square x", List.of(new Use(0, Mode.READ), new Use(1, Mode.WRITE)), 10 * MS);
        t.kernel("square y", List.of(new Use(2, Mode.READ), new Use(3, Mode.WRITE)), 20 * MS);
        t.kernel("sum", List.of(new Use(1, Mode.READ), new Use(3, Mode.READ), new Use(4, Mode.READ_WRITE)), 5 * MS);
        DagModel m = DagModel.of(t.nodes(), false);
        assertEquals(3, m.kernels());
        assertEquals(2, m.width());
        assertEquals(35, m.workMs(), 1e-9);
        assertEquals(25, m.criticalMs(), 1e-9);
        assertEquals(35 / 25.0, m.boundSpeedup(2), 1e-9);
        assertEquals(35 / 25.0, m.boundSpeedup(8), 1e-9);
        assertEquals(1.0, m.boundSpeedup(1), 1e-9);
    }

    @Test
    void readersOfOneArrayAreOrderedOnlyUnderNoConst() {
        Trace t = new Trace();
        for (int k = 0; k < 3; k++) {
            t.kernel("blur " + k, List.of(new Use(0, Mode.READ), new Use(1 + k, Mode.WRITE)), 7 * MS);
        }
        t.kernel("writer", List.of(new Use(0, Mode.WRITE)), 3 * MS);
        DagModel noConst = DagModel.of(t.nodes(), false);
        DagModel withConst = DagModel.of(t.nodes(), true);
        assertEquals(1, noConst.width());
        assertEquals(24, noConst.criticalMs(), 1e-9);
        assertEquals(3, withConst.width());
        assertEquals(10, withConst.criticalMs(), 1e-9);
    }

    @Test
    void aHostWriteWaitsForReadersAndOrdersEverythingAfterIt() {
        Trace t = new Trace();
        t.kernel("reads norm", List.of(new Use(0, Mode.READ), new Use(1, Mode.WRITE)), 10 * MS);
        t.kernel("independent", List.of(new Use(2, Mode.WRITE)), 10 * MS);
        t.host("norm = 0", new Use(0, Mode.WRITE));
        t.kernel("after", List.of(new Use(3, Mode.WRITE)), 10 * MS);
        DagModel m = DagModel.of(t.nodes(), true);
        assertEquals(3, m.kernels());
        assertEquals(2, m.width());
        assertEquals(20, m.criticalMs(), 1e-9);
    }
}
