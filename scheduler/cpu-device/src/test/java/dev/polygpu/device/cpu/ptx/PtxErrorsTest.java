package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.ptx;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the CPU device refuses when it loads PTX (unsupported instructions, cubins, garbage, CUDA C), what it
 * refuses at launch (argument count and sizes), and the faults PTX kernels raise while they run (out-of-bounds
 * and misaligned accesses, barrier divergence), each leaving the device usable.
 */
class PtxErrorsTest {
    private static final String HEADER = ".version 8.5\n.target sm_75\n.address_size 64\n\n";
    private static CpuDevice device;
    private static Module fixture;

    @BeforeAll
    static void open() {
        device = new CpuDevice(2);
        fixture = device.load(PtxTestSupport.resource("kernels_sm75.ptx"), "kernels_sm75.ptx");
    }

    @AfterAll
    static void close() {
        device.close();
    }

    private static DeviceException loadFails(String text, String file) {
        return assertThrows(DeviceException.class, () -> ptx(device, text, file));
    }

    @Test
    void unsupportedInstructionIsRefusedAtLoadWithFileLineAndInstruction() {
        String text = HEADER + ".visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .b32 %r<3>;\n"
                + "\tmatch.any.sync.b32 %r1, %r2, -1;\n\tret;\n}\n";
        DeviceException e = loadFails(text, "match.ptx");
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertTrue(e.getMessage().startsWith("match.ptx:8: instruction match.any.sync.b32"), e.getMessage());
        assertTrue(e.getMessage().contains("match.any.sync.b32 %r1, %r2, -1"), e.getMessage());
    }

    @Test
    void unsupportedModifiersAndTypesAreRefusedAtLoad() {
        String sat = HEADER + ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tadd.sat.u32 %r1, %r2, %r2;\n\tret;\n}\n";
        DeviceException e = loadFails(sat, "sat.ptx");
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertTrue(e.getMessage().contains("sat.ptx:8") && e.getMessage().contains(".sat on .u32"), e.getMessage());
        String half2 = HEADER + ".visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
                + "\tld.param.u64 %rd1, [k_param_0];\n\tadd.f16x2 %r1, %r2, %r2;\n\tret;\n}\n";
        e = loadFails(half2, "half2.ptx");
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertTrue(e.getMessage().contains("half2.ptx:10") && e.getMessage().contains(".f16x2"), e.getMessage());
    }

    @Test
    void malformedPtxIsInvalidPtxWithTheLine() {
        String label = HEADER + ".visible .entry k()\n{\n\tbra.uni $L_nowhere;\n\tret;\n}\n";
        DeviceException e = loadFails(label, "label.ptx");
        assertEquals(CudaError.INVALID_PTX, e.error());
        assertTrue(e.getMessage().startsWith("label.ptx:7: ") && e.getMessage().contains("$L_nowhere"),
                e.getMessage());
        String reg = HEADER + ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r5, 1;\n\tret;\n}\n";
        e = loadFails(reg, "reg.ptx");
        assertEquals(CudaError.INVALID_PTX, e.error());
        assertTrue(e.getMessage().startsWith("reg.ptx:8: %r5 is not declared"), e.getMessage());
    }

    @Test
    void cubinsAreNotSupported() {
        byte[] elf = {0x7F, 'E', 'L', 'F', 2, 1, 1, 0x33, 0, 0, 0, 0};
        DeviceException e = assertThrows(DeviceException.class, () -> device.load(elf, "k.cubin"));
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertTrue(e.getMessage().startsWith("k.cubin is a cubin: machine code for one GPU architecture, which the"
                + " CPU device cannot run; give bindkernel the PTX (nvcc -ptx file.cu) or buildkernel the CUDA C"
                + " source"), e.getMessage());
        // A fatbinary runs its PTX entry (PtxFatbinTest); the wrapper nvcc puts around one in a host object is no
        // image by itself.
        byte[] wrapper = {(byte) 0xB1, 0x43, 0x62, 0x46, 1, 0, 0, 0};
        e = assertThrows(DeviceException.class, () -> device.load(wrapper, "k.fatbin"));
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertTrue(e.getMessage().startsWith("k.fatbin is a cubin"), e.getMessage());
    }

    @Test
    void garbageEmptyAndCudaCSourceAreInvalidImages() {
        byte[] garbage = new byte[256];
        new Random(7).nextBytes(garbage);
        garbage[0] = 'x';
        DeviceException e = assertThrows(DeviceException.class, () -> device.load(garbage, "noise.bin"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        assertTrue(e.getMessage().startsWith("noise.bin is neither PTX"), e.getMessage());
        e = assertThrows(DeviceException.class, () -> device.load(new byte[0], "empty.ptx"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        byte[] source = PtxTestSupport.resource("kernels.cu");
        e = assertThrows(DeviceException.class, () -> device.load(source, "kernels.cu"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        assertTrue(e.getMessage().contains("CUDA C source") && e.getMessage().contains("buildkernel"),
                e.getMessage());
    }

    @Test
    void outOfBoundsAccessFaultsAndTheNextLaunchRuns() {
        UnifiedBuffer y = floats(device, new float[256]);
        UnifiedBuffer x = floats(device, new float[256]);
        device.defaultStream().launch(fixture.function("saxpy"), LaunchConfig.of(3, 128),
                KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(300).build());
        KernelFaultException f = assertThrows(KernelFaultException.class, device::synchronize);
        assertEquals(CudaError.ILLEGAL_ADDRESS, f.error());
        assertEquals("saxpy", f.kernel());
        String m = f.getMessage();
        assertTrue(m.startsWith("kernel 'saxpy' (kernels_sm75.ptx line "), m);
        assertTrue(m.contains("ld.global.f32") && m.contains("blockIdx (2,0,0) threadIdx (")
                && m.contains("1024 bytes from the start of buffer #") && m.contains("past its end"), m);

        float[] xs = new float[256];
        float[] ys = new float[256];
        for (int i = 0; i < 256; i++) {
            xs[i] = i;
            ys[i] = 1;
        }
        UnifiedBuffer y2 = floats(device, ys);
        launch(fixture, "saxpy", 2, 128, KernelArgs.builder().pointer(y2).pointer(floats(device, xs)).f32(2f)
                .i32(256).build());
        float[] r = readFloats(y2, 256);
        for (int i = 0; i < 256; i++) {
            assertEquals(2f * i + 1, r[i]);
        }
    }

    @Test
    void misalignedAccessIsAMisalignedAddressFault() {
        UnifiedBuffer y = floats(device, new float[64]);
        UnifiedBuffer x = floats(device, new float[64]);
        device.defaultStream().launch(fixture.function("saxpy"), LaunchConfig.of(1, 32),
                KernelArgs.builder().pointer(y).pointer(x, 2).f32(2f).i32(8).build());
        KernelFaultException f = assertThrows(KernelFaultException.class, device::synchronize);
        assertEquals(CudaError.MISALIGNED_ADDRESS, f.error());
        assertTrue(f.getMessage().contains("misaligned access of 4 bytes"), f.getMessage());
    }

    @Test
    void sharedMemoryOutOfBounds() {
        String text = HEADER + ".visible .entry shoob(.param .u32 shoob_param_0)\n{\n"
                + "\t.shared .align 4 .b8 buf[16];\n\t.reg .b32 %r<4>;\n"
                + "\tld.param.u32 %r1, [shoob_param_0];\n\tmov.u32 %r2, buf;\n\tadd.s32 %r3, %r2, %r1;\n"
                + "\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n";
        Module m = ptx(device, text, "shoob.ptx");
        launch(m, "shoob", 1, 4, KernelArgs.builder().i32(12).build());
        device.defaultStream().launch(m.function("shoob"), LaunchConfig.of(1, 4), KernelArgs.builder().i32(16)
                .build());
        KernelFaultException f = assertThrows(KernelFaultException.class, device::synchronize);
        assertEquals(CudaError.ILLEGAL_ADDRESS, f.error());
        assertTrue(f.getMessage().contains("shoob.ptx line 12: st.shared.u32 [%r3], %r1")
                && f.getMessage().contains("outside the block's shared memory (16 static bytes)"), f.getMessage());
    }

    @Test
    void argumentCountAndSizesAreChecked() {
        UnifiedBuffer b = device.allocate(64);
        DeviceException e = assertThrows(DeviceException.class, () -> device.defaultStream().launch(
                fixture.function("saxpy"), LaunchConfig.of(1, 1), KernelArgs.builder().pointer(b).pointer(b)
                        .f32(1f).build()));
        assertEquals(CudaError.INVALID_VALUE, e.error());
        assertTrue(e.getMessage().startsWith("kernel 'saxpy' takes 4 arguments (.u64 saxpy_param_0, .u64"
                + " saxpy_param_1, .f32 saxpy_param_2, .u32 saxpy_param_3) as its PTX declares them, got 3"),
                e.getMessage());
        e = assertThrows(DeviceException.class, () -> device.defaultStream().launch(fixture.function("saxpy"),
                LaunchConfig.of(1, 1), KernelArgs.builder().pointer(b).pointer(b).f64(1.0).i32(1).build()));
        assertTrue(e.getMessage().startsWith("argument 3 ('saxpy_param_2') of kernel 'saxpy' is declared .f32"
                + " (4 bytes) in the PTX, got double"), e.getMessage());
        e = assertThrows(DeviceException.class, () -> device.defaultStream().launch(fixture.function("saxpy"),
                LaunchConfig.of(1, 1), KernelArgs.builder().pointer(b).pointer(b).f32(1f).pointer(b).build()));
        assertTrue(e.getMessage().contains("a pointer takes an 8-byte integer parameter"), e.getMessage());
        e = assertThrows(DeviceException.class, () -> device.defaultStream().launch(fixture.function("saxpy"),
                LaunchConfig.of(1, 1), KernelArgs.builder().pointer(b).i32(5).f32(1f).i32(1).build()));
        assertEquals(CudaError.INVALID_VALUE, e.error());
        assertTrue(e.getMessage().startsWith("argument 2 ('saxpy_param_1') of kernel 'saxpy' is declared .u64 (8"
                + " bytes) in the PTX, got int 5 (4 bytes)"), e.getMessage());
    }

    @Test
    void barrierDivergenceIsAFaultNotAHang() {
        String text = HEADER + ".visible .entry diverge()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n"
                + "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@%p1 bra $L_low;\n\tbar.sync 0;\n"
                + "\tbra.uni $L_end;\n$L_low:\n\tbar.sync 0;\n$L_end:\n\tret;\n}\n";
        Module m = ptx(device, text, "diverge.ptx");
        KernelFaultException f = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            device.defaultStream().launch(m.function("diverge"), LaunchConfig.of(2, 64), KernelArgs.builder()
                    .build());
            return assertThrows(KernelFaultException.class, device::synchronize);
        });
        assertTrue(f.getMessage().contains("barrier divergence") && f.getMessage().contains("line 12")
                && f.getMessage().contains("line 15"), f.getMessage());
        launch(fixture, "saxpy", 1, 1, KernelArgs.builder().pointer(device.allocate(4)).pointer(device.allocate(4))
                .f32(1f).i32(1).build());
    }

    @Test
    void exitedThreadsDoNotCountAtABarrier() {
        String text = HEADER + ".visible .entry partial(.param .u64 partial_param_0)\n{\n\t.reg .pred %p<2>;\n"
                + "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n\tld.param.u64 %rd1, [partial_param_0];\n"
                + "\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tsetp.ge.u32 %p1, %r1, 16;\n"
                + "\t@%p1 exit;\n\tbar.sync 0;\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
                + "\tadd.s32 %r2, %r1, 100;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n";
        Module m = ptx(device, text, "partial.ptx");
        UnifiedBuffer out = device.allocate(4 * 32);
        launch(m, "partial", 1, 32, KernelArgs.builder().pointer(out).build());
        int[] expected = new int[32];
        for (int i = 0; i < 16; i++) {
            expected[i] = i + 100;
        }
        assertArrayEquals(expected, readInts(out, 32));
    }

    @Test
    void warpCollectiveWaitingForALaneAtABarrierIsAFault() {
        String text = HEADER + ".visible .entry shflbar()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
                + "\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@%p1 bra $L_low;\n\tbar.sync 0;\n"
                + "\tret;\n$L_low:\n\tshfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n\tret;\n}\n";
        Module m = ptx(device, text, "shflbar.ptx");
        KernelFaultException f = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            device.defaultStream().launch(m.function("shflbar"), LaunchConfig.of(1, 32), KernelArgs.builder()
                    .build());
            return assertThrows(KernelFaultException.class, device::synchronize);
        });
        assertTrue(f.getMessage().contains("waits for lane 16") && f.getMessage().contains("line 12"),
                f.getMessage());
    }

    @Test
    void integerDivisionByZeroGivesAllOnesAsNvidiaGpusDo() {
        String text = HEADER + ".visible .entry divz(.param .u64 divz_param_0, .param .u32 divz_param_1)\n{\n"
                + "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [divz_param_0];\n"
                + "\tld.param.u32 %r1, [divz_param_1];\n\tmov.u32 %r2, 77;\n\tdiv.s32 %r3, %r2, %r1;\n"
                + "\tdiv.u32 %r4, %r2, %r1;\n\trem.s32 %r5, %r2, %r1;\n\tst.global.u32 [%rd1], %r3;\n"
                + "\tst.global.u32 [%rd1+4], %r4;\n\tst.global.u32 [%rd1+8], %r5;\n\tret;\n}\n";
        Module m = ptx(device, text, "divz.ptx");
        UnifiedBuffer out = device.allocate(12);
        launch(m, "divz", 1, 1, KernelArgs.builder().pointer(out).u32(0).build());
        assertArrayEquals(new int[] {-1, -1, -1}, readInts(out, 3));
        launch(m, "divz", 1, 1, KernelArgs.builder().pointer(out).u32(7).build());
        assertArrayEquals(new int[] {11, 11, 0}, readInts(out, 3));
    }

    @Test
    void moduleConstantsAndGlobalsWithInitializers() {
        String text = HEADER
                + ".const .align 4 .b8 table[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
                + ".global .align 4 .u32 counter = 5;\n"
                + ".visible .entry globals(.param .u64 globals_param_0)\n{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<9>;\n"
                + "\tld.param.u64 %rd1, [globals_param_0];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n"
                + "\tmov.u64 %rd3, table;\n\tadd.s64 %rd4, %rd3, %rd2;\n\tld.const.u32 %r2, [%rd4];\n"
                + "\tatom.global.add.u32 %r3, [counter], 1;\n\tbar.sync 0;\n\tmov.u64 %rd5, counter;\n"
                + "\tcvta.global.u64 %rd6, %rd5;\n\tld.u32 %r4, [%rd6];\n\tadd.s64 %rd7, %rd1, %rd2;\n"
                + "\tmul.lo.s32 %r5, %r2, 10;\n\tadd.s32 %r6, %r5, %r4;\n\tst.global.u32 [%rd7], %r6;\n\tret;\n}\n";
        Module m = ptx(device, text, "globals.ptx");
        UnifiedBuffer out = device.allocate(16);
        launch(m, "globals", 1, 4, KernelArgs.builder().pointer(out).build());
        assertArrayEquals(new int[] {19, 29, 39, 49}, readInts(out, 4));
    }

    @Test
    void unknownKernelNameListsTheKernels() {
        DeviceException e = assertThrows(DeviceException.class, () -> fixture.function("sаxpy_missing"));
        assertEquals(CudaError.NOT_FOUND, e.error());
        assertTrue(e.getMessage().contains("saxpy") && e.getMessage().contains("block_sum"), e.getMessage());
    }

    @Test
    void textIsDecodedAsUtf8AndIntermediateCodeIsTheText() {
        String text = HEADER + "// a comment: ünïcödé\n.visible .entry k()\n{\n\tret;\n}\n";
        Module m = device.load(text.getBytes(StandardCharsets.UTF_8), "u.ptx");
        assertEquals(text, m.intermediateCode());
        launch(m, "k", 2, 33, KernelArgs.builder().build());
    }
}
