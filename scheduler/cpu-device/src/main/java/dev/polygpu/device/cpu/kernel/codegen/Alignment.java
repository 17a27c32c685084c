package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Which scalar accesses through a pointer need an alignment check, so that a misaligned one faults with
 * MISALIGNED_ADDRESS as on a GPU while the accesses C's types already prove aligned cost nothing. A pointer's
 * known alignment follows its provenance: a kernel parameter or a pointer variable is aligned to its pointee
 * unless some assignment in the kernel (or a call's argument for an inlined function's parameter) stores a value
 * not known to be; arrays are aligned to their element; adding {@code i} elements keeps the alignment of the
 * element size (with a constant {@code i}, of {@code i} times it); a cast keeps the value's alignment, so
 * {@code (int*)((char*)x + 1)} and {@code (double*)(f + 1)} with {@code float* f} are known only to 1 and 4 bytes.
 * Kernel parameters are trusted: the launch refuses a pointer argument misaligned for its element type.
 *
 * <p>The variables not known to be aligned are found once per kernel by a flow-insensitive fixpoint over every
 * assignment to a pointer variable (optimistic start: all aligned; an assignment of a less aligned value marks its
 * variable until nothing changes).
 */
final class Alignment {
    /** The most alignment anything here claims: that of the widest access (a 16-byte vector). */
    private static final int MAX = 16;

    /** A store of {@code value} into pointer variable {@code target}. */
    record PointerStore(Var target, Expr value) {}

    private final Set<Var> unaligned = Collections.newSetFromMap(new IdentityHashMap<>());

    Alignment(List<PointerStore> stores) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (PointerStore s : stores) {
                if (!unaligned.contains(s.target()) && known(s.value()) < pointeeAlign(s.target().type)) {
                    unaligned.add(s.target());
                    changed = true;
                }
            }
        }
    }

    /** True if an access of C type {@code t} through {@code pointer} needs a run-time alignment check. */
    boolean needsCheck(Expr pointer, CType t) {
        return t instanceof CType.Prim p && p.size() > 1 && known(pointer) < p.size();
    }

    /** The alignment {@code p}'s value is known to have, in bytes (a power of two, at most 16). */
    int known(Expr p) {
        return switch (p) {
            case Expr.IntConst k -> k.value() == 0 ? MAX : lowestBit(k.value());
            case Expr.VarRef v -> v.var().type instanceof CType.Pointer && !unaligned.contains(v.var())
                    ? pointeeAlign(v.var().type) : 1;
            case Expr.Decay d -> addressAlign(d.array());
            case Expr.AddrOf a -> addressAlign(a.operand());
            case Expr.PtrAdd a -> {
                long step = elementSize(a.type());
                int base = known(a.pointer());
                yield a.index() instanceof Expr.IntConst k ? Math.min(base, lowestBit(k.value() * step))
                        : Math.min(base, lowestBit(step));
            }
            case Expr.Cast c when c.operand().type() instanceof CType.Pointer -> known(c.operand());
            case Expr.BitCast c when c.operand().type() instanceof CType.Pointer -> known(c.operand());
            case Expr.Conditional c -> Math.min(known(c.ifTrue()), known(c.ifFalse()));
            case Expr.Comma c -> known(c.right());
            case Expr.Assign a -> known(a.value());
            case Expr.IncDec i -> known(i.target());
            case Expr.CompoundAssign a -> Math.min(known(a.target()), lowestBit(elementSize(a.type())));
            default -> 1;
        };
    }

    /** The alignment known for the address of lvalue {@code x}. */
    private int addressAlign(Expr x) {
        return switch (x) {
            case Expr.VarRef v -> cap(CType.alignOf(v.type()));
            case Expr.Deref d -> known(d.pointer());
            case Expr.Field f -> Math.min(addressAlign(f.struct()), cap(CType.alignOf(f.type())));
            case Expr.Component c -> Math.min(addressAlign(c.vector()), cap(CType.alignOf(c.type())));
            default -> 1;
        };
    }

    private static int pointeeAlign(CType pointerType) {
        CType pointee = ((CType.Pointer) pointerType).pointee();
        return pointee == CType.Prim.VOID ? 1 : cap(CType.alignOf(pointee));
    }

    private static long elementSize(CType pointerType) {
        if (!(pointerType instanceof CType.Pointer ptr)) {
            return 1;
        }
        return ptr.pointee() == CType.Prim.VOID ? 1 : Math.max(1, ptr.pointee().size());
    }

    private static int cap(int align) {
        return align <= 0 ? 1 : Math.min(MAX, Integer.highestOneBit(align));
    }

    private static int lowestBit(long v) {
        return v == 0 ? MAX : (int) Math.min(MAX, Long.lowestOneBit(v));
    }
}
