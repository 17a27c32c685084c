package dev.polygpu.runtime.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A text format a recorded DAG can be written in (DOT, Chrome trace): to an appendable, a string or a file. */
public interface DagFormat {

    /** Appends {@code dag} in this format to {@code out}. */
    void write(RecordedDag dag, Appendable out) throws IOException;

    /** {@code dag} in this format, as text. */
    default String export(RecordedDag dag) {
        StringBuilder text = new StringBuilder();
        try {
            write(dag, text);
        } catch (IOException e) {
            throw new UncheckedIOException("a StringBuilder does not fail", e);
        }
        return text.toString();
    }

    /** Writes {@code dag} in this format to {@code file} in UTF-8, replacing it. */
    default void write(RecordedDag dag, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(dag, out);
        }
    }
}
