package dev.polygpu.device.cpu.kernel.rt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AtomicsTest {
    private static final int THREADS = 4;
    private static final int ITERATIONS = 100_000;

    /** Both kinds of segment the engine hands over: native shared and heap over long[]. */
    static Stream<MemorySegment> segments() {
        return Stream.of(Arena.ofShared().allocate(64, 8), MemorySegment.ofArray(new long[8]));
    }

    private static int getI(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_INT, off);
    }

    private static long getJ(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_LONG, off);
    }

    @ParameterizedTest
    @MethodSource("segments")
    void intOperationsReturnOldValue(MemorySegment s) {
        s.set(ValueLayout.JAVA_INT, 4, 10);
        assertEquals(10, Atomics.addI(s, 4, 5));
        assertEquals(15, Atomics.subI(s, 4, 20));
        assertEquals(-5, Atomics.exchI(s, 4, 7));
        assertEquals(7, Atomics.minI(s, 4, -3));
        assertEquals(-3, Atomics.minI(s, 4, 100));
        assertEquals(-3, Atomics.maxI(s, 4, -9));
        assertEquals(-3, Atomics.maxI(s, 4, 2));
        assertEquals(2, getI(s, 4));
        // unsigned: -1 is the largest value
        assertEquals(2, Atomics.maxU(s, 4, -1));
        assertEquals(-1, Atomics.maxU(s, 4, 5));
        assertEquals(-1, Atomics.minU(s, 4, Integer.MIN_VALUE));
        assertEquals(Integer.MIN_VALUE, Atomics.minU(s, 4, -1));
        assertEquals(Integer.MIN_VALUE, Atomics.minU(s, 4, 3));
        assertEquals(3, Atomics.orI(s, 4, 0b1100));
        assertEquals(0b1111, Atomics.andI(s, 4, 0b0110));
        assertEquals(0b0110, Atomics.xorI(s, 4, 0b0011));
        assertEquals(0b0101, getI(s, 4));
        assertEquals(5, Atomics.casI(s, 4, 4, 99));
        assertEquals(5, getI(s, 4));
        assertEquals(5, Atomics.casI(s, 4, 5, 99));
        assertEquals(99, getI(s, 4));
        assertEquals(0, getI(s, 0), "the neighbouring word is untouched");
        assertEquals(0, getI(s, 8), "the neighbouring word is untouched");
    }

    @ParameterizedTest
    @MethodSource("segments")
    void incAndDecWrapLikeCuda(MemorySegment s) {
        s.set(ValueLayout.JAVA_INT, 8, 0);
        int[] seen = new int[7];
        for (int i = 0; i < seen.length; i++) {
            seen[i] = Atomics.incU(s, 8, 2);
        }
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0), box(seen));
        s.set(ValueLayout.JAVA_INT, 8, -5); // above any limit when compared unsigned
        assertEquals(-5, Atomics.incU(s, 8, 1000));
        assertEquals(0, getI(s, 8));
        assertEquals(0, Atomics.incU(s, 8, -1));
        assertEquals(1, getI(s, 8), "limit 0xFFFFFFFF counts up");
        s.set(ValueLayout.JAVA_INT, 8, 2);
        for (int i = 0; i < seen.length; i++) {
            seen[i] = Atomics.decU(s, 8, 2);
        }
        assertEquals(List.of(2, 1, 0, 2, 1, 0, 2), box(seen));
        s.set(ValueLayout.JAVA_INT, 8, -5); // old > limit (unsigned) resets to limit
        assertEquals(-5, Atomics.decU(s, 8, 7));
        assertEquals(7, getI(s, 8));
    }

    private static List<Integer> box(int[] values) {
        List<Integer> list = new ArrayList<>();
        for (int v : values) {
            list.add(v);
        }
        return list;
    }

    @ParameterizedTest
    @MethodSource("segments")
    void longOperationsReturnOldValue(MemorySegment s) {
        s.set(ValueLayout.JAVA_LONG, 8, 1L << 40);
        assertEquals(1L << 40, Atomics.addJ(s, 8, 3));
        assertEquals((1L << 40) + 3, Atomics.exchJ(s, 8, -2));
        assertEquals(-2L, Atomics.minJ(s, 8, 5));
        assertEquals(-2L, Atomics.maxJ(s, 8, 5));
        assertEquals(5L, Atomics.maxUJ(s, 8, -7));
        assertEquals(-7L, Atomics.maxUJ(s, 8, Long.MAX_VALUE));
        assertEquals(-7L, Atomics.minUJ(s, 8, Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, Atomics.minUJ(s, 8, -1));
        assertEquals(Long.MAX_VALUE, Atomics.minJ(s, 8, Long.MIN_VALUE));
        assertEquals(Long.MIN_VALUE, Atomics.orJ(s, 8, 0xF0L));
        assertEquals(Long.MIN_VALUE | 0xF0L, Atomics.andJ(s, 8, 0x3CL));
        assertEquals(0x30L, Atomics.xorJ(s, 8, 0xFFL));
        assertEquals(0xCFL, Atomics.casJ(s, 8, 0, 1));
        assertEquals(0xCFL, Atomics.casJ(s, 8, 0xCF, 1L << 60));
        assertEquals(1L << 60, getJ(s, 8));
        assertEquals(0L, getJ(s, 0), "the neighbouring word is untouched");
        assertEquals(0L, getJ(s, 16), "the neighbouring word is untouched");
    }

    @ParameterizedTest
    @MethodSource("segments")
    void floatingOperationsCompareRawBits(MemorySegment s) {
        s.set(ValueLayout.JAVA_FLOAT, 4, 1.5f);
        assertEquals(1.5f, Atomics.addF(s, 4, 2.25f));
        assertEquals(3.75f, Atomics.exchF(s, 4, Float.NaN));
        assertEquals(Float.NaN, Atomics.addF(s, 4, 1f), "NaN in memory does not make the loop spin");
        s.set(ValueLayout.JAVA_FLOAT, 4, -0f);
        assertEquals(-0f, Atomics.addF(s, 4, -0f));
        assertEquals(-0f, s.get(ValueLayout.JAVA_FLOAT, 4));
        s.set(ValueLayout.JAVA_DOUBLE, 8, 0.5);
        assertEquals(0.5, Atomics.addD(s, 8, 0.25));
        assertEquals(0.75, s.get(ValueLayout.JAVA_DOUBLE, 8));
        s.set(ValueLayout.JAVA_DOUBLE, 8, Double.NaN);
        assertEquals(Double.NaN, Atomics.addD(s, 8, 1.0));
    }

    @ParameterizedTest
    @MethodSource("segments")
    void shortCasTouchesOnlyItsHalfword(MemorySegment s) {
        for (long off = 0; off < 16; off += 2) {
            s.set(ValueLayout.JAVA_SHORT, off, (short) (0x1000 + off));
        }
        assertEquals((short) 0x1006, Atomics.casS(s, 6, (short) 1, (short) 2), "mismatch leaves memory alone");
        assertEquals((short) 0x1006, Atomics.casS(s, 6, (short) 0x1006, (short) 0xBEEF));
        assertEquals((short) 0x1004, Atomics.casS(s, 4, (short) 0x1004, (short) -1));
        for (long off = 0; off < 16; off += 2) {
            short expected = switch ((int) off) {
                case 4 -> (short) -1;
                case 6 -> (short) 0xBEEF;
                default -> (short) (0x1000 + off);
            };
            assertEquals(expected, s.get(ValueLayout.JAVA_SHORT, off), "halfword at " + off);
        }
    }

    // ---- concurrency: THREADS threads started together on a native shared segment ----

    private static void race(IntConsumer body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    body.accept(id);
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void concurrentAddsAreExact() throws InterruptedException {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(64, 8);
            race(id -> {
                for (int i = 0; i < ITERATIONS; i++) {
                    Atomics.addI(s, 0, 1);
                    Atomics.addJ(s, 8, 3L << 32);
                    Atomics.addF(s, 16, 2f); // sums stay below 2^24, so they are exact
                    Atomics.addD(s, 24, 0.5);
                    Atomics.subI(s, 32, 1);
                }
            });
            assertEquals(THREADS * ITERATIONS, getI(s, 0));
            assertEquals(THREADS * (long) ITERATIONS * (3L << 32), getJ(s, 8));
            assertEquals(THREADS * ITERATIONS * 2f, s.get(ValueLayout.JAVA_FLOAT, 16));
            assertEquals(THREADS * ITERATIONS * 0.5, s.get(ValueLayout.JAVA_DOUBLE, 24));
            assertEquals(-THREADS * ITERATIONS, getI(s, 32));
        }
    }

    @Test
    void casLoopsIncrementUnderContention() throws InterruptedException {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(64, 8);
            race(id -> {
                for (int i = 0; i < ITERATIONS; i++) {
                    int seen = getI(s, 0);
                    int witness;
                    while ((witness = Atomics.casI(s, 0, seen, seen + 1)) != seen) {
                        seen = witness;
                    }
                    long seenJ = getJ(s, 8);
                    long witnessJ;
                    while ((witnessJ = Atomics.casJ(s, 8, seenJ, seenJ + 1)) != seenJ) {
                        seenJ = witnessJ;
                    }
                }
            });
            assertEquals(THREADS * ITERATIONS, getI(s, 0));
            assertEquals(THREADS * (long) ITERATIONS, getJ(s, 8));
        }
    }

    @Test
    void concurrentMinMaxAndIncFindTheExtremes() throws InterruptedException {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(64, 8);
            s.set(ValueLayout.JAVA_INT, 0, Integer.MAX_VALUE);
            s.set(ValueLayout.JAVA_LONG, 8, Long.MIN_VALUE);
            race(id -> {
                for (int i = 0; i < ITERATIONS; i++) {
                    int v = i * THREADS + id;
                    Atomics.minI(s, 0, -v);
                    Atomics.maxJ(s, 8, v);
                    Atomics.maxU(s, 16, v);
                    Atomics.incU(s, 20, 999);
                }
            });
            int last = THREADS * ITERATIONS - 1;
            assertEquals(-last, getI(s, 0));
            assertEquals(last, getJ(s, 8));
            assertEquals(last, getI(s, 16));
            assertEquals(THREADS * ITERATIONS % 1000, getI(s, 20));
        }
    }

    @Test
    void shortCasOnBothHalvesOfAWordLosesNoUpdate() throws InterruptedException {
        int perThread = 30_000; // two threads per halfword: 60000 fits in an unsigned short
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(64, 8);
            race(id -> {
                long off = 4 + 2 * (id % 2);
                for (int i = 0; i < perThread; i++) {
                    short seen = s.get(ValueLayout.JAVA_SHORT, off);
                    short witness;
                    while ((witness = Atomics.casS(s, off, seen, (short) (seen + 1))) != seen) {
                        seen = witness;
                    }
                }
            });
            assertEquals(2 * perThread, Short.toUnsignedInt(s.get(ValueLayout.JAVA_SHORT, 4)));
            assertEquals(2 * perThread, Short.toUnsignedInt(s.get(ValueLayout.JAVA_SHORT, 6)));
            assertEquals(0, getI(s, 0));
            assertEquals(0, getI(s, 8));
        }
    }
}
