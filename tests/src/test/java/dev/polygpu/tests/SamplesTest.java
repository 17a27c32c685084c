package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/** Every sample, in both languages, runs at its default size and passes its own check against the host. */
@Tag("slow")
class SamplesTest {
    @TestFactory
    Stream<DynamicTest> samples() throws IOException {
        List<Path> files;
        try (Stream<Path> py = Files.list(Guests.root().resolve("samples-python"));
             Stream<Path> js = Files.list(Guests.root().resolve("samples-js"))) {
            files = Stream.concat(py, js)
                    .filter(p -> p.toString().endsWith(".py") || p.toString().endsWith(".js"))
                    .sorted().toList();
        }
        assertFalse(files.isEmpty(), "no samples found under " + Guests.root());
        return files.stream().map(f -> DynamicTest.dynamicTest(
                f.getParent().getFileName() + "/" + f.getFileName(), () -> {
                    Guests.Run r = Guests.launch(f.toString());
                    assertEquals(0, r.status(), r::toString);
                    assertTrue(r.out().contains("check: OK"), r::toString);
                    assertTrue(r.out().contains("time: "), r::toString);
                }));
    }
}
