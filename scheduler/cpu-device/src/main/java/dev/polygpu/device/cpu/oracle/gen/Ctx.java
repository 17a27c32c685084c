package dev.polygpu.device.cpu.oracle.gen;

/**
 * Where a statement or expression is being generated: the visible variables, how uniform control is here, the
 * innermost loop (for break/continue: how uniform their conditions may be) and whether a break would leave a
 * switch, and whether this is the kernel (which has the thread's output slots) or a device function.
 */
final class Ctx {
    final Scope scope;
    final Level level;
    /** The innermost loop's level (break/continue conditions may be at most that varying); null outside loops. */
    final Level loopLevel;
    final boolean breakLeavesSwitch;
    final int loopDepth;
    final Funcs.Func fn;

    Ctx(Scope scope, Level level, Level loopLevel, boolean breakLeavesSwitch, int loopDepth, Funcs.Func fn) {
        this.scope = scope;
        this.level = level;
        this.loopLevel = loopLevel;
        this.breakLeavesSwitch = breakLeavesSwitch;
        this.loopDepth = loopDepth;
        this.fn = fn;
    }

    boolean inKernel() {
        return fn == null;
    }

    /** Control under a condition of level {@code l}. */
    Ctx under(Level l) {
        return l.within(level) ? this : new Ctx(scope, level.join(l), loopLevel, breakLeavesSwitch, loopDepth, fn);
    }

    Ctx inScope(Scope s) {
        return new Ctx(s, level, loopLevel, breakLeavesSwitch, loopDepth, fn);
    }

    /** The body of a loop whose trip count and exits are at most {@code l} varying. */
    Ctx loopBody(Scope s, Level l) {
        Level body = level.join(l);
        return new Ctx(s, body, body, false, loopDepth + 1, fn);
    }

    /** An arm of a switch on a selector of level {@code l}. */
    Ctx switchArm(Scope s, Level l) {
        return new Ctx(s, level.join(l), loopLevel, true, loopDepth, fn);
    }
}
