package dev.polygpu.device;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The arguments of one launch, in parameter order, and which pointer arguments the launch passes read-only.
 * Immutable once built.
 *
 * <p>Read-only pointers: a launch may promise that the kernel does not write through some of its pointer
 * arguments (the scheduler marks those into arrays it orders as only read, the {@code in}/{@code const}
 * parameters under the {@code with-const} dependency policy). A device that can check the promise fails a
 * kernel that breaks it; the CPU device does, with a {@link KernelFaultException} naming the kernel and the
 * parameter. Real GPUs have no such check: the CUDA device ignores the marks, and a kernel that writes through
 * a read-only pointer there races with the kernels the scheduler let run beside it.
 */
public final class KernelArgs {
    private static final BitSet NONE = new BitSet();

    private final List<KernelArg> args;
    /** The positions of the read-only pointer arguments; never changed once the instance exists. */
    private final BitSet readOnly;

    private KernelArgs(List<KernelArg> args, BitSet readOnly) {
        this.args = List.copyOf(args);
        this.readOnly = readOnly;
        if (readOnly.length() > this.args.size()) {
            throw new IllegalArgumentException("argument " + readOnly.length() + " is marked read-only, but the"
                    + " launch has only " + this.args.size() + " arguments");
        }
        for (int i = readOnly.nextSetBit(0); i >= 0; i = readOnly.nextSetBit(i + 1)) {
            if (!(this.args.get(i) instanceof KernelArg.Pointer)) {
                throw new IllegalArgumentException("argument " + (i + 1) + " (" + this.args.get(i) + ") is marked"
                        + " read-only, but only a pointer can be");
            }
        }
    }

    public static KernelArgs of(List<KernelArg> args) {
        return new KernelArgs(args, NONE);
    }

    public static Builder builder() {
        return new Builder();
    }

    public List<KernelArg> list() {
        return args;
    }

    public int size() {
        return args.size();
    }

    public KernelArg get(int i) {
        return args.get(i);
    }

    /** True if argument {@code i} is a pointer that the kernel promises not to write through. */
    public boolean isReadOnly(int i) {
        return readOnly.get(i);
    }

    /** True if any argument is {@linkplain #isReadOnly(int) read-only}. */
    public boolean hasReadOnly() {
        return !readOnly.isEmpty();
    }

    /**
     * These arguments with exactly the pointers at the set bits of {@code positions} marked read-only (the marks
     * of this instance are dropped); IllegalArgumentException if a position is not a pointer argument.
     */
    public KernelArgs withReadOnly(BitSet positions) {
        if (positions.isEmpty() && readOnly.isEmpty()) {
            return this;
        }
        return new KernelArgs(args, (BitSet) positions.clone());
    }

    @Override
    public String toString() {
        if (readOnly.isEmpty()) {
            return args.toString();
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < args.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(readOnly.get(i) ? "const " : "").append(args.get(i));
        }
        return sb.append(']').toString();
    }

    /** Fluent construction: {@code KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(n).build()}. */
    public static final class Builder {
        private final List<KernelArg> args = new ArrayList<>();
        private final BitSet readOnly = new BitSet();

        public Builder pointer(UnifiedBuffer buffer) {
            args.add(new KernelArg.Pointer(buffer, 0));
            return this;
        }

        public Builder pointer(UnifiedBuffer buffer, long byteOffset) {
            args.add(new KernelArg.Pointer(buffer, byteOffset));
            return this;
        }

        /** A pointer to byte {@code byteOffset} of {@code buffer} that the kernel promises not to write through. */
        public Builder readOnlyPointer(UnifiedBuffer buffer, long byteOffset) {
            readOnly.set(args.size());
            args.add(new KernelArg.Pointer(buffer, byteOffset));
            return this;
        }

        public Builder readOnlyPointer(UnifiedBuffer buffer) {
            return readOnlyPointer(buffer, 0);
        }

        public Builder i8(byte v) {
            args.add(new KernelArg.Scalar(ElementType.INT8, v));
            return this;
        }

        public Builder i16(short v) {
            args.add(new KernelArg.Scalar(ElementType.INT16, v));
            return this;
        }

        public Builder i32(int v) {
            args.add(KernelArg.Scalar.ofInt(v));
            return this;
        }

        public Builder u32(int v) {
            args.add(new KernelArg.Scalar(ElementType.UINT32, Integer.toUnsignedLong(v)));
            return this;
        }

        public Builder i64(long v) {
            args.add(KernelArg.Scalar.ofLong(v));
            return this;
        }

        public Builder u64(long v) {
            args.add(new KernelArg.Scalar(ElementType.UINT64, v));
            return this;
        }

        public Builder f32(float v) {
            args.add(KernelArg.Scalar.ofFloat(v));
            return this;
        }

        public Builder f64(double v) {
            args.add(KernelArg.Scalar.ofDouble(v));
            return this;
        }

        public Builder bool(boolean v) {
            args.add(new KernelArg.Scalar(ElementType.BOOL, v ? 1 : 0));
            return this;
        }

        public Builder add(KernelArg arg) {
            args.add(arg);
            return this;
        }

        public KernelArgs build() {
            return new KernelArgs(args, readOnly.isEmpty() ? NONE : (BitSet) readOnly.clone());
        }
    }
}
