package dev.polygpu.runtime;

import dev.polygpu.device.Device;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Measured link bandwidths on disk, so that a later context with the same devices and link settings does not
 * measure again ({@link MeasuredBandwidth}). One file per set of devices, {@code links-<hash>.csv} in
 * {@link #dir()}, named by a hash of its {@linkplain #key key}: two comment lines (a format line and the key
 * itself, which a reader compares, so a hash collision is a miss), then GrCUDA's CSV
 * ({@link BandwidthMatrix#csv}) with every link, both directions, in full precision. A file that is absent, cannot be
 * read or does not hold a whole matrix for its key is a miss; the next store replaces it. Writes go to a temporary
 * file in the same folder, then are moved over the entry, so a reader sees a whole entry or none.
 *
 * <p>The default folder is {@code $XDG_CACHE_HOME/polygpu/bandwidth}, else {@code ~/.cache/polygpu/bandwidth}.
 * Thread-safe: instances hold only the folder.
 */
public final class BandwidthCache {
    private static final String MAGIC = "# polygpu link bandwidths (GB/s), format 1";
    private static final String KEY = "# devices: ";

    private final Path dir;

    /** A cache in {@code dir} (created on the first store). */
    public BandwidthCache(Path dir) {
        this.dir = dir;
    }

    /** The cache in the default folder for this process's environment. */
    public static BandwidthCache atDefaultLocation() {
        return new BandwidthCache(defaultDir(System.getenv(), System.getProperty("user.home")));
    }

    /** The default folder for {@code env}: a relative {@code XDG_CACHE_HOME} is ignored, as the XDG spec says. */
    static Path defaultDir(Map<String, String> env, String userHome) {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "polygpu", "bandwidth");
        }
        return Path.of(userHome, ".cache", "polygpu", "bandwidth");
    }

    public Path dir() {
        return dir;
    }

    /**
     * What identifies a set of devices and their copy paths: each device's backend, ordinal, name and description,
     * in order, then {@code copySettings}, what else decides how fast they copy (the CPU devices' simulated link,
     * where the host's memory is). One line.
     */
    public static String key(List<Device> devices, String copySettings) {
        StringBuilder b = new StringBuilder();
        for (Device d : devices) {
            b.append(d.backend()).append(' ').append(d.ordinal()).append(" \"").append(d.properties().name())
                    .append("\" (").append(d).append("); ");
        }
        b.append(copySettings);
        return b.toString().replace('\n', ' ').replace('\r', ' ');
    }

    /** The file of the entry for {@code key}. */
    public Path file(String key) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] digest = sha.digest(key.getBytes(StandardCharsets.UTF_8));
        return dir.resolve("links-" + HexFormat.of().formatHex(digest, 0, 8) + ".csv");
    }

    /** What a lookup found: the matrix, or null with whether a file was there that could not be used. */
    public record Lookup(double[][] matrix, boolean damaged) {
    }

    /** The matrix stored for {@code key} over {@code devices} devices and the host. */
    public Lookup get(String key, int devices) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file(key), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new Lookup(null, false);
        } catch (IOException | RuntimeException e) {
            return new Lookup(null, true); // unreadable, or not UTF-8
        }
        double[][] m = decode(lines, key, devices);
        return new Lookup(m, m == null);
    }

    /** Stores {@code matrix} for {@code key}; an IOException says why it could not be written. */
    public void put(String key, double[][] matrix) throws IOException {
        Path target = file(key);
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
        try {
            Files.writeString(tmp, MAGIC + "\n" + KEY + key + "\n" + BandwidthMatrix.csv(matrix),
                    StandardCharsets.UTF_8);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The matrix a file's lines hold, or null unless they hold exactly every link for {@code key}. */
    private static double[][] decode(List<String> lines, String key, int devices) {
        if (lines.size() < 3 || !lines.get(0).equals(MAGIC) || !lines.get(1).equals(KEY + key)
                || !lines.get(2).equals(BandwidthMatrix.HEADER)) {
            return null;
        }
        int n = devices + 1;
        double[][] m = new double[n][n];
        boolean[][] seen = new boolean[n][n];
        int count = 0;
        for (String line : lines.subList(3, lines.size())) {
            double[] link = link(line.split(",", -1), devices);
            if (link == null) {
                return null;
            }
            int from = (int) link[0];
            int to = (int) link[1];
            if (seen[from][to]) {
                return null;
            }
            seen[from][to] = true;
            m[from][to] = link[2];
            count++;
        }
        return count == n * (n - 1) ? m : null;
    }

    /** One line's {from, to, GB/s} as locations (the host is {@code devices}), or null if it is not a valid link. */
    private static double[] link(String[] f, int devices) {
        if (f.length != 3) {
            return null;
        }
        try {
            int from = Integer.parseInt(f[0]);
            int to = Integer.parseInt(f[1]);
            double bw = Double.parseDouble(f[2]);
            if (from < -1 || to < -1 || from >= devices || to >= devices || from == to || !(bw > 0)
                    || Double.isInfinite(bw)) {
                return null;
            }
            return new double[] {from == -1 ? devices : from, to == -1 ? devices : to, bw};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
