package dev.polygpu.device.cuda;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Compiled PTX on disk, so that a kernel compiled once is not compiled again by a later run.
 *
 * <p>The key is the SHA-256 of the source, the name expressions, the compiler options, the target architecture
 * and the compiler's identity (its version text); each entry is one file {@code <key>.ptx} in {@link #dir()}
 * that holds the lowered names and the PTX. Writes go to a temporary file in the same folder that is then
 * moved over the entry, so a reader sees a whole entry or none. An entry that cannot be read or does not parse
 * is a miss (and is replaced by the next store); a folder that cannot be written turns the cache off for this
 * instance, with one warning.
 *
 * <p>The default folder is {@code $POLYGPU_CACHE_DIR}, else {@code $XDG_CACHE_HOME/polygpu/ptx}, else
 * {@code ~/.cache/polygpu/ptx}; {@code POLYGPU_CACHE_DIR=off} turns caching off.
 */
final class PtxCache {
    private static final System.Logger LOG = System.getLogger(PtxCache.class.getName());
    private static final String MAGIC = "polygpu-ptx-cache 1";

    /** What a cache entry holds. */
    record Entry(String ptx, Map<String, String> loweredNames) {
    }

    private final Path dir;
    private final AtomicBoolean disabled = new AtomicBoolean();

    /** A cache in {@code dir} (created on the first store); null for no caching. */
    PtxCache(Path dir) {
        this.dir = dir;
        if (dir == null) {
            disabled.set(true);
        }
    }

    /** The cache in the default folder for this process's environment. */
    static PtxCache atDefaultLocation() {
        return new PtxCache(defaultDir(System.getenv(), System.getProperty("user.home")));
    }

    /** The default folder for {@code env}; null when {@code POLYGPU_CACHE_DIR} is {@code off}. */
    static Path defaultDir(Map<String, String> env, String userHome) {
        String own = env.get("POLYGPU_CACHE_DIR");
        if (own != null && !own.isBlank()) {
            return own.strip().equalsIgnoreCase("off") ? null : Path.of(own.strip());
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "polygpu", "ptx");
        }
        return Path.of(userHome, ".cache", "polygpu", "ptx");
    }

    /** The folder, or null for a cache that never stores. */
    Path dir() {
        return dir;
    }

    boolean enabled() {
        return !disabled.get();
    }

    /** The key of a compilation: a SHA-256, in hex, of every input that changes the PTX. */
    static String key(String source, List<String> nameExpressions, List<String> options, String architecture,
            String compilerIdentity) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        field(sha, "source", source);
        field(sha, "names", String.valueOf(nameExpressions.size()));
        for (String n : nameExpressions) {
            field(sha, "name", n);
        }
        field(sha, "options", String.valueOf(options.size()));
        for (String o : options) {
            field(sha, "option", o);
        }
        field(sha, "arch", architecture);
        field(sha, "compiler", compilerIdentity);
        return HexFormat.of().formatHex(sha.digest());
    }

    /** Each field with its tag and length, so that no two different inputs give the same byte stream. */
    private static void field(MessageDigest sha, String tag, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        sha.update((tag + ":" + bytes.length + ":").getBytes(StandardCharsets.UTF_8));
        sha.update(bytes);
    }

    /** The file of an entry. */
    Path file(String key) {
        return dir.resolve(key + ".ptx");
    }

    /** The entry stored under {@code key}; null on a miss, an unreadable or a damaged entry. */
    Entry get(String key) {
        if (dir == null) {
            return null;
        }
        String text;
        try {
            text = Files.readString(file(key), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null; // absent, unreadable, or not UTF-8
        }
        return decode(key, text);
    }

    /** Stores {@code entry} under {@code key}; failures only turn the cache off. */
    void put(String key, Entry entry) {
        if (disabled.get()) {
            return;
        }
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, key + ".", ".tmp");
            Files.writeString(tmp, encode(key, entry), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file(key), StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException | RuntimeException e) {
            if (disabled.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.WARNING, "PTX cache folder " + dir + " cannot be written (" + e
                        + "); compiled kernels are not cached. Set POLYGPU_CACHE_DIR to a writable folder.");
            }
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the folder is already reported
                }
            }
        }
    }

    private static String encode(String key, Entry entry) {
        StringBuilder sb = new StringBuilder();
        sb.append(MAGIC).append('\n');
        sb.append("key ").append(key).append('\n');
        sb.append("lowered ").append(entry.loweredNames().size()).append('\n');
        for (Map.Entry<String, String> e : entry.loweredNames().entrySet()) {
            if (e.getKey().indexOf('\t') >= 0 || e.getKey().indexOf('\n') >= 0 || e.getValue().indexOf('\n') >= 0) {
                throw new IllegalArgumentException("name expression with a tab or newline: " + e.getKey());
            }
            sb.append(e.getKey()).append('\t').append(e.getValue()).append('\n');
        }
        sb.append("ptx ").append(entry.ptx().length()).append('\n');
        sb.append(entry.ptx());
        return sb.toString();
    }

    private static Entry decode(String key, String text) {
        String[] head = text.split("\n", 4);
        if (head.length < 4 || !head[0].equals(MAGIC) || !head[1].equals("key " + key)
                || !head[2].startsWith("lowered ")) {
            return null;
        }
        try {
            int count = Integer.parseInt(head[2].substring("lowered ".length()));
            String rest = head[3];
            Map<String, String> lowered = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                int nl = rest.indexOf('\n');
                int tab = rest.indexOf('\t');
                if (nl < 0 || tab < 0 || tab > nl) {
                    return null;
                }
                lowered.put(rest.substring(0, tab), rest.substring(tab + 1, nl));
                rest = rest.substring(nl + 1);
            }
            int nl = rest.indexOf('\n');
            if (nl < 0 || !rest.startsWith("ptx ")) {
                return null;
            }
            int length = Integer.parseInt(rest.substring(4, nl));
            String ptx = rest.substring(nl + 1);
            if (ptx.length() != length) {
                return null; // truncated or appended to
            }
            return new Entry(ptx, Map.copyOf(lowered));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
