package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** GrCUDA's bandwidth CSV read into a matrix; expected values worked out by hand from the lines. */
class BandwidthMatrixTest {
    @Test
    void readsGrcudasFormat() {
        List<String> lines = List.of("start_id,end_id,bandwidth",
                "-1,0,12.7", "-1,1,11.2", "0,1,40.9", "1,0,30.1", "0,2,99", "2,-1,5", "", "1,1,600");
        double[][] m = BandwidthMatrix.parse(lines, 2, "bw.csv");
        // host is index 2; CPU lines set both ways (floored: 12, 11); 0<->1 averaged from 40 and 30 = 35;
        // lines naming device 2 are beyond the two devices used and skipped
        assertArrayEquals(new double[] {0, 35, 12}, m[0]);
        assertArrayEquals(new double[] {35, 600, 11}, m[1]);
        assertArrayEquals(new double[] {12, 11, 0}, m[2]);
    }

    @Test
    void aLineThatDoesNotParseIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrix.parse(
                List.of("h", "-1,0,12", "0,x,3"), 1, "bw.csv"));
        assertEquals("bw.csv:3: expected two device ids (-1 for the CPU) and a bandwidth in GB/s, got \"0,x,3\"",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrix.parse(List.of("h", "0;1;3"), 2,
                "bw.csv"));
        assertEquals("bw.csv:2: expected start_id,end_id,bandwidth, got \"0;1;3\"", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrix.parse(List.of("h", "-1,0,3",
                "-1,1,3"), 2, "bw.csv"));
        assertEquals("bw.csv: no line gives the bandwidth between device 0 and device 1; each pair of devices used,"
                + " and each with the CPU, needs one", e.getMessage());
    }

    @Test
    void badBandwidthsAndAMissingHeaderAreNamed() {
        for (String bad : List.of("0", "-2", "NaN", "Infinity")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrix.parse(
                    List.of("h", "-1,0," + bad), 1, "bw.csv"));
            assertEquals("bw.csv:2: the bandwidth must be a positive number of GB/s, got \"-1,0," + bad + "\"",
                    e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BandwidthMatrix.parse(
                List.of("-1,0,12", "0,-1,12"), 1, "bw.csv"));
        assertEquals("bw.csv:1: the first line is skipped as GrCUDA's header, but it holds a link (\"-1,0,12\");"
                + " start the file with the line start_id,end_id,bandwidth", e.getMessage());
    }

    @Test
    void aBandwidthUnderOneIsKept() {
        // GrCUDA would round 0.5 down to 0, which no transfer time can use; 2.9 still becomes 2.
        double[][] m = BandwidthMatrix.parse(List.of("h", "-1,0,0.5", "-1,1,2.9", "0,1,0.25", "1,0,0.75"), 2, "f");
        assertArrayEquals(new double[] {0, 0.5, 0.5}, m[0]);
        assertArrayEquals(new double[] {0.5, 0, 2}, m[1]);
        assertArrayEquals(new double[] {0.5, 2, 0}, m[2]);
    }

    @Test
    void writesGrcudasFormatThatReadsBack() {
        // Two devices and the host (index 2); every direction differs, so each line shows where it came from.
        double[][] m = {{0, 3.25, 0.123456789}, {5, 0, 40}, {12.5, 7, 0}};
        String csv = BandwidthMatrix.csv(m);
        assertEquals("""
                start_id,end_id,bandwidth
                -1,0,12.5
                0,-1,0.123457
                -1,1,7
                1,-1,40
                0,1,3.25
                1,0,5
                """, csv);
        // Read back with GrCUDA's rules: a CPU line sets both directions and the later (d,-1) one counts, floored
        // from 1 GB/s up (0.123457 kept); 0<->1 is the mean of 3 and 5.
        double[][] back = BandwidthMatrix.parse(csv.lines().toList(), 2, "csv");
        assertArrayEquals(new double[] {0, 4, 0.123457}, back[0]);
        assertArrayEquals(new double[] {4, 0, 40}, back[1]);
        assertArrayEquals(new double[] {0.123457, 40, 0}, back[2]);
    }
}
