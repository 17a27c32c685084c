package dev.polygpu.device.cpu.kernel;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.assertContains;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.floats;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.DifferentialOracle;
import dev.polygpu.device.cpu.oracle.OracleArg;
import dev.polygpu.device.cpu.oracle.OracleCase;
import dev.polygpu.device.cpu.oracle.OracleResult;
import dev.polygpu.device.cpu.oracle.OracleTests;
import dev.polygpu.device.cpu.oracle.OracleType;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No silent wrong results from pointer tricks: a scalar access at an address that is not a multiple of its size
 * faults with MISALIGNED_ADDRESS as on a GPU (and as nvcc's PTX does on the PTX interpreter), aligned accesses
 * through casts still work, and the difference of pointers into two allocations is their distance in memory, so
 * using it to index one of them faults instead of landing in that one's own memory.
 */
@Timeout(60)
class KernelAlignmentTest {
    private static final String SOURCE = """
            __global__ void intAtByte(int* x, int bytes)
            {
                *(int*)((char*)x + bytes) = 5;
            }

            __global__ void doubleAfterFloat(float* f, int k, double* out)
            {
                double* d = (double*)(f + k);
                out[0] = d[0];
            }

            __global__ void shortAtByte(const int* x, int bytes, int* out)
            {
                out[0] = *(const short*)((const char*)x + bytes);
            }

            __global__ void acrossBuffers(int* x, int* y)
            {
                x[(y - x) + 3] = 7;
            }

            __global__ void withinBuffer(int* x)
            {
                int* y = x + 5;
                x[(y - x) + 3] = 7;
            }
            """;

    private static CpuDevice dev;

    @BeforeAll
    static void open() {
        dev = new CpuDevice(2);
    }

    @AfterAll
    static void close() {
        dev.close();
    }

    private static KernelFaultException fault(String kernel, KernelArgs args) {
        Stream s = dev.defaultStream();
        s.launch(dev.compile(SOURCE, "align.cu").function(kernel), LaunchConfig.of(1, 1), args);
        return assertThrows(KernelFaultException.class, s::synchronize);
    }

    private static void run(String kernel, KernelArgs args) {
        Stream s = dev.defaultStream();
        s.launch(dev.compile(SOURCE, "align.cu").function(kernel), LaunchConfig.of(1, 1), args);
        assertDoesNotThrow(s::synchronize);
    }

    @Test
    void anIntOneBytePastAnIntFaults() {
        UnifiedBuffer x = ints(dev, new int[4]);
        KernelFaultException e = fault("intAtByte", KernelArgs.builder().pointer(x).i32(1).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error(), e.getMessage());
        assertContains("kernel 'intAtByte' (line 3, column 5)", e.getMessage());
        assertContains("misaligned access of 4 bytes at byte 1 of argument 'x'", e.getMessage());
        assertArrayEquals(new int[4], readInts(x, 4), "the faulting store wrote nothing");
        run("intAtByte", KernelArgs.builder().pointer(x).i32(8).build());
        assertArrayEquals(new int[] {0, 0, 5, 0}, readInts(x, 4));
    }

    @Test
    void aDoubleAtAnOddFloatFaultsAndAtAnEvenOneReads() {
        UnifiedBuffer f = floats(dev, new float[] {1, 2, 3, 4});
        UnifiedBuffer out = dev.allocate(8);
        KernelFaultException e = fault("doubleAfterFloat", KernelArgs.builder().pointer(f).i32(1).pointer(out)
                .build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error(), e.getMessage());
        assertContains("misaligned access of 8 bytes", e.getMessage());
        run("doubleAfterFloat", KernelArgs.builder().pointer(f).i32(2).pointer(out).build());
        // Floats 3 and 4 (0x40400000, 0x40800000) read as one little-endian double: 0x4080000040400000.
        assertEquals(Double.longBitsToDouble(0x4080000040400000L),
                out.hostView().get(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0));
    }

    @Test
    void aShortAtAnEvenByteOfAnIntReads() {
        UnifiedBuffer x = ints(dev, new int[] {0x12345678, 0});
        UnifiedBuffer out = ints(dev, new int[1]);
        run("shortAtByte", KernelArgs.builder().pointer(x).i32(2).pointer(out).build());
        assertArrayEquals(new int[] {0x1234}, readInts(out, 1), "the high half of 0x12345678, little-endian");
        KernelFaultException e = fault("shortAtByte", KernelArgs.builder().pointer(x).i32(3).pointer(out).build());
        assertEquals(CudaError.MISALIGNED_ADDRESS, e.error(), e.getMessage());
    }

    @Test
    void aDifferenceAcrossBuffersFaultsWhenUsedAndWithinOneIndexes() {
        UnifiedBuffer x = ints(dev, new int[8]);
        UnifiedBuffer y = ints(dev, new int[8]);
        KernelFaultException e = fault("acrossBuffers", KernelArgs.builder().pointer(x).pointer(y).build());
        assertEquals(CudaError.ILLEGAL_ADDRESS, e.error(), e.getMessage());
        assertContains("out-of-bounds write of 4 bytes", e.getMessage());
        assertArrayEquals(new int[8], readInts(x, 8), "x was not written");
        assertArrayEquals(new int[8], readInts(y, 8), "y was not written");
        UnifiedBuffer z = ints(dev, new int[10]);
        run("withinBuffer", KernelArgs.builder().pointer(z).build());
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 0, 0, 7, 0}, readInts(z, 10), "(x + 5) - x + 3 = 8");
    }

    @Test
    void nvccsPtxFaultsAlikeOnThePtxInterpreter() {
        OracleTests.assumeNvcc();
        String src = """
                __global__ void k(int* x, int bytes)
                {
                    *(int*)((char*)x + bytes) = 5;
                }
                """;
        OracleCase c = new OracleCase("misaligned", src, "k", LaunchConfig.of(1, 1), List.of(
                new OracleArg.Buffer("x", OracleType.I32, new byte[16], 0), new OracleArg.Scalar(OracleType.I32, 1)));
        try (DifferentialOracle oracle = DifferentialOracle.create()) {
            OracleResult r = oracle.check(c);
            OracleResult.Rejected rejected = assertInstanceOf(OracleResult.Rejected.class, r, r.toString());
            assertTrue(rejected.bothSides(), rejected.message());
            assertContains("MISALIGNED_ADDRESS", rejected.message());
        }
    }
}
