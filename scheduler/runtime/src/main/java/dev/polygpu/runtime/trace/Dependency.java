package dev.polygpu.runtime.trace;

import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ArrayUse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An edge of a recorded DAG: {@code childId} had to wait for {@code parentId}. {@code arrays} are the child's
 * uses of the arrays that explain the edge, empty when the two share no array (the scheduler ordered them for
 * another reason, e.g. a synchronization).
 */
public record Dependency(long parentId, long childId, List<ArrayUse> arrays) {

    public Dependency {
        arrays = List.copyOf(arrays);
    }

    /**
     * The edge from {@code parent} to {@code child}. Its arrays are those both use where at least one of the two
     * writes (the hazards an ordering exists for); if they share arrays but none conflicts, all shared arrays.
     * An array used several times by an element counts once, with the union of its modes.
     */
    static Dependency between(RecordedElement parent, RecordedElement child) {
        Map<Long, ArrayUse> parentUses = merged(parent.arrays());
        List<ArrayUse> shared = new ArrayList<>();
        List<ArrayUse> hazards = new ArrayList<>();
        for (ArrayUse use : merged(child.arrays()).values()) {
            ArrayUse other = parentUses.get(use.arrayId());
            if (other != null) {
                shared.add(use);
                if (use.mode().writes() || other.mode().writes()) {
                    hazards.add(use);
                }
            }
        }
        return new Dependency(parent.id(), child.id(), hazards.isEmpty() ? shared : hazards);
    }

    private static Map<Long, ArrayUse> merged(List<ArrayUse> uses) {
        Map<Long, ArrayUse> byId = new LinkedHashMap<>();
        for (ArrayUse use : uses) {
            byId.merge(use.arrayId(), use, (a, b) -> a.mode() == b.mode() ? a
                    : new ArrayUse(a.arrayId(), a.arrayName(), AccessMode.READ_WRITE, a.bytes()));
        }
        return byId;
    }
}
