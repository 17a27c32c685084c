package dev.polygpu.launcher.notebook;

import java.util.Map;

/**
 * The cell magics of the polygpu kernel, read from the first lines of a cell: {@code %%python} and
 * {@code %%js} (or {@code %%javascript}) choose the language the cell runs in, {@code %%time} prints the
 * cell's wall time after it. Magic lines are kept as empty lines, so line numbers in errors are the cell's own.
 */
final class CellMagics {
    private static final Map<String, String> LANGUAGES = Map.of("%%python", "python", "%%js", "js",
            "%%javascript", "js");
    static final String KNOWN = "%%python, %%js (or %%javascript) and %%time";

    /** A cell ready to run: its language, whether to time it, and its code with the magic lines blanked. */
    record Cell(String language, boolean timed, String code) {
    }

    /** A cell whose magics cannot be run, with the reason. */
    static final class MagicException extends Exception {
        MagicException(String message) {
            super(message);
        }
    }

    private CellMagics() {
    }

    /** Reads the magics of {@code text}; a cell with none runs in {@code defaultLanguage}. */
    static Cell parse(String text, String defaultLanguage) throws MagicException {
        String[] lines = text.split("\n", -1);
        String language = null;
        boolean timed = false;
        int first = 0;
        for (; first < lines.length; first++) {
            String line = lines[first].strip();
            if (line.isEmpty() && language == null && !timed) {
                continue;
            }
            if (!line.startsWith("%%")) {
                break;
            }
            String[] words = line.split("\\s+");
            if (words.length > 1) {
                throw new MagicException(words[0] + " takes no arguments, got '" + line + "'");
            }
            if (words[0].equals("%%time")) {
                timed = true;
            } else if (LANGUAGES.containsKey(words[0])) {
                if (language != null) {
                    throw new MagicException("a cell runs in one language: " + words[0] + " after %%" + language);
                }
                language = LANGUAGES.get(words[0]);
            } else {
                throw new MagicException("unknown cell magic " + words[0] + ": the magics are " + KNOWN);
            }
        }
        StringBuilder code = new StringBuilder(text.length());
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                code.append('\n');
            }
            if (i >= first) {
                code.append(lines[i]);
            }
        }
        return new Cell(language == null ? defaultLanguage : language, timed, code.toString());
    }
}
