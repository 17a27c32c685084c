package dev.polygpu.cluster.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.junit.jupiter.api.Test;

class IntRingTest {
    private static final long SEED = 0x5EED_2024L;

    private static void assertSameItems(List<Integer> model, IntRing ring, String context) {
        assertEquals(model.size(), ring.size(), context);
        assertEquals(model.isEmpty(), ring.isEmpty(), context);
        for (int i = 0; i < model.size(); i++) {
            assertEquals(model.get(i), ring.get(i), context + ", index " + i);
        }
    }

    @Test
    void behavesAsAListUnderRandomOperations() {
        RandomGenerator rnd = RandomGeneratorFactory.<RandomGenerator>of("L64X128MixRandom").create(SEED);
        IntRing ring = new IntRing();
        List<Integer> model = new ArrayList<>();
        int biggest = 0;
        for (int step = 0; step < 20_000; step++) {
            int op = rnd.nextInt(100);
            int value = rnd.nextInt(1, 1_000_000);
            String context = "seed " + SEED + ", step " + step + ", op " + op;
            // Adds outweigh removals early on so the ring grows (and wraps) several times, then it drains.
            boolean growing = step < 12_000;
            if (op < (growing ? 30 : 15)) {
                ring.addLast(value);
                model.addLast(value);
            } else if (op < (growing ? 55 : 30)) {
                ring.addFirst(value);
                model.addFirst(value);
            } else if (op < 70) {
                if (model.isEmpty()) {
                    assertThrows(NoSuchElementException.class, ring::pollFirst, context);
                } else {
                    assertEquals(model.removeFirst(), ring.pollFirst(), context);
                }
            } else if (op < 99) {
                if (!model.isEmpty()) {
                    int i = rnd.nextInt(model.size());
                    assertEquals(model.remove(i), ring.removeAt(i), context + ", removeAt " + i);
                }
            } else if (rnd.nextInt(20) == 0) {
                ring.clear();
                model.clear();
            }
            biggest = Math.max(biggest, model.size());
            assertSameItems(model, ring, context);
            if (step % 1_000 == 0) {
                assertEquals(model.toString(), ring.toString(), context);
            }
        }
        assertTrue(biggest > 64, "the ring should have grown past a few capacities, reached " + biggest);
    }

    @Test
    void removesFromBothSidesOfAWrappedRing() {
        IntRing ring = new IntRing();
        // Head at the end of the 8-slot array: 15 16 | 10 11 12 13 14 wraps.
        for (int v = 10; v <= 16; v++) {
            ring.addLast(v);
        }
        for (int i = 0; i < 5; i++) {
            ring.pollFirst();
        }
        for (int v = 17; v <= 22; v++) {
            ring.addLast(v);
        }
        // 15 16 17 18 19 20 21 22
        assertEquals(16, ring.removeAt(1), "front half: the head side moves");
        assertEquals(21, ring.removeAt(5), "back half: the tail side moves");
        assertEquals("[15, 17, 18, 19, 20, 22]", ring.toString());
        ring.addFirst(9);
        ring.addLast(23);
        ring.addLast(24);
        assertEquals("[9, 15, 17, 18, 19, 20, 22, 23, 24]", ring.toString(), "grew past 8 while wrapped");
        assertEquals(24, ring.removeAt(8));
        assertEquals(9, ring.removeAt(0));
        assertEquals(15, ring.pollFirst());
        assertEquals("[17, 18, 19, 20, 22, 23]", ring.toString());
    }

    @Test
    void indicesOutsideAreRejected() {
        IntRing ring = new IntRing();
        assertThrows(NoSuchElementException.class, ring::pollFirst);
        ring.addLast(5);
        assertThrows(IndexOutOfBoundsException.class, () -> ring.get(1));
        assertThrows(IndexOutOfBoundsException.class, () -> ring.get(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> ring.removeAt(1));
        assertEquals(5, ring.get(0), "a failed removal leaves the ring alone");
    }
}
