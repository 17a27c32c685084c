package dev.polygpu.cluster.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.ElementType;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the wire relies on from {@link ElementMessage}: content equality and a validating constructor. */
class ElementMessageContractTest {

    @Test
    void gridAndBlockCompareByContent() {
        ElementMessage a = message(new int[] {4, 2, 1}, new int[] {128, 1, 1});
        ElementMessage b = message(new int[] {4, 2, 1}, new int[] {128, 1, 1});
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, message(new int[] {4, 2, 2}, new int[] {128, 1, 1}));
        assertNotEquals(a, message(new int[] {4, 2, 1}, new int[] {64, 1, 1}));
        assertEquals("[4, 2, 1]", java.util.Arrays.toString(a.grid()));
    }

    @Test
    void constructorCopiesAndValidates() {
        int[] grid = {4, 2, 1};
        List<ElementMessage.Arg> args = new ArrayList<>(List.of(new ElementMessage.ScalarArg(ElementType.INT32, 3)));
        ElementMessage m = new ElementMessage(1, ElementKind.KERNEL, "k", null, grid, new int[] {1, 1, 1}, 0, 0, args);
        grid[0] = 99;
        args.clear();
        assertEquals(4, m.grid()[0]);
        assertEquals(1, m.args().size());

        int[] one = {1, 1, 1};
        assertThrows(IllegalArgumentException.class,
                () -> new ElementMessage(1, ElementKind.COPY, "c", null, new int[] {1, 1}, one, 0, 0, List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new ElementMessage(1, ElementKind.COPY, "c", null, one, new int[4], 0, 0, List.of()));
        assertThrows(NullPointerException.class,
                () -> new ElementMessage(1, null, "c", null, one, one, 0, 0, List.of()));
        assertThrows(NullPointerException.class,
                () -> new ElementMessage(1, ElementKind.COPY, null, null, one, one, 0, 0, List.of()));
        assertThrows(NullPointerException.class,
                () -> new ElementMessage(1, ElementKind.COPY, "c", null, null, one, 0, 0, List.of()));
        assertThrows(NullPointerException.class,
                () -> new ElementMessage(1, ElementKind.COPY, "c", null, one, one, 0, 0, null));
        assertThrows(NullPointerException.class, () -> new ElementMessage.ArrayArg(1, 8, 0, null));
        assertThrows(NullPointerException.class, () -> new ElementMessage.ScalarArg(null, 0));
    }

    private static ElementMessage message(int[] grid, int[] block) {
        return new ElementMessage(3, ElementKind.KERNEL, "k", null, grid, block, 0, 0,
                List.of(new ElementMessage.ArrayArg(5, 64, 0, AccessMode.READ)));
    }
}
