package dev.polygpu.device;

import java.util.ArrayList;
import java.util.List;

/** The arguments of one launch, in parameter order. Immutable once built. */
public final class KernelArgs {
    private final List<KernelArg> args;

    private KernelArgs(List<KernelArg> args) {
        this.args = List.copyOf(args);
    }

    public static KernelArgs of(List<KernelArg> args) {
        return new KernelArgs(args);
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

    @Override
    public String toString() {
        return args.toString();
    }

    /** Fluent construction: {@code KernelArgs.builder().pointer(y).pointer(x).f32(2f).i32(n).build()}. */
    public static final class Builder {
        private final List<KernelArg> args = new ArrayList<>();

        public Builder pointer(UnifiedBuffer buffer) {
            args.add(new KernelArg.Pointer(buffer, 0));
            return this;
        }

        public Builder pointer(UnifiedBuffer buffer, long byteOffset) {
            args.add(new KernelArg.Pointer(buffer, byteOffset));
            return this;
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
            return new KernelArgs(args);
        }
    }
}
