package dev.polygpu.device.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU device's buffer memory: zero-filled and aligned as {@code cudaMalloc}'s even where the C library hands
 * back memory a freed buffer had written, released at once by {@code free}, refused once freed.
 */
class CpuBufferMemoryTest {
    private final CpuDevice device = new CpuDevice(1);

    @AfterEach
    void close() {
        device.close();
    }

    @Test
    void newBuffersAreZeroAndAlignedAlsoInMemoryThatFreedBuffersWrote() {
        int[] sizes = {1, 7, 256, 1000, 4096, 65_536, 3 << 20};
        for (int round = 0; round < 20; round++) {
            List<UnifiedBuffer> dirty = new ArrayList<>();
            for (int size : sizes) {
                UnifiedBuffer b = device.allocate(size);
                b.hostView().fill((byte) 0xA5);
                dirty.add(b);
            }
            dirty.forEach(UnifiedBuffer::free);
            for (int size : sizes) {
                UnifiedBuffer b = device.allocate(size);
                MemorySegment s = b.hostView();
                assertEquals(0, s.address() % CpuBuffer.ALIGNMENT, "round " + round + ", " + size + " bytes");
                assertEquals(size, s.byteSize());
                for (long i = 0; i < size; i += Math.max(1, size / 4096)) {
                    assertEquals(0, s.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of " + size + ", round " + round);
                }
                assertEquals(0, s.get(ValueLayout.JAVA_BYTE, size - 1));
                b.free();
            }
        }
    }

    @Test
    void freeReturnsTheBytesAtOnceAndAFreedBufferRefusesItsView() {
        long before = device.allocatedBytes();
        List<UnifiedBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            buffers.add(device.allocate(4000));
        }
        assertEquals(before + 40_000_000L, device.allocatedBytes());
        buffers.forEach(UnifiedBuffer::free);
        assertEquals(before, device.allocatedBytes());
        DeviceException e = assertThrows(DeviceException.class, buffers.get(0)::hostView);
        assertEquals(CudaError.INVALID_VALUE, e.error());
        assertTrue(e.getMessage().contains("was freed by free()"), e.getMessage());
    }

    @Test
    void anImpossibleSizeIsOutOfMemory() {
        DeviceException e = assertThrows(DeviceException.class, () -> device.allocate(1L << 60));
        assertEquals(CudaError.OUT_OF_MEMORY, e.error());
        assertTrue(e.getMessage().contains("cannot allocate"), e.getMessage());
    }
}
