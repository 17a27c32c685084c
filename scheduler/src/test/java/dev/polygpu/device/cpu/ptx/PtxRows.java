package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A harness for single-instruction tests of the PTX interpreter: a body of PTX runs on one thread per row of
 * inputs, which it finds in registers, and leaves its results in other registers.
 */
final class PtxRows {
    private PtxRows() {
    }

    /**
     * Runs {@code body} with one thread per row of 32 input bytes, which it sees as eight .b32 registers
     * {@code %a0..%a7} and as four .b64 registers {@code %x0..%x3} (the same bytes); it writes .b32 {@code %d0..%d7}
     * and .b64 {@code %y0..%y3} (zero at the start), returned as 16 ints per row (the %d, then the %y as pairs).
     * {@code file} names the module in messages.
     */
    static int[] run(Device device, String file, String body, List<int[]> rows) {
        StringBuilder k = new StringBuilder(".version 8.0\n.target sm_75\n.address_size 64\n"
                + ".visible .entry k(.param .u64 k_out, .param .u64 k_in)\n{\n"
                + "\t.reg .b32 %a<8>;\n\t.reg .b32 %d<8>;\n\t.reg .b64 %x<4>;\n\t.reg .b64 %y<4>;\n"
                + "\t.reg .b16 %h<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %t;\n"
                + "\tld.param.u64 %rd0, [k_out];\n\tld.param.u64 %rd1, [k_in];\n\tmov.u32 %t, %tid.x;\n"
                + "\tmul.wide.u32 %rd2, %t, 32;\n\tadd.s64 %rd1, %rd1, %rd2;\n"
                + "\tmul.wide.u32 %rd2, %t, 64;\n\tadd.s64 %rd0, %rd0, %rd2;\n");
        for (int i = 0; i < 8; i++) {
            k.append("\tld.global.b32 %a").append(i).append(", [%rd1+").append(4 * i).append("];\n");
            k.append("\tmov.b32 %d").append(i).append(", 0;\n");
        }
        for (int i = 0; i < 4; i++) {
            k.append("\tld.global.b64 %x").append(i).append(", [%rd1+").append(8 * i).append("];\n");
            k.append("\tmov.b64 %y").append(i).append(", 0;\n");
        }
        k.append(body);
        for (int i = 0; i < 8; i++) {
            k.append("\tst.global.b32 [%rd0+").append(4 * i).append("], %d").append(i).append(";\n");
        }
        for (int i = 0; i < 4; i++) {
            k.append("\tst.global.b64 [%rd0+").append(32 + 8 * i).append("], %y").append(i).append(";\n");
        }
        k.append("\tret;\n}\n");
        Module m = PtxTestSupport.ptx(device, k.toString(), file);
        int[] in = new int[8 * rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            System.arraycopy(rows.get(i), 0, in, 8 * i, 8);
        }
        UnifiedBuffer input = ints(device, in);
        UnifiedBuffer out = device.allocate(64L * rows.size());
        launch(m, "k", 1, rows.size(), KernelArgs.builder().pointer(out).pointer(input).build());
        int[] got = readInts(out, 16 * rows.size());
        input.free();
        out.free();
        return got;
    }

    /** The edge rows, then {@code random} rows from {@code seed}; short rows are padded with zeros. */
    static List<int[]> rows(long seed, int random, int[]... edges) {
        List<int[]> rows = new ArrayList<>();
        for (int[] e : edges) {
            rows.add(Arrays.copyOf(e, 8));
        }
        Random rnd = new Random(seed);
        for (int i = 0; i < random; i++) {
            int[] r = new int[8];
            for (int j = 0; j < 8; j++) {
                r[j] = rnd.nextInt();
            }
            rows.add(r);
        }
        return rows;
    }
}
