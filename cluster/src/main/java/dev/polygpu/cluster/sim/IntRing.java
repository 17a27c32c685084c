package dev.polygpu.cluster.sim;

import java.util.Arrays;
import java.util.NoSuchElementException;

/** A growable double-ended queue of ints, oldest first, that can also remove from the middle. Internal. */
final class IntRing {
    private int[] items = new int[8];
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** {@return the {@code i}-th oldest item} */
    int get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " of " + size);
        }
        return items[(head + i) & (items.length - 1)];
    }

    void addLast(int v) {
        grow();
        items[(head + size) & (items.length - 1)] = v;
        size++;
    }

    void addFirst(int v) {
        grow();
        head = (head - 1) & (items.length - 1);
        items[head] = v;
        size++;
    }

    int pollFirst() {
        if (size == 0) {
            throw new NoSuchElementException("the queue is empty");
        }
        int v = items[head];
        head = (head + 1) & (items.length - 1);
        size--;
        return v;
    }

    /** Removes and returns the {@code i}-th oldest item, moving the shorter side. */
    int removeAt(int i) {
        int v = get(i);
        int mask = items.length - 1;
        if (i < size / 2) {
            for (int k = i; k > 0; k--) {
                items[(head + k) & mask] = items[(head + k - 1) & mask];
            }
            head = (head + 1) & mask;
        } else {
            for (int k = i; k < size - 1; k++) {
                items[(head + k) & mask] = items[(head + k + 1) & mask];
            }
        }
        size--;
        return v;
    }

    void clear() {
        head = 0;
        size = 0;
    }

    private void grow() {
        if (size < items.length) {
            return;
        }
        int[] bigger = new int[items.length * 2];
        for (int k = 0; k < size; k++) {
            bigger[k] = items[(head + k) & (items.length - 1)];
        }
        items = bigger;
        head = 0;
    }

    @Override
    public String toString() {
        int[] copy = new int[size];
        for (int k = 0; k < size; k++) {
            copy[k] = get(k);
        }
        return Arrays.toString(copy);
    }
}
