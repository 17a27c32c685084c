package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;

/**
 * Display strings of arrays: the description, then the elements as nested lists, at most {@link #MAX_ELEMENTS}
 * of them (then "…"): {@code DeviceArray(float, 5)[1.0, 2.0, 3.0, 4.0, 5.0]}. A freed array shows
 * {@code [freed]}.
 */
final class ArrayDisplay {
    static final int MAX_ELEMENTS = 20;

    private ArrayDisplay() {
    }

    /** Elements at {@code first + i * strides[level]}, nested over the dimensions from {@code level} on. */
    @TruffleBoundary
    static String show(ArrayMemory m, String prefix, long[] dims, long[] strides, int level, long first) {
        StringBuilder sb = new StringBuilder(prefix);
        if (m.isFreed()) {
            return sb.append("[freed]").toString();
        }
        append(sb, m, dims, strides, level, first, new int[]{MAX_ELEMENTS});
        return sb.toString();
    }

    private static void append(StringBuilder sb, ArrayMemory m, long[] dims, long[] strides, int level, long first,
            int[] budget) {
        sb.append('[');
        for (long i = 0; i < dims[level]; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            if (budget[0] <= 0) {
                sb.append('…');
                break;
            }
            long at = first + i * strides[level];
            if (level == dims.length - 1) {
                budget[0]--;
                sb.append(ArrayAccess.read(m, at));
            } else {
                append(sb, m, dims, strides, level + 1, at, budget);
            }
        }
        sb.append(']');
    }
}
