package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * An array's {@code copyFrom}/{@code copyTo} through a raw host address (GrCUDA's ML ensemble benchmarks pass
 * numpy's {@code a.ctypes.data}): taken when every byte of the range is mapped readable (copyFrom) or writable
 * (copyTo), refused with a guest error naming the address and range otherwise. Native memory comes from
 * {@link Arena} and from libc's {@code mmap}/{@code mprotect}/{@code munmap}, so which bytes are mapped with what
 * access is set by the test, not read from the code under test.
 */
@EnabledOnOs(OS.LINUX)
class HostAddressCopyTest {
    private static final int PAGE = 4096;
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MMAP = libc("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MPROTECT = libc("mprotect", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle MUNMAP = libc("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));

    private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }

    /** {@code pages} fresh pages readable and writable, by mmap. */
    private static long map(int pages) {
        try {
            MemorySegment p = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, (long) pages * PAGE,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
            assertTrue(p.address() != -1L, "mmap failed");
            return p.address();
        } catch (Throwable e) {
            throw new AssertionError("mmap", e);
        }
    }

    private static void unmap(long address, int pages) {
        try {
            assertEquals(0, (int) MUNMAP.invokeExact(MemorySegment.ofAddress(address), (long) pages * PAGE));
        } catch (Throwable e) {
            throw new AssertionError("munmap", e);
        }
    }

    private static void readOnly(long address, int pages) {
        try {
            assertEquals(0, (int) MPROTECT.invokeExact(MemorySegment.ofAddress(address), (long) pages * PAGE,
                    PROT_READ));
        } catch (Throwable e) {
            throw new AssertionError("mprotect", e);
        }
    }

    @Test
    void javaCopiesThroughArenaMemoryBothWays() {
        Compat.java(cu -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(ValueLayout.JAVA_FLOAT, 10);
                for (int i = 0; i < 10; i++) {
                    host.setAtIndex(ValueLayout.JAVA_FLOAT, i, 0.25f * i - 1);
                }
                Value a = cu.invokeMember("DeviceArray", "float", 10);
                a.invokeMember("copyFrom", host.address(), 10);
                for (int i = 0; i < 10; i++) {
                    assertEquals(0.25f * i - 1, a.getArrayElement(i).asFloat(), "element " + i);
                }
                Value b = cu.invokeMember("DeviceArray", "double", 3);
                for (int i = 0; i < 3; i++) {
                    b.setArrayElement(i, 10.5 + i);
                }
                MemorySegment out = arena.allocate(ValueLayout.JAVA_DOUBLE, 4);
                out.setAtIndex(ValueLayout.JAVA_DOUBLE, 2, -7.0);
                b.invokeMember("copyTo", out.address(), 2);
                assertEquals(10.5, out.getAtIndex(ValueLayout.JAVA_DOUBLE, 0));
                assertEquals(11.5, out.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
                assertEquals(-7.0, out.getAtIndex(ValueLayout.JAVA_DOUBLE, 2), "copied past the 2 elements asked");
            }
        });
    }

    @Test
    void javaRefusesUnmappedAddresses() {
        Compat.java(cu -> {
            Value a = cu.invokeMember("DeviceArray", "float", 10);
            refused(() -> a.invokeMember("copyFrom", 8L, 10), "copyFrom: the source is the address 0x8, which is"
                    + " not inside any live allocation of this context, and the 40 bytes from 0x8 to 0x30 are not all"
                    + " in memory this process has mapped readable (0x8 is not mapped)");
            refused(() -> a.invokeMember("copyFrom", 0L, 1), "the 4 bytes from 0x0 to 0x4 are not a range of host"
                    + " memory");
            // pages mapped (and so listed once) and then unmapped, just before the copies
            long freed = map(2);
            unmap(freed, 2);
            String hex = "0x" + Long.toHexString(freed);
            refused(() -> a.invokeMember("copyTo", freed, 4), "copyTo: the destination is the address " + hex);
            refused(() -> a.invokeMember("copyFrom", freed, 4), "(" + hex + " is not mapped)");
        });
    }

    @Test
    void javaChecksEveryByteOfTheRangeAndItsAccess() {
        Compat.java(cu -> {
            Value a = cu.invokeMember("DeviceArray", "int", 8);
            long base = map(3);
            long second = base + PAGE;
            long third = base + 2L * PAGE;
            unmap(third, 1);
            MemorySegment.ofAddress(second).reinterpret(PAGE).fill((byte) 3);
            readOnly(second, 1);
            try {
                // the last 8 ints of the read-only page: readable, so copyFrom takes them
                a.invokeMember("copyFrom", third - 32, 8);
                for (int i = 0; i < 8; i++) {
                    assertEquals(0x03030303, a.getArrayElement(i).asInt(), "element " + i);
                }
                refused(() -> a.invokeMember("copyFrom", third - 16, 8), "the 32 bytes from 0x"
                        + Long.toHexString(third - 16) + " to 0x" + Long.toHexString(third + 16)
                        + " are not all in memory this process has mapped readable (0x" + Long.toHexString(third)
                        + " is not mapped)");
                refused(() -> a.invokeMember("copyTo", second - 16, 8), "are not all in memory this process has"
                        + " mapped writable (0x" + Long.toHexString(second) + " is in a mapping without write access");
                MemorySegment lastOfFirst = MemorySegment.ofAddress(second - 16).reinterpret(16);
                assertEquals(0, lastOfFirst.get(ValueLayout.JAVA_INT, 12), "the refused copy wrote");
                a.invokeMember("copyTo", second - 16, 4);   // within the writable first page
                assertEquals(0x03030303, lastOfFirst.get(ValueLayout.JAVA_INT, 12));
            } finally {
                unmap(base, 2);
            }
        });
    }

    @Test
    void javaRefusesARangeThatReachesIntoADeviceArray() {
        Compat.java(cu -> {
            Value a = cu.invokeMember("DeviceArray", "float", 16);
            long start = a.getMember("pointer").asLong();
            // the 8 bytes before the context's only array belong to no allocation; the range reaches into it
            refused(() -> a.invokeMember("copyFrom", start - 8, 4), "the 16 bytes from 0x"
                    + Long.toHexString(start - 8) + " to 0x" + Long.toHexString(start + 8) + " reach into 0x"
                    + Long.toHexString(start) + " (byte 0 of DeviceArray(float, 16))");
        });
    }

    @Test
    void javaReportsAFaultInAMappedFileShorterThanItsMapping() throws IOException {
        Path file = Files.createTempFile("polygpu-host-address", ".bin");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             Arena arena = Arena.ofConfined()) {
            channel.write(ByteBuffer.allocate(2 * PAGE));
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, 2 * PAGE, arena);
            channel.truncate(0);
            Compat.java(cu -> {
                Value a = cu.invokeMember("DeviceArray", "char", 2 * PAGE);
                refused(() -> a.invokeMember("copyFrom", mapped.address(), 2 * PAGE), "copyFrom: the memory at 0x"
                        + Long.toHexString(mapped.address()) + " is mapped but faulted when read");
            });
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void pythonCopiesThroughCtypesAddresses() {
        // GraalPy's ctypes.addressof is not the buffer's address; cast(…, c_void_p) gives the native one
        String out = Guests.eval("python", Compat.PY + """
                import ctypes
                src = (ctypes.c_float * 5)(1.5, -2.0, 3.25, 4.0, 0.125)
                a = cu.DeviceArray('float', 5)
                a.copyFrom(ctypes.cast(src, ctypes.c_void_p).value, 5)
                print(list(a))
                a[1] = 8.5
                dst = (ctypes.c_float * 5)()
                a.copyTo(ctypes.cast(dst, ctypes.c_void_p).value, 3)
                print(list(dst))""");
        assertEquals("[1.5, -2.0, 3.25, 4.0, 0.125]\n[1.5, 8.5, 3.25, 0.0, 0.0]", out.strip());
        Compat.fails("python", Compat.PY + "cu.DeviceArray('int', 4).copyFrom(8, 4)",
                "the 16 bytes from 0x8 to 0x18 are not all in memory this process has mapped readable");
    }

    private static void refused(org.junit.jupiter.api.function.Executable copy, String fragment) {
        Compat.assertGuestError(assertThrows(PolyglotException.class, copy), fragment);
    }
}
