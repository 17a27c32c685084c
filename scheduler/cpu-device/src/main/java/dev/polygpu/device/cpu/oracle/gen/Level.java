package dev.polygpu.device.cpu.oracle.gen;

/**
 * How far a value or a point of control may differ between the threads of a block: the same in every thread
 * of the block, the same in every lane of a warp, or per thread. Barriers need {@link #BLOCK} control flow,
 * full-mask warp intrinsics {@link #WARP} or better.
 */
public enum Level {
    BLOCK,
    WARP,
    THREAD;

    /** The less uniform of the two. */
    public Level join(Level o) {
        return compareTo(o) >= 0 ? this : o;
    }

    /** True if something of this level may stand where {@code need} is required. */
    public boolean within(Level need) {
        return compareTo(need) <= 0;
    }
}
