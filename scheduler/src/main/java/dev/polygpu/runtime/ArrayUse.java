package dev.polygpu.runtime;

/**
 * One array argument of a computational element as observers see it: the array's id and display name (as
 * the language shows it, e.g. {@code DeviceArray(float, 1000)}) and how the element uses it.
 */
public record ArrayUse(long arrayId, String arrayName, AccessMode mode) {
}
