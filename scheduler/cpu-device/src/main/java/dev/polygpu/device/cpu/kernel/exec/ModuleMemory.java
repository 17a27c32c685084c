package dev.polygpu.device.cpu.kernel.exec;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.kernel.ast.GlobalVariable;
import dev.polygpu.device.cpu.kernel.ast.Var;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The memory of a module's file-scope {@code __device__} and {@code __constant__} variables: one off-heap
 * instance of each per compiled module, initialized when the module is compiled, shared by every launch of its
 * kernels on any stream and kept across launches, as a GPU keeps a module's globals. Generated code reaches a
 * variable by its slot ({@link #segment(int)}); atomics on it are real atomics on the off-heap memory.
 * A {@code __constant__} (or {@code const}) variable's segment is a read-only view, so a store through a
 * pointer to it faults like a store through a read-only parameter.
 *
 * <p>Lifetime: kernel code reads the memory by address past the arena's checks (see {@link Mem}), so it must
 * stay allocated while a launch may touch it. Every launch {@linkplain #pin() pins} it from the moment it is
 * queued until it has run; {@link #release()} (the module was closed) frees it at once if nothing is pinned,
 * else when the last pin goes. It never waits, so closing a module from a stream callback is safe. A module that
 * is never closed is freed by a {@link Cleaner} once this object is unreachable, which no queued launch allows
 * (a launch holds its kernel, which holds this).
 *
 * <p>Implementation notes: the segments are immutable after construction; {@link #pins} and {@link #released}
 * are guarded by {@code this}; {@link #freed} flips once, and the thread that flips it (a releasing or unpinning
 * thread, or the cleaner) closes the arena, so it is closed exactly once. A module without variables has no
 * arena and its pins cost nothing.
 */
public final class ModuleMemory {
    /** The memory of a module that declares no variables. */
    public static final ModuleMemory EMPTY = new ModuleMemory();

    private static final Cleaner CLEANER = Cleaner.create();
    /**
     * Each variable starts at a multiple of this (in absolute address, each in its own allocation, whatever is
     * declared before it): enough for any atomic on its elements and for the largest alignment of a vector type
     * ({@code float4}, {@code double2}, {@code double4}: 16), so that every element of a vector array is aligned
     * as a whole-vector access requires.
     */
    private static final long ALIGNMENT = 16;

    private final List<GlobalVariable> variables;
    private final MemorySegment[] segments;
    private final Map<Var, Integer> slots = new IdentityHashMap<>();
    private final String moduleName;
    private final AtomicBoolean freed;
    private final Arena arena;
    private int pins;
    private boolean released;

    private ModuleMemory() {
        this.variables = List.of();
        this.segments = new MemorySegment[0];
        this.moduleName = "";
        this.freed = new AtomicBoolean();
        this.arena = null;
    }

    private ModuleMemory(List<GlobalVariable> variables, String moduleName) {
        this.variables = List.copyOf(variables);
        this.segments = new MemorySegment[variables.size()];
        this.moduleName = moduleName;
        this.freed = new AtomicBoolean();
        Arena a = Arena.ofShared();
        try {
            for (int i = 0; i < segments.length; i++) {
                GlobalVariable g = variables.get(i);
                // Arena.allocate zero-fills: elements without an initializer are zero, as in CUDA.
                MemorySegment s = a.allocate(g.initial().length, ALIGNMENT);
                MemorySegment.copy(MemorySegment.ofArray(g.initial()), 0, s, 0, g.initial().length);
                segments[i] = g.readOnly() ? s.asReadOnly() : s;
                slots.put(g.var(), i);
            }
        } catch (OutOfMemoryError | IllegalArgumentException e) {
            a.close();
            throw new DeviceException(CudaError.OUT_OF_MEMORY, "cannot allocate the __device__ and __constant__"
                    + " variables of " + moduleName + ": " + e.getMessage());
        }
        this.arena = a;
        CLEANER.register(this, new Free(a, freed));
    }

    /**
     * Allocates and initializes {@code variables} for one module ({@code moduleName} names it in messages);
     * {@link #EMPTY} if there are none.
     */
    public static ModuleMemory allocate(List<GlobalVariable> variables, String moduleName) {
        return variables.isEmpty() ? EMPTY : new ModuleMemory(variables, moduleName);
    }

    /** The slot of {@code v} (what generated code passes to {@link #segment(int)}); -1 if it is not here. */
    public int slot(Var v) {
        Integer s = slots.get(v);
        return s == null ? -1 : s;
    }

    /** The memory of the variable in {@code slot}, read-only for {@code __constant__} and {@code const} ones. */
    public MemorySegment segment(int slot) {
        return segments[slot];
    }

    /** The variables, by slot. */
    public List<GlobalVariable> variables() {
        return variables;
    }

    /**
     * Keeps the memory allocated until {@link #unpin()}: called when a launch of one of the module's kernels is
     * queued. INVALID_HANDLE once the module was released.
     */
    public void pin() {
        if (arena == null) {
            return;
        }
        synchronized (this) {
            if (released) {
                throw new DeviceException(CudaError.INVALID_HANDLE, "module '" + moduleName + "' was closed, which"
                        + " freed its __device__ and __constant__ variables; compile the source again");
            }
            pins++;
        }
    }

    /** Ends a {@link #pin()}; frees the memory if the module was released and this was the last pin. */
    public void unpin() {
        if (arena == null) {
            return;
        }
        synchronized (this) {
            if (--pins > 0 || !released) {
                return;
            }
        }
        free();
    }

    /** The module was closed: frees the memory now, or when the last launch that pinned it has run. */
    public void release() {
        if (arena == null) {
            return;
        }
        synchronized (this) {
            released = true;
            if (pins > 0) {
                return;
            }
        }
        free();
    }

    /** True once the memory was freed (for tests). */
    public boolean isFreed() {
        return freed.get();
    }

    private void free() {
        if (freed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    /** The cleaner's action; it must not refer to the {@link ModuleMemory}, or that would never be unreachable. */
    private record Free(Arena arena, AtomicBoolean freed) implements Runnable {
        @Override
        public void run() {
            if (freed.compareAndSet(false, true)) {
                arena.close();
            }
        }
    }
}
