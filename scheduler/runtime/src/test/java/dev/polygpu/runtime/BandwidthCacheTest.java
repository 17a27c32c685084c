package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.CpuLink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The on-disk cache of measured bandwidths: hits, misses, damaged entries, a folder that cannot be written. */
class BandwidthCacheTest {
    /** A matrix of two devices and the host, written by hand; 6 significant digits survive the file. */
    private static final double[][] M = {{0, 3.5, 0.25}, {2.125, 0, 0.5}, {7, 0.75, 0}};
    private static final String KEY = "cpu 0 \"x\" (x); cpu 1 \"x\" (x 1); link=bandwidth=1.0,latency=5.0";

    @TempDir
    Path dir;
    private final List<Device> devices = new ArrayList<>();

    @BeforeEach
    void open() {
        for (int d = 0; d < 2; d++) {
            CpuDevice c = new CpuDevice(d, 1, null);
            c.setLink(new CpuLink(2, 5));
            devices.add(c);
        }
    }

    @AfterEach
    void close() {
        devices.forEach(Device::close);
    }

    private BandwidthProbe probe() {
        return new BandwidthProbe(devices, devices.get(0)::allocate).budget(Duration.ofMillis(30));
    }

    @Test
    void anEntryReadsBackAndOnlyForItsKey() throws Exception {
        BandwidthCache cache = new BandwidthCache(dir.resolve("new"));
        assertFalse(cache.get(KEY, 2).damaged());
        assertNull(cache.get(KEY, 2).matrix());
        cache.put(KEY, M);
        assertTrue(Files.isRegularFile(cache.file(KEY)));
        assertArrayEquals(M, cache.get(KEY, 2).matrix());
        assertNull(cache.get(KEY + " ", 2).matrix());
        assertFalse(cache.get(KEY + " ", 2).damaged());
        // The file holds GrCUDA's CSV below two comment lines: the lines after them are what BandwidthMatrix.csv writes.
        List<String> lines = Files.readAllLines(cache.file(KEY));
        assertEquals("# devices: " + KEY, lines.get(1));
        assertEquals(BandwidthMatrix.csv(M), String.join("\n", lines.subList(2, lines.size())) + "\n");
    }

    @Test
    void theKeyNamesTheDevicesInOrderAndTheCopySettings() {
        String k = BandwidthCache.key(devices, "cpu-link=bandwidth=2.0,latency=5.0");
        assertTrue(k.startsWith("cpu 0 \""), k);
        assertTrue(k.endsWith("; cpu-link=bandwidth=2.0,latency=5.0"), k);
        assertNotEquals(k, BandwidthCache.key(devices, "cpu-link=bandwidth=3.0,latency=5.0"));
        assertNotEquals(k, BandwidthCache.key(List.of(devices.get(1), devices.get(0)),
                "cpu-link=bandwidth=2.0,latency=5.0"));
        BandwidthCache cache = new BandwidthCache(dir);
        assertNotEquals(cache.file(k), cache.file(BandwidthCache.key(devices, "other")));
    }

    @Test
    void damagedEntriesAreMisses() throws Exception {
        BandwidthCache cache = new BandwidthCache(dir);
        cache.put(KEY, M);
        Path f = cache.file(KEY);
        String good = Files.readString(f);
        List<String> damaged = List.of(
                "garbage\n",
                good.replace("# devices: " + KEY, "# devices: another set"),   // a hash collision
                good.substring(0, good.lastIndexOf("0,1,")),                     // truncated: a link missing
                good.replace("0,1,3.5", "0,1,NaN"),
                good.replace("0,1,3.5", "0,1,-3.5"),
                good.replace("0,1,3.5", "0,1,3.5,9"),
                good.replace("0,1,3.5", "1,0,3.5"),                              // one link twice, one missing
                good + "0,2,4\n");                                              // a device that is not there
        for (String text : damaged) {
            Files.writeString(f, text);
            BandwidthCache.Lookup l = cache.get(KEY, 2);
            assertNull(l.matrix(), text);
            assertTrue(l.damaged(), text);
        }
        Files.write(f, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertTrue(cache.get(KEY, 2).damaged(), "bytes that are not UTF-8");
    }

    @Test
    void aMissMeasuresAndStoresAHitDoesNotMeasure() throws Exception {
        BandwidthCache cache = new BandwidthCache(dir);
        MeasuredBandwidth first = MeasuredBandwidth.find(probe(), "settings", cache, false);
        assertNotNull(first.measurement());
        assertFalse(first.replaced());
        assertNull(first.cacheWarning());
        assertTrue(Files.isRegularFile(first.cacheFile()));
        MeasuredBandwidth second = MeasuredBandwidth.find(probe(), "settings", cache, false);
        assertNull(second.measurement(), "read from the cache, not measured");
        assertEquals(first.cacheFile(), second.cacheFile());
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(first.matrix()[i][j], second.matrix()[i][j], first.matrix()[i][j] * 1e-5, i + "," + j);
            }
        }
        // Other link settings are another entry; measuring again replaces the entry.
        assertNotNull(MeasuredBandwidth.find(probe(), "other settings", cache, false).measurement());
        assertNotNull(MeasuredBandwidth.find(probe(), "settings", cache, true).measurement());
    }

    @Test
    void aDamagedEntryIsMeasuredAgainAndReplaced() throws Exception {
        BandwidthCache cache = new BandwidthCache(dir);
        String key = BandwidthCache.key(devices, "settings");
        Files.writeString(cache.file(key), "start_id,end_id,bandwidth\n-1,0,oops\n");
        MeasuredBandwidth m = MeasuredBandwidth.find(probe(), "settings", cache, false);
        assertNotNull(m.measurement());
        assertTrue(m.replaced());
        assertNotNull(cache.get(key, 2).matrix(), Files.readString(cache.file(key)));
    }

    @Test
    void aFolderThatCannotBeWrittenIsAWarningAndTheMatrixIsUsed() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder", StandardCharsets.UTF_8);
        BandwidthCache cache = new BandwidthCache(file.resolve("bandwidth"));
        MeasuredBandwidth m = MeasuredBandwidth.find(probe(), "settings", cache, false);
        assertNotNull(m.measurement());
        assertTrue(m.matrix()[2][1] > 0);
        assertTrue(m.cacheWarning().startsWith("the measured link bandwidths cannot be cached in " + cache.dir()),
                m.cacheWarning());
    }

    @Test
    void theDefaultFolderFollowsXdg() {
        assertEquals(Path.of("/x/polygpu/bandwidth"), BandwidthCache.defaultDir(Map.of("XDG_CACHE_HOME", "/x"),
                "/home/u"));
        // The XDG spec says a relative XDG_CACHE_HOME is to be ignored.
        assertEquals(Path.of("/home/u/.cache/polygpu/bandwidth"), BandwidthCache.defaultDir(
                Map.of("XDG_CACHE_HOME", "rel"), "/home/u"));
        assertEquals(Path.of("/home/u/.cache/polygpu/bandwidth"), BandwidthCache.defaultDir(Map.of(), "/home/u"));
    }
}
