package dev.polygpu.bench.async;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.graalvm.polyglot.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Each benchmark DAG at its {@code --quick} size, run once under sync, async and async with with-const: the
 * outputs must be bit-identical across the policies and agree with plain Java. No timing is checked.
 */
@Tag("slow")
class DagsTest {
    private static Engine engine;

    @BeforeAll
    static void startEngine() {
        engine = Engine.newBuilder().option("engine.WarnInterpreterOnly", "false").build();
    }

    @AfterAll
    static void closeEngine() {
        engine.close();
    }

    @TestFactory
    Stream<DynamicTest> everyPolicyComputesTheSameResultAsJava() {
        return Stream.of(new VecDag(true, 1), new BlackScholesDag(true, 1), new MlDag(true, 1),
                new HitsDag(true, 1), new ImgDag(true, 1), new DlDag(true, 1))
                .map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    private static void check(DagCase c) {
        Map<String, Object> sync = runOnce(c, Policy.SYNC);
        for (Policy p : List.of(Policy.ASYNC, Policy.ASYNC_WITH_CONST)) {
            DagBench.sameContents(c, p, sync, runOnce(c, p));
        }
        assertFalse(c.check(sync).isEmpty());
    }

    private static Map<String, Object> runOnce(DagCase c, Policy p) {
        try (Session s = new Session(engine, p)) {
            DagCase.Program program = c.program(s);
            program.reset();
            program.run();
            s.synchronize();
            return program.results();
        }
    }
}
