package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.runtime.BandwidthMatrix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code polygpu --bandwidth-matrix}, run in-process: measured on CPU devices with a simulated link, printed in
 * GrCUDA's CSV that reads back as {@code grcuda.BandwidthMatrix}, read from the cache the second time, and its
 * errors. Every CPU device gets the same link (0.05 GB/s); the host's memory is device 0's, so every copy but those
 * between the host and device 0 crosses a link and cannot be faster than it.
 */
class LauncherBandwidthTest {
    private static final String[] DEVICES = {"--grcuda.Device=cpu", "--grcuda.NumberOfGPUs=2",
        "--grcuda.CpuDeviceLink=bandwidth=0.05,latency=5"};

    @TempDir
    Path dir;

    private static String[] args(String first, String... more) {
        String[] all = new String[1 + DEVICES.length + more.length];
        all[0] = first;
        System.arraycopy(DEVICES, 0, all, 1, DEVICES.length);
        System.arraycopy(more, 0, all, 1 + DEVICES.length, more.length);
        return all;
    }

    @Test
    void printsTheMeasuredMatrixThatReadsBack() throws IOException {
        Guests.Run measured = Guests.launch(args("--bandwidth-matrix=measure"));
        assertEquals(0, measured.status(), measured::toString);
        assertTrue(measured.err().contains("from \\ to") && measured.err().contains("link bandwidths measured in "),
                measured::toString);
        double[][] m = BandwidthMatrix.parse(measured.out().lines().toList(), 2, "stdout");
        // Host is location 2. Over the link: host <-> device 1 (the CPU line read last sets both), 0 <-> 1.
        for (double bw : new double[] {m[2][1], m[1][2], m[0][1]}) {
            assertTrue(bw > 0 && bw <= 0.05 * 1.02, measured::toString);
        }

        Guests.Run cached = Guests.launch(args("--bandwidth-matrix"));
        assertEquals(0, cached.status(), cached::toString);
        assertTrue(cached.err().contains("link bandwidths from the cache "), cached::toString);
        assertEquals(measured.out(), cached.out(), "the cache holds the figures printed");

        Path file = Files.writeString(dir.resolve("bw.csv"), measured.out());
        Guests.Run fromFile = Guests.launch(args("--bandwidth-matrix", "--grcuda.BandwidthMatrix=" + file));
        assertEquals(0, fromFile.status(), fromFile::toString);
        assertTrue(fromFile.err().contains("link bandwidths from " + file), fromFile::toString);
        double[][] again = BandwidthMatrix.parse(fromFile.out().lines().toList(), 2, "stdout");
        // The same matrix, up to the 6 significant digits printed (the file's two directions between devices are
        // averaged, a 7th digit).
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(m[i][j], again[i][j], m[i][j] * 1e-5, i + "," + j + "\n" + fromFile);
            }
        }
    }

    @Test
    void badInputIsNamed() throws IOException {
        Guests.Run r = Guests.launch(args("--bandwidth-matrix=sometimes"));
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains("--bandwidth-matrix takes cached (the default: measure only when no figures are"
                + " cached) or measure (measure again), got 'sometimes'"), r::toString);

        r = Guests.launch(args("--bandwidth-matrix", "app.py"));
        assertEquals(2, r.status(), r::toString);
        assertTrue(r.err().contains("--bandwidth-matrix prints the link bandwidths and runs no file: run app.py"
                + " without it"), r::toString);

        Path bad = Files.writeString(dir.resolve("bad.csv"), "start_id,end_id,bandwidth\n-1,0,12\n-1,1,12\n0,1\n");
        r = Guests.launch(args("--bandwidth-matrix", "--grcuda.BandwidthMatrix=" + bad));
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().contains("polygpu: grcuda.BandwidthMatrix: " + bad + ":4: expected"
                + " start_id,end_id,bandwidth, got \"0,1\""), r::toString);

        Path missing = dir.resolve("missing.csv");
        r = Guests.launch(args("--bandwidth-matrix", "--grcuda.BandwidthMatrix=" + missing));
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.err().contains("polygpu: warning: grcuda.BandwidthMatrix=" + missing + " cannot be read ("),
                r::toString);
        assertTrue(r.out().startsWith("start_id,end_id,bandwidth\n"), r::toString);
    }
}
