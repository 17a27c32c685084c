package dev.polygpu.device.cpu.oracle.gen;

import dev.polygpu.device.cpu.oracle.OracleArg;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel's parameters and what the case passes for them: read-only input buffers, the output buffers each
 * thread writes only its own slots of (the hash, exact floats, math-function results, scratch), the atomic
 * buffers (one operation per slot, so the final values do not depend on the order of the threads), and scalars.
 * Output buffers are created when first used; their parameters come out in a fixed order.
 */
final class Buffers {
    static final int FLOAT_SLOTS = 4;
    static final int MATH_SLOTS = 4;
    static final int SCRATCH_SLOTS = 8;
    static final int ATOMIC_SLOTS = 16;
    /** Elements per thread of one segment of the strided-loop buffer, and how many segments it may have. */
    static final int STRIDED_SLOTS = 8;
    static final int STRIDED_SEGMENTS = 4;

    /** A read-only input: {@code length} elements, a power of two. */
    record Input(Var var, Prim type, int length, byte[] data) {
    }

    /** The atomic operations a slot of an atomic buffer is reserved for. */
    private record AtomicBuffer(Var var, List<String> slotOps) {
    }

    private final GenState g;
    private final List<Input> inputs = new ArrayList<>();
    private final List<Var> scalars = new ArrayList<>();
    private final List<Long> scalarBits = new ArrayList<>();
    private final Var outHash;
    private Var outF;
    private Var outD;
    private Var mathF;
    private Var mathD;
    private int mathUlpF;
    private int mathUlpD;
    private Var scratch;
    private Prim scratchType;
    private Var strided;
    private Prim stridedType;
    private int stridedSegments;
    private final Map<Prim, AtomicBuffer> atomics = new EnumMap<>(Prim.class);

    Buffers(GenState g) {
        this.g = g;
        this.outHash = param("out_h", Prim.ULLONG);
    }

    private static Var param(String name, Ty elem) {
        return new Var(name, new Ty.Ptr(elem, false), Level.BLOCK, false, false).in(Var.Storage.OUTPUT);
    }

    /** Adds an input buffer of {@code t} with {@code length} elements (a power of two). */
    Input addInput(Prim t, int length) {
        Var v = new Var("in" + inputs.size(), new Ty.Ptr(t, true), Level.BLOCK, false, false)
                .in(Var.Storage.INPUT);
        Input in = new Input(v, t, length, InputData.random(g.rng, t, length));
        inputs.add(in);
        return in;
    }

    List<Input> inputs() {
        return inputs;
    }

    /** The input whose parameter is {@code v}. */
    Input input(Var v) {
        for (Input in : inputs) {
            if (in.var() == v) {
                return in;
            }
        }
        throw new IllegalArgumentException(v + " is not an input");
    }

    /** Adds a scalar parameter of {@code t} (block-uniform, writable as parameters are in C). */
    Var addScalar(Prim t) {
        Var v = new Var("s" + scalars.size(), t, Level.BLOCK, true, false);
        long bits = switch (t) {
            case FLOAT -> Float.floatToRawIntBits(InputData.randomFloat(g.rng));
            case DOUBLE -> Double.doubleToRawLongBits(InputData.randomDouble(g.rng));
            default -> InputData.randomInt(g.rng, t);
        };
        scalars.add(v);
        scalarBits.add(bits);
        return v;
    }

    List<Var> scalars() {
        return scalars;
    }

    Var outHash() {
        return outHash;
    }

    /** The exact-float output buffer of {@code t} (float or double). */
    Var outFloat(Prim t) {
        if (t == Prim.DOUBLE) {
            if (outD == null) {
                outD = param("out_d", Prim.DOUBLE);
            }
            return outD;
        }
        if (outF == null) {
            outF = param("out_f", Prim.FLOAT);
        }
        return outF;
    }

    /** The math-function output buffer of {@code t}, its ulp bound raised to at least {@code ulp}. */
    Var outMath(Prim t, int ulp) {
        if (t == Prim.DOUBLE) {
            if (mathD == null) {
                mathD = param("math_d", Prim.DOUBLE);
            }
            mathUlpD = Math.max(mathUlpD, ulp);
            return mathD;
        }
        if (mathF == null) {
            mathF = param("math_f", Prim.FLOAT);
        }
        mathUlpF = Math.max(mathUlpF, ulp);
        return mathF;
    }

    /** The scratch buffer if one was made. */
    Var scratchOrNull() {
        return scratch;
    }

    /** The scratch buffer (its element type chosen at first use): each thread's own {@link #SCRATCH_SLOTS}. */
    Var scratch() {
        if (scratch == null) {
            // Integers only: a floating slot could hold a NaN whose sign and payload IEEE leaves to each side.
            scratchType = g.rng.pick(Prim.INT, Prim.UINT, Prim.LLONG, Prim.USHORT, Prim.SHORT);
            scratch = param("scr", scratchType);
        }
        return scratch;
    }

    /**
     * A fresh segment of the strided-loop buffer {@code out_s} ({@link #STRIDED_SLOTS} elements per thread of the
     * grid), written by one loop only, each element by the one thread whose stride reaches it; -1 if none is left.
     */
    int stridedSegment() {
        if (stridedSegments == STRIDED_SEGMENTS) {
            return -1;
        }
        if (strided == null) {
            // Integers only, as for scratch: no NaN whose sign and payload IEEE leaves to each side.
            stridedType = g.rng.pick(Prim.INT, Prim.UINT, Prim.ULLONG, Prim.SHORT);
            strided = param("out_s", stridedType);
        }
        return stridedSegments++;
    }

    /** The strided-loop buffer (after a {@link #stridedSegment}). */
    Var strided() {
        return strided;
    }

    /**
     * A slot of the atomic buffer of {@code t} reserved for operation {@code op} (which includes any constants
     * that must be the same for every update of the slot); -1 when every slot is taken by other operations.
     */
    int atomicSlot(Prim t, String op) {
        AtomicBuffer b = atomics.computeIfAbsent(t, k -> new AtomicBuffer(param("atom_" + Helpers.code(k), k),
                new ArrayList<>()));
        List<Integer> same = new ArrayList<>();
        for (int i = 0; i < b.slotOps().size(); i++) {
            if (b.slotOps().get(i).equals(op)) {
                same.add(i);
            }
        }
        if (!same.isEmpty() && (g.rng.coin() || b.slotOps().size() == ATOMIC_SLOTS)) {
            return g.rng.pick(same);
        }
        if (b.slotOps().size() == ATOMIC_SLOTS) {
            return -1;
        }
        b.slotOps().add(op);
        return b.slotOps().size() - 1;
    }

    /** A fresh slot of the atomic buffer of {@code t}, used by one statement only; -1 if none is left. */
    int freshAtomicSlot(Prim t, String op) {
        AtomicBuffer b = atomics.computeIfAbsent(t, k -> new AtomicBuffer(param("atom_" + Helpers.code(k), k),
                new ArrayList<>()));
        if (b.slotOps().size() == ATOMIC_SLOTS) {
            return -1;
        }
        b.slotOps().add(op + "#" + b.slotOps().size());
        return b.slotOps().size() - 1;
    }

    Var atomic(Prim t) {
        return atomics.get(t).var();
    }

    /** The parameters in order (inputs, outputs, atomics, scalars) with the arguments the case passes. */
    List<Program.Param> params(int threads) {
        List<Program.Param> out = new ArrayList<>();
        for (Input in : inputs) {
            out.add(new Program.Param(in.var(), new OracleArg.Buffer(in.var().name, in.type().oracleType(),
                    in.data(), 0)));
        }
        out.add(buffer(outHash, Prim.ULLONG, threads, 0));
        if (outF != null) {
            out.add(buffer(outF, Prim.FLOAT, threads * FLOAT_SLOTS, 0));
        }
        if (outD != null) {
            out.add(buffer(outD, Prim.DOUBLE, threads * FLOAT_SLOTS, 0));
        }
        if (mathF != null) {
            out.add(buffer(mathF, Prim.FLOAT, threads * MATH_SLOTS, mathUlpF));
        }
        if (mathD != null) {
            out.add(buffer(mathD, Prim.DOUBLE, threads * MATH_SLOTS, mathUlpD));
        }
        if (scratch != null) {
            out.add(buffer(scratch, scratchType, threads * SCRATCH_SLOTS, 0));
        }
        if (strided != null) {
            out.add(buffer(strided, stridedType, threads * STRIDED_SLOTS * stridedSegments, 0));
        }
        for (Map.Entry<Prim, AtomicBuffer> e : atomics.entrySet()) {
            Prim t = e.getKey();
            byte[] init = new byte[ATOMIC_SLOTS * t.size()];
            java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(init).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < ATOMIC_SLOTS; i++) {
                switch (t) {
                    case FLOAT -> bb.putFloat(g.rng.range(-100, 100));
                    case DOUBLE -> bb.putDouble(g.rng.range(-100, 100));
                    default -> InputData.put(bb, t, InputData.randomInt(g.rng, t));
                }
            }
            out.add(new Program.Param(e.getValue().var(), new OracleArg.Buffer(e.getValue().var().name,
                    t.oracleType(), init, 0)));
        }
        for (int i = 0; i < scalars.size(); i++) {
            Var v = scalars.get(i);
            out.add(new Program.Param(v, new OracleArg.Scalar(((Prim) v.type).oracleType(), scalarBits.get(i))));
        }
        return out;
    }

    private Program.Param buffer(Var v, Prim t, int n, int ulp) {
        return new Program.Param(v, new OracleArg.Buffer(v.name, t.oracleType(), InputData.random(g.rng, t, n), ulp));
    }
}
