package dev.polygpu.device.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Event;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Stream;
import dev.polygpu.device.UnifiedBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Several CPU devices in one process: separate memories, peer copies, cross-device event waits, links. */
class CpuMultiDeviceTest {
    /** Sleeps about {@code ms} milliseconds in thread 0, then writes {@code v} to every element of {@code out}. */
    private static final String SOURCE = """
            extern "C" __global__ void late_fill(int *out, int n, int v, int ms) {
                if (threadIdx.x == 0 && blockIdx.x == 0) {
                    for (int i = 0; i < ms; i++) __nanosleep(1000000);
                    for (int i = 0; i < n; i++) out[i] = v;
                }
            }
            """;

    private CpuDevice d0;
    private CpuDevice d1;

    @BeforeEach
    void open() {
        d0 = new CpuDevice(0, 2, null);
        d1 = new CpuDevice(1, 2, null);
    }

    @AfterEach
    void close() {
        d0.close();
        d1.close();
    }

    @Test
    void ordinalsAndNamesTellTheDevicesApart() {
        assertEquals(0, d0.ordinal());
        assertEquals(1, d1.ordinal());
        assertTrue(d1.toString().endsWith(" 1"), d1.toString());
        assertThrows(IllegalArgumentException.class, () -> new CpuDevice(-1, 2, null));
    }

    @Test
    void aPeerCopyMovesBytesBetweenTheDevicesMemories() {
        UnifiedBuffer a = d0.allocate(64);
        UnifiedBuffer b = d1.allocate(64);
        for (int i = 0; i < 16; i++) {
            a.setInt(i, 1000 + i);
        }
        Stream s = d1.createStream();
        s.copy(b, 0, a, 0, 64);
        s.synchronize();
        for (int i = 0; i < 16; i++) {
            assertEquals(1000 + i, b.getInt(i));
        }
        // and back the other way, queued on the source device's stream this time
        b.setInt(3, -7);
        Stream t = d0.createStream();
        t.copy(a, 8, b, 8, 8);
        t.synchronize();
        assertEquals(-7, a.getInt(3));
        assertEquals(1002, a.getInt(2));
    }

    @Test
    void aKernelRejectsABufferOfAnotherDevice() {
        UnifiedBuffer other = d0.allocate(64);
        KernelFunction k = d1.compile(SOURCE, "late.cu").function("late_fill");
        DeviceException e = assertThrows(DeviceException.class, () -> d1.createStream().launch(k,
                LaunchConfig.of(1, 1), KernelArgs.builder().pointer(other).i32(16).i32(1).i32(0).build()));
        assertEquals(CudaError.INVALID_VALUE, e.error());
        assertTrue(e.getMessage().contains("belongs to another device (cpu device 0)"), e.getMessage());
    }

    @Test
    void aStreamWaitsForAnEventOfAnotherDevice() {
        UnifiedBuffer a = d0.allocate(64);
        UnifiedBuffer b = d1.allocate(64);
        KernelFunction k = d0.compile(SOURCE, "late.cu").function("late_fill");
        Stream s0 = d0.createStream();
        Stream s1 = d1.createStream();
        Event written = d0.createEvent(false);
        // The copy on device 1 may start only once device 0's slow kernel wrote: without the wait it reads zeros.
        s0.launch(k, LaunchConfig.of(1, 1), KernelArgs.builder().pointer(a).i32(16).i32(42).i32(30).build());
        s0.record(written);
        s1.waitFor(written);
        s1.copy(b, 0, a, 0, 64);
        s1.synchronize();
        for (int i = 0; i < 16; i++) {
            assertEquals(42, b.getInt(i), "element " + i);
        }
    }

    @Test
    void aLinkDelaysOnlyCopiesThatCrossDevices() {
        CpuLink link = CpuLink.parse("bandwidth=2,latency=10");
        // 10 us + 4e9 bytes / 2e9 bytes per second = 2 s, by hand
        assertEquals(2_000_010_000L, link.nanosFor(4_000_000_000L));
        assertEquals(0, CpuLink.NONE.nanosFor(1L << 40));
        assertEquals(link, CpuLink.parse(link.toString()));
        assertEquals(new CpuLink(Double.POSITIVE_INFINITY, 5), CpuLink.parse("latency=5"));
        d1.setLink(link);
        assertEquals(link, d1.link());
        assertEquals(CpuLink.NONE, d0.link());
    }

    @Test
    void badLinkOptionsSayWhatIsWrong() {
        assertMessage("unknown key \"speed\"", () -> CpuLink.parse("speed=3"));
        assertMessage("bandwidth must be a number, got \"fast\"", () -> CpuLink.parse("bandwidth=fast"));
        assertMessage("bandwidth must be positive", () -> CpuLink.parse("bandwidth=0"));
        assertMessage("latency must be from 0 to 1000000", () -> CpuLink.parse("latency=-1"));
        assertMessage("latency is given twice", () -> CpuLink.parse("latency=1,latency=2"));
        assertMessage("is not key=value", () -> CpuLink.parse("12"));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
