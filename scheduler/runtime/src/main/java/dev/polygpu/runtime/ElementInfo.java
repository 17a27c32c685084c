package dev.polygpu.runtime;

import java.util.List;

/**
 * A computational element as observers see it: its id (unique per scheduler, increasing in submission
 * order), kind, label (the kernel name for launches, e.g. {@code square}) and array arguments.
 */
public record ElementInfo(long id, ElementKind kind, String label, List<ArrayUse> arrays) {
    public ElementInfo {
        arrays = List.copyOf(arrays);
    }
}
