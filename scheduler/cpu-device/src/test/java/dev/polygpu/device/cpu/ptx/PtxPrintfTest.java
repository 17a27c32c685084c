package dev.polygpu.device.cpu.ptx;

import static dev.polygpu.device.cpu.kernel.KernelTestSupport.doubles;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.ints;
import static dev.polygpu.device.cpu.kernel.KernelTestSupport.readInts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFaultException;
import dev.polygpu.device.Module;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code vprintf} and {@code __assertfail}, what nvcc's PTX calls for {@code printf} and {@code assert}, run by
 * the PTX interpreter from the nvcc-generated fixture {@code printf_sm75.ptx} (source {@code printf.cu}).
 */
class PtxPrintfTest {
    private CpuDevice device;
    private ByteArrayOutputStream sink;
    private Module module;

    @BeforeEach
    void setUp() {
        device = new CpuDevice(2);
        sink = new ByteArrayOutputStream();
        device.setPrintfSink(sink);
        module = device.load(PtxTestSupport.resource("printf_sm75.ptx"), "printf_sm75.ptx");
    }

    @AfterEach
    void tearDown() {
        device.close();
    }

    @Test
    void vprintfFormatsTheArgumentBufferAndReturnsTheArgumentCount() {
        UnifiedBuffer v = ints(device, new int[] {5, -3, 255, 0, 1234});
        UnifiedBuffer d = doubles(device, new double[] {1.5, 0.25, -2.0, 1e6, 3.0});
        UnifiedBuffer r = ints(device, new int[] {-9, -9, -9, -9, -9, -9});
        PtxTestSupport.launch(module, "show", 1, 8, KernelArgs.builder().pointer(v).pointer(d).pointer(r).i32(5)
                .build());
        // Worked out by hand from C's rules: %+05d pads after the sign, %#x of 0 has no prefix, %g drops
        // trailing zeros (2e6 has 7 digits, more than the 6 of its precision, so it is printed as 2e+06).
        String expected = """
                i=0 v=+0005 x=0x5 big=5000000035 d=1.500e+00 f=3 c=A s=ok%
                no arguments
                i=1 v=-0003 x=0xfffffffd big=-3000000021 d=2.500e-01 f=0.5 c=B s=ok%
                i=2 v=+0255 x=0xff big=255000001785 d=-2.000e+00 f=-4 c=C s=ok%
                i=3 v=+0000 x=0 big=0 d=1.000e+06 f=2e+06 c=D s=ok%
                i=4 v=+1234 x=0x4d2 big=1234000008638 d=3.000e+00 f=6 c=E s=ok%
                """;
        assertEquals(expected, sink.toString(StandardCharsets.ISO_8859_1));
        assertArrayEquals(new int[] {8, 8, 8, 8, 8, 0}, readInts(r, 6), "vprintf returns the arguments' count");
    }

    @Test
    void assertfailPrintsCudasMessageAndFailsWithCudaErrorAssert() {
        UnifiedBuffer v = ints(device, new int[] {1, 2, 3, -4, 5});
        var s = device.defaultStream();
        s.launch(module.function("check"), dev.polygpu.device.LaunchConfig.of(1, 8), KernelArgs.builder()
                .pointer(v).i32(5).build());
        KernelFaultException e = assertThrows(KernelFaultException.class, s::synchronize);
        assertEquals(CudaError.ASSERT, e.error());
        assertTrue(e.getMessage().contains("kernel 'check'"), e.getMessage());
        assertTrue(e.getMessage().contains("threadIdx (3,0,0): device-side assert triggered: Assertion `v[i] >= 0`"
                + " failed (printf.cu:22, in void check(const int *, int))"), e.getMessage());
        assertEquals("printf.cu:22: void check(const int *, int): block: [0,0,0], thread: [3,0,0] Assertion "
                + "`v[i] >= 0` failed.\n", sink.toString(StandardCharsets.ISO_8859_1));
        // The device goes on: the next launch runs and prints nothing.
        sink.reset();
        UnifiedBuffer ok = ints(device, new int[] {1, 2, 3, 4, 5});
        PtxTestSupport.launch(module, "check", 1, 8, KernelArgs.builder().pointer(ok).i32(5).build());
        assertEquals("", sink.toString(StandardCharsets.ISO_8859_1));
    }
}
