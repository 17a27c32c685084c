package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The Java embedding example runs and prints a checked result and a readable fault. */
class EmbeddingExampleTest {

    @Test
    void exampleRuns() {
        String out = EmbeddingExample.run(Guests.engine());
        float expected = 2.0f * (999 % 1000 * 0.001f) + 1f;
        assertTrue(out.contains("saxpy: y[999] = " + expected + ", max error vs Java 0.0"), out);
        assertTrue(out.contains("fault: ") && out.contains("out-of-bounds read") && out.contains("argument 'x'"), out);
        assertTrue(out.contains("launches: 2"), out);
    }
}
