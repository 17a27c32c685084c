package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readFloats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static dev.polygpu.device.cpu.ptx.PtxTestSupport.launch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CPU device loading fatbinaries that nvcc built from {@code bindkernel/increment.cu}: it runs their PTX entry,
 * decompressed (zstd by default, LZ4 with {@code -compress-mode=speed}), the newest of several, and refuses one
 * of cubins only. Results are checked against the kernels' arithmetic done in Java.
 */
class PtxFatbinTest {
    private static CpuDevice device;

    @BeforeAll
    static void open() {
        device = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        device.close();
    }

    private static byte[] bindkernel(String name) throws IOException {
        try (InputStream in = PtxFatbinTest.class.getResourceAsStream("/bindkernel/" + name)) {
            if (in == null) {
                throw new IOException("test resource bindkernel/" + name + " is missing");
            }
            return in.readAllBytes();
        }
    }

    @Test
    void kernelsOfACompressedFatbinaryRunOnTheCpuDevice() throws IOException {
        long seed = 0xfa7L;
        Random random = new Random(seed);
        for (String name : List.of("increment_ptx.fatbin", "increment_speed.fatbin", "increment.fatbin",
                "increment_all.fatbin")) {
            try (Module m = device.load(bindkernel(name), name)) {
                int n = 1000 + random.nextInt(50);
                int[] a = random.ints(n, -1_000_000, 1_000_000).toArray();
                UnifiedBuffer ints = ints(device, a);
                launch(m, "c_inc", (n + 127) / 128, 128, KernelArgs.builder().pointer(ints).i32(n - 3).build());
                launch(m, "aa::bb::inc_kernel", (n + 63) / 64, 64, KernelArgs.builder().pointer(ints).i32(n).build());
                int[] expected = a.clone();
                for (int i = 0; i < n; i++) {
                    expected[i] += (i < n - 3 ? 1 : 0) + 2;
                }
                assertArrayEquals(expected, readInts(ints, n), name + ", seed " + seed);

                float[] f = new float[n];
                for (int i = 0; i < n; i++) {
                    f[i] = (random.nextFloat() - 0.5f) * 100;
                }
                UnifiedBuffer floats = floats(device, f);
                float factor = 1.5f + random.nextFloat();
                launch(m, "scale<float>", (n + 255) / 256, 256, KernelArgs.builder().pointer(floats).f32(factor)
                        .i32(n).build());
                float[] scaled = new float[n];
                for (int i = 0; i < n; i++) {
                    scaled[i] = f[i] * factor;
                }
                assertArrayEquals(scaled, readFloats(floats, n), name + ", seed " + seed);
                ints.close();
                floats.close();
            }
        }
    }

    @Test
    void theNewestOfSeveralPtxEntriesIsRun() throws IOException {
        try (Module m = device.load(bindkernel("increment_multi.fatbin"), "multi.fatbin")) {
            assertTrue(m.intermediateCode().contains(".target sm_90"), "the compute_90 entry, not compute_75");
            int[] a = {5, -7, 11};
            UnifiedBuffer b = ints(device, a);
            launch(m, "c_inc", 1, 32, KernelArgs.builder().pointer(b).i32(3).build());
            assertArrayEquals(new int[] {6, -6, 12}, readInts(b, 3));
            b.close();
        }
    }

    @Test
    void aFatbinaryOfCubinsOnlyIsRefusedSayingTheCpuDeviceNeedsPtx() throws IOException {
        DeviceException e = assertThrows(DeviceException.class,
                () -> device.load(bindkernel("increment_sm75only.fatbin"), "k.fatbin"));
        assertEquals(CudaError.NOT_SUPPORTED, e.error());
        assertEquals("fatbinary k.fatbin holds sm_75 cubin (zstd): the CPU device runs PTX, not the machine code of"
                + " a cubin; rebuild it with PTX (nvcc -fatbin -gencode arch=compute_75,code=compute_75 … adds it)"
                + " or give bindkernel the PTX (nvcc -ptx -arch=compute_75)", e.detail());
    }

    @Test
    void aDamagedFatbinaryIsAnInvalidImageNamingTheEntry() throws IOException {
        byte[] b = bindkernel("increment_ptx.fatbin");
        // The entry's compressed size (bytes 16-19 of its header) cut from 737 to 700: the zstd frame ends early.
        // (nvcc's frames carry no checksum, so flipped bits in them may decode to other PTX instead.)
        b[16 + 16] = (byte) 700;
        b[16 + 17] = (byte) (700 >> 8);
        DeviceException e = assertThrows(DeviceException.class, () -> device.load(b, "bad.fatbin"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        assertTrue(e.detail().startsWith("fatbinary bad.fatbin: its compute_75 PTX entry (zstd, at byte 16) is"
                + " corrupt: its 700-byte compressed payload ends in"), e.detail());
        byte[] header = {0x50, (byte) 0xED, 0x55, (byte) 0xBA, 1, 0, 0x10, 0};
        e = assertThrows(DeviceException.class, () -> device.load(header, "short.fatbin"));
        assertEquals(CudaError.INVALID_IMAGE, e.error());
        assertTrue(e.detail().startsWith("fatbinary short.fatbin is shorter than its 16-byte header"), e.detail());
    }
}
