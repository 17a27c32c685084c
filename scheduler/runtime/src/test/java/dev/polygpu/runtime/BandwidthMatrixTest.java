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
}
