package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state of generating one program: the random stream, the profile, coverage, names and ids, the file-scope
 * items made so far, the kernel's buffers and the launch shape. One per program; not thread-safe.
 */
final class GenState {
    final Rng rng;
    final Profile profile;
    final Coverage coverage = new Coverage();
    final Helpers helpers = new Helpers();
    final Literals literals;
    final Buffers buffers;
    /** Macros, structs and tables, printed before the helpers. */
    final List<Program.Item> early = new ArrayList<>();
    /** Device functions and templates, printed after the helpers, in the order made. */
    final List<Program.Item> functions = new ArrayList<>();
    final List<Ty.Struct> structs = new ArrayList<>();
    /** Pointer variables: the window of elements each may be indexed in (an index is masked to it). */
    final Map<Var, Integer> pointerWindow = new HashMap<>();
    /** File-scope variables every function and the kernel may use (__constant__ tables, __device__ arrays). */
    final Scope globals = new Scope(null);
    /** The block's threads (a multiple of 32) and all threads of the grid. */
    final int blockThreads;
    final int gridThreads;
    private int nextId;
    private int nextName;
    /** The statements still to be generated in this program. */
    int budget;
    /** True if the kernel's only collectives are {@code __syncthreads()} in its own body (no __syncwarp). */
    boolean blockBarriersOnly;

    GenState(long seed, Profile profile, int blockThreads, int gridThreads) {
        this.rng = new Rng(seed);
        this.profile = profile;
        this.literals = new Literals(this);
        this.buffers = new Buffers(this);
        this.blockThreads = blockThreads;
        this.gridThreads = gridThreads;
        this.budget = profile.size();
    }

    int id() {
        return nextId++;
    }

    /** A fresh name: {@code base} followed by a number unique in the program. */
    String name(String base) {
        return base + nextName++;
    }

    boolean on(Construct c) {
        return profile.on(c);
    }

    int weight(Construct c) {
        return profile.weight(c);
    }

    void cover(Construct c) {
        coverage.add(c);
    }

    /** True once a construct that needs {@code cuda_fp16.h} (nvcc does not declare __half without it) is in. */
    boolean usesHalf() {
        return coverage.count(Construct.TYPE_HALF) > 0;
    }

    /** True (and the construct counted) with a probability growing with its weight, if it is on. */
    boolean roll(Construct c, int percentAtWeight4) {
        int w = profile.weight(c);
        if (w == 0) {
            return false;
        }
        return rng.below(400) < Math.min(400, percentAtWeight4 * w);
    }

    /** A scalar type among those the profile allows, by the TYPE_* weights; int if none is on. */
    Prim scalarType() {
        return scalarType(true);
    }

    Prim scalarType(boolean floats) {
        Construct[] cs = {Construct.TYPE_BOOL, Construct.TYPE_8, Construct.TYPE_16, Construct.TYPE_32,
            Construct.TYPE_64, Construct.TYPE_FLOAT, Construct.TYPE_DOUBLE};
        int[] w = new int[cs.length];
        for (int i = 0; i < cs.length; i++) {
            w[i] = floats || i < 5 ? profile.weight(cs[i]) : 0;
        }
        int k = rng.weighted(w);
        Prim p = k < 0 ? Prim.INT : switch (cs[k]) {
            case TYPE_BOOL -> Prim.BOOL;
            case TYPE_8 -> rng.pick(Prim.CHAR, Prim.SCHAR, Prim.UCHAR);
            case TYPE_16 -> rng.pick(Prim.SHORT, Prim.USHORT);
            case TYPE_32 -> rng.pick(Prim.INT, Prim.INT, Prim.UINT);
            case TYPE_64 -> rng.pick(Prim.LONG, Prim.ULONG, Prim.LLONG, Prim.ULLONG);
            case TYPE_FLOAT -> Prim.FLOAT;
            default -> Prim.DOUBLE;
        };
        cover(typeConstruct(p));
        return p;
    }

    /** An integer type among those the profile allows. */
    Prim intType() {
        return scalarType(false);
    }

    static Construct typeConstruct(Prim p) {
        return switch (p) {
            case BOOL -> Construct.TYPE_BOOL;
            case CHAR, SCHAR, UCHAR -> Construct.TYPE_8;
            case SHORT, USHORT -> Construct.TYPE_16;
            case INT, UINT -> Construct.TYPE_32;
            case LONG, ULONG, LLONG, ULLONG -> Construct.TYPE_64;
            case HALF -> Construct.TYPE_HALF;
            case FLOAT -> Construct.TYPE_FLOAT;
            case DOUBLE -> Construct.TYPE_DOUBLE;
        };
    }

    /** True if floating types may appear. */
    boolean floats() {
        return on(Construct.TYPE_FLOAT) || on(Construct.TYPE_DOUBLE);
    }
}
