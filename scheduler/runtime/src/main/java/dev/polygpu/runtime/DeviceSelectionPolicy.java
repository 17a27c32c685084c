package dev.polygpu.runtime;

import java.util.Locale;

/**
 * How a {@link Scheduler} with several devices picks the device of each element, with the meanings and the
 * option spellings of GrCUDA's {@code DeviceSelectionPolicy}. An element on a user's stream runs on that stream's
 * device, and a kernel that cannot be built again on another device (no source) on the device it was built for,
 * whatever the policy. See {@link DevicePlacement} for the exact rules.
 */
public enum DeviceSelectionPolicy {
    /** Every element on the current device ({@link Scheduler#setCurrentDevice}, 0 unless set): GrCUDA's default. */
    SINGLE_GPU("single-gpu"),
    /** Devices in turn, 0, 1, …, N-1, 0, … (one counter for all elements). */
    ROUND_ROBIN("round-robin"),
    /**
     * The device with the fewest outstanding elements (on its streams or waiting for them); ties to the lowest
     * index. GrCUDA counts busy streams; polygpu holds elements back for the in-flight window, so a device's
     * elements reach its streams later than they are placed, and the count of its outstanding elements is what
     * stands for its load at the moment of choosing.
     */
    STREAM_AWARE("stream-aware"),
    /**
     * The device that already holds the most bytes of the element's arrays (all its arrays, whatever their
     * access), if some device holds more than {@code DataThreshold} of those bytes; otherwise round-robin.
     */
    MIN_TRANSFER_SIZE("min-transfer-size"),
    /**
     * Among the devices holding more than {@code DataThreshold} of the element's bytes, the one whose missing
     * arrays would arrive soonest, each array coming over the fastest link from a location that holds it
     * (bandwidth matrix); round-robin if no device holds enough.
     */
    MINMIN_TRANSFER_TIME("minmin-transfer-time"),
    /** As {@link #MINMIN_TRANSFER_TIME}, with each array coming over the slowest link from a location holding it. */
    MINMAX_TRANSFER_TIME("minmax-transfer-time");

    private final String spelling;

    DeviceSelectionPolicy(String spelling) {
        this.spelling = spelling;
    }

    /** The option value, as GrCUDA spells it. */
    public String spelling() {
        return spelling;
    }

    /** The policy spelled {@code text} (case-insensitive); IllegalArgumentException listing the valid ones. */
    public static DeviceSelectionPolicy parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (DeviceSelectionPolicy p : values()) {
            if (p.spelling.equals(t)) {
                return p;
            }
        }
        StringBuilder valid = new StringBuilder();
        for (DeviceSelectionPolicy p : values()) {
            valid.append(valid.isEmpty() ? "" : ", ").append(p.spelling);
        }
        throw new IllegalArgumentException("unknown device selection policy \"" + text + "\"; valid: " + valid);
    }
}
