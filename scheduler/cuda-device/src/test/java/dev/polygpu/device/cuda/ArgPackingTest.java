package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelArg;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.UnifiedBuffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The bytes each C type becomes in cuLaunchKernel's parameter buffers, and the checks made before. No GPU needed. */
class ArgPackingTest {
    private static final long BASE = 0x7f12_3456_0000L;

    /** What the bytes should be, written with ByteBuffer (independent of ArgPacking's shifting). */
    private static byte[] expected(int size, java.util.function.Consumer<ByteBuffer> put) {
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        put.accept(b);
        return b.array();
    }

    private static byte[][] pack(List<KernelParam> params, List<PtxParam> ptx, KernelArgs args) {
        return ArgPacking.pack("k", params, ptx.stream().map(PtxParam::image).toList(), args, (ptr, role) -> BASE);
    }

    private static DeviceException refused(Executable call) {
        DeviceException e = assertThrows(DeviceException.class, call);
        assertEquals(CudaError.INVALID_VALUE, e.error(), e::getMessage);
        return e;
    }

    @Test
    void everyCTypeIsLaidOutLittleEndianInItsOwnSize() {
        KernelArgs args = KernelArgs.builder().bool(true).i8((byte) -2).add(new KernelArg.Scalar(ElementType.UINT8,
                200)).i16((short) -300).add(new KernelArg.Scalar(ElementType.UINT16, 65000)).i32(-123456789)
                .u32(0xF000_0001).i64(-1234567890123L).u64(0x8000_0000_0000_0005L).f32(-2.75f).f64(Math.PI).build();
        List<PtxParam> ptx = List.of(new PtxParam(".u8", 1), new PtxParam(".u8", 1), new PtxParam(".u8", 1),
                new PtxParam(".u16", 2), new PtxParam(".u16", 2), new PtxParam(".u32", 4), new PtxParam(".u32", 4),
                new PtxParam(".u64", 8), new PtxParam(".u64", 8), new PtxParam(".f32", 4), new PtxParam(".f64", 8));
        byte[][] got = pack(List.of(), ptx, args);
        List<byte[]> want = new ArrayList<>();
        want.add(new byte[] {1});
        want.add(new byte[] {-2});
        want.add(new byte[] {(byte) 200});
        want.add(expected(2, b -> b.putShort((short) -300)));
        want.add(expected(2, b -> b.putShort((short) 65000)));
        want.add(expected(4, b -> b.putInt(-123456789)));
        want.add(expected(4, b -> b.putInt(0xF000_0001)));
        want.add(expected(8, b -> b.putLong(-1234567890123L)));
        want.add(expected(8, b -> b.putLong(0x8000_0000_0000_0005L)));
        want.add(expected(4, b -> b.putFloat(-2.75f)));
        want.add(expected(8, b -> b.putDouble(Math.PI)));
        assertEquals(want.size(), got.length);
        for (int i = 0; i < got.length; i++) {
            assertArrayEquals(want.get(i), got[i], "argument " + (i + 1) + ": " + args.get(i));
        }
    }

    @Test
    void pointersAreTheBufferAddressPlusTheOffsetAndNullIsZero() {
        try (Arena arena = Arena.ofConfined()) {
            UnifiedBuffer buffer = new HostBuffer(arena.allocate(64), 7);
            KernelArgs args = KernelArgs.builder().pointer(buffer).pointer(buffer, 40).add(new KernelArg.Pointer(null, 0))
                    .build();
            List<KernelParam> params = List.of(new KernelParam("a", true, ElementType.FLOAT),
                    new KernelParam("b", true, ElementType.FLOAT), new KernelParam("c", true, ElementType.INT32));
            byte[][] got = pack(params, List.of(), args);
            assertArrayEquals(expected(8, b -> b.putLong(BASE)), got[0]);
            assertArrayEquals(expected(8, b -> b.putLong(BASE + 40)), got[1]);
            assertArrayEquals(new byte[8], got[2]);
            String beyond = refused(() -> pack(params, List.of(), KernelArgs.builder().pointer(buffer, 65)
                    .pointer(buffer).pointer(buffer).build())).getMessage();
            assertTrue(beyond.contains("argument 1 ('a') of kernel 'k'") && beyond.contains("65"), beyond);
        }
    }

    @Test
    void theCParameterListNamesTheArgumentThatDoesNotFit() {
        List<KernelParam> saxpy = List.of(new KernelParam("y", true, ElementType.FLOAT),
                new KernelParam("x", true, ElementType.FLOAT), new KernelParam("a", false, ElementType.FLOAT),
                new KernelParam("n", false, ElementType.INT32));
        try (Arena arena = Arena.ofConfined()) {
            UnifiedBuffer y = new HostBuffer(arena.allocate(64), 1);
            String notPointer = refused(() -> pack(saxpy, List.of(), KernelArgs.builder().pointer(y).i32(3).f32(2f)
                    .i32(16).build())).getMessage();
            assertTrue(notPointer.contains("argument 2 ('x') of kernel 'k' must be a pointer to a buffer, got int 3"),
                    notPointer);
            String wrongFloat = refused(() -> pack(saxpy, List.of(), KernelArgs.builder().pointer(y).pointer(y)
                    .f64(2.0).i32(16).build())).getMessage();
            assertTrue(wrongFloat.contains("argument 3 ('a')") && wrongFloat.contains("double"), wrongFloat);
            String count = refused(() -> pack(saxpy, List.of(), KernelArgs.builder().pointer(y).build())).getMessage();
            assertTrue(count.contains("takes 4 arguments") && count.contains("got 1"), count);
        }
    }

    @Test
    void withoutACParameterListThePtxSizesAndKindsDecide() {
        List<PtxParam> ptx = List.of(new PtxParam(".u64", 8), new PtxParam(".u32", 4), new PtxParam(".f32", 4));
        assertEquals(3, pack(List.of(), ptx, KernelArgs.builder().i64(1).i32(2).f32(3f).build()).length);
        String size = refused(() -> pack(List.of(), ptx, KernelArgs.builder().i64(1).i64(2).f32(3f).build()))
                .getMessage();
        assertTrue(size.contains("argument 2 of kernel 'k'") && size.contains("4-byte .u32"), size);
        String kind = refused(() -> pack(List.of(), ptx, KernelArgs.builder().i64(1).f32(2f).f32(3f).build()))
                .getMessage();
        assertTrue(kind.contains("argument 2") && kind.contains("an integer (.u32)"), kind);
        String intForFloat = refused(() -> pack(List.of(), ptx, KernelArgs.builder().i64(1).i32(2).i32(3).build()))
                .getMessage();
        assertTrue(intForFloat.contains("argument 3") && intForFloat.contains("floating point (.f32)"), intForFloat);
        String count = refused(() -> pack(List.of(), ptx, KernelArgs.builder().i64(1).build())).getMessage();
        assertTrue(count.contains("takes 3 arguments (declared: .u64, .u32, .f32), got 1"), count);
        // .b32 says nothing about the kind: either fits.
        List<PtxParam> untyped = List.of(new PtxParam(".b32", 4));
        assertEquals(1, pack(List.of(), untyped, KernelArgs.builder().f32(1f).build()).length);
        assertEquals(1, pack(List.of(), untyped, KernelArgs.builder().i32(1).build()).length);
    }

    /** A buffer over host memory, enough for the pointer checks (they read its size and id only). */
    private record HostBuffer(MemorySegment segment, long id) implements UnifiedBuffer {
        @Override
        public long byteSize() {
            return segment.byteSize();
        }

        @Override
        public MemorySegment hostView() {
            return segment;
        }

        @Override
        public dev.polygpu.device.Device device() {
            throw new UnsupportedOperationException("the packing checks never ask a buffer for its device");
        }

        @Override
        public boolean isFreed() {
            return false;
        }

        @Override
        public void free() {
        }
    }
}
