package dev.polygpu.bench.fuzz;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a failing case leaves: {@code case-I.cu} (the reduced kernel), {@code case-I.orig.cu} (as
 * generated) and {@code case-I.json} (seed, index, profile, results, category, the reduced kernel's launch and
 * arguments, and the commands that replay it), and reading a case file back for {@code --replay}.
 */
final class CaseFiles {
    /**
     * How case files and run summaries are written and read: indented, in insertion order, no HTML escapes, and
     * every JSON number read back as a Long (no floating-point values are stored: values that need exact bits are
     * integers or base64).
     */
    static final Gson GSON = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping()
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create();
    private static final TypeToken<Map<String, Object>> OBJECT = new TypeToken<>() {
    };

    private CaseFiles() {
    }

    /** Writes the three files of case {@code index}; returns the JSON file. */
    static Path write(Path dir, long index, Map<String, Object> info, String originalSource, String reducedSource) {
        try {
            Files.createDirectories(dir);
            String base = "case-" + index;
            Files.writeString(dir.resolve(base + ".orig.cu"), originalSource);
            Files.writeString(dir.resolve(base + ".cu"), reducedSource);
            Map<String, Object> json = new LinkedHashMap<>(info);
            json.put("source", base + ".cu");
            json.put("original", base + ".orig.cu");
            Path file = dir.resolve(base + ".json");
            json.put("replay", List.of("bench/fuzz --replay " + file, "bench/fuzz --seed " + info.get("seed")
                    + " --only " + index + " --profile '" + info.get("profile") + "'"
                    + (Boolean.TRUE.equals(info.get("invalid")) ? " --invalid" : "")));
            Files.writeString(file, GSON.toJson(json) + "\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write case " + index + " into " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The launch and arguments of a case, as the JSON of a case file holds them. */
    static Map<String, Object> caseInfo(OracleCase c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kernel", c.kernel());
        LaunchConfig l = c.config();
        m.put("launch", Map.of("grid", List.of(l.grid().x(), l.grid().y(), l.grid().z()), "block",
                List.of(l.block().x(), l.block().y(), l.block().z()), "dynamicSharedBytes", l.dynamicSharedBytes()));
        List<Object> args = new ArrayList<>();
        for (OracleArg a : c.args()) {
            Map<String, Object> am = new LinkedHashMap<>();
            switch (a) {
                case OracleArg.Buffer b -> {
                    am.put("buffer", b.name());
                    am.put("type", b.type().name());
                    am.put("maxUlp", b.maxUlp());
                    am.put("initial", Base64.getEncoder().encodeToString(b.initial()));
                }
                case OracleArg.Scalar s -> {
                    am.put("scalar", s.type().name());
                    am.put("bits", s.bits());
                }
            }
            args.add(am);
        }
        m.put("args", args);
        return m;
    }

    /** The reduced case a case file describes: its source file and the launch and arguments in the JSON. */
    static OracleCase reducedCase(Path json, Map<String, Object> m) {
        return storedCase(json, m, (String) m.get("source"));
    }

    /** The original case as generated: the {@code .orig.cu} file and the launch and arguments stored for it. */
    @SuppressWarnings("unchecked")
    static OracleCase originalCase(Path json, Map<String, Object> m) {
        return storedCase(json, (Map<String, Object>) m.get("originalCase"), (String) m.get("original"));
    }

    @SuppressWarnings("unchecked")
    private static OracleCase storedCase(Path json, Map<String, Object> m, String sourceFile) {
        try {
            String source = Files.readString(json.resolveSibling(sourceFile));
            Map<String, Object> launch = (Map<String, Object>) m.get("launch");
            List<Object> grid = (List<Object>) launch.get("grid");
            List<Object> block = (List<Object>) launch.get("block");
            LaunchConfig config = new LaunchConfig(dim(grid), dim(block),
                    ((Number) launch.get("dynamicSharedBytes")).intValue());
            List<OracleArg> args = new ArrayList<>();
            for (Object o : (List<Object>) m.get("args")) {
                Map<String, Object> a = (Map<String, Object>) o;
                if (a.containsKey("buffer")) {
                    args.add(new OracleArg.Buffer((String) a.get("buffer"), OracleType.valueOf((String) a.get("type")),
                            Base64.getDecoder().decode((String) a.get("initial")),
                            ((Number) a.get("maxUlp")).intValue()));
                } else {
                    args.add(new OracleArg.Scalar(OracleType.valueOf((String) a.get("scalar")),
                            ((Number) a.get("bits")).longValue()));
                }
            }
            return new OracleCase("replay " + json.getFileName(), source, (String) m.get("kernel"), config, args);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the case next to " + json + ": " + e.getMessage(), e);
        }
    }

    private static Dim3 dim(List<Object> l) {
        return new Dim3(((Number) l.get(0)).intValue(), ((Number) l.get(1)).intValue(), ((Number) l.get(2)).intValue());
    }

    /** Reads a case file written by {@link #write}. */
    static Map<String, Object> read(Path json) {
        String text;
        try {
            text = Files.readString(json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + json + ": " + e.getMessage(), e);
        }
        try {
            Map<String, Object> m = GSON.fromJson(text, OBJECT);
            if (m == null || !m.containsKey("seed")) {
                throw new IllegalArgumentException(json + " is not a case file (no \"seed\" in it)");
            }
            return m;
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(json + " is not a case file: " + e.getMessage(), e);
        }
    }
}
