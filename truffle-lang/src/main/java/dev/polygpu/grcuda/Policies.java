package dev.polygpu.grcuda;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.graalvm.options.OptionType;

/** The values of the enumerated {@code grcuda.*} options, spelled as GrCUDA spells them. */
public final class Policies {
    private Policies() {
    }

    /** An option value with its user-facing spelling (and older aliases). */
    public interface Named {
        String spelling();

        default String[] aliases() {
            return new String[0];
        }
    }

    public enum ExecutionPolicy implements Named {
        ASYNC("async"), SYNC("sync");

        private final String spelling;

        ExecutionPolicy(String spelling) {
            this.spelling = spelling;
        }

        @Override
        public String spelling() {
            return spelling;
        }
    }

    public enum DependencyPolicy implements Named {
        NO_CONST("no-const"), WITH_CONST("with-const");

        private final String spelling;

        DependencyPolicy(String spelling) {
            this.spelling = spelling;
        }

        @Override
        public String spelling() {
            return spelling;
        }
    }

    public enum NewStreamPolicy implements Named {
        REUSE("reuse", "fifo"), ALWAYS_NEW("always-new");

        private final String spelling;
        private final String[] aliases;

        NewStreamPolicy(String spelling, String... aliases) {
            this.spelling = spelling;
            this.aliases = aliases;
        }

        @Override
        public String spelling() {
            return spelling;
        }

        @Override
        public String[] aliases() {
            return aliases.clone();
        }
    }

    public enum ParentStreamPolicy implements Named {
        SAME_AS_PARENT("same-as-parent"), DISJOINT("disjoint"), MULTIGPU_EARLY_DISJOINT("multigpu-early-disjoint"),
        MULTIGPU_DISJOINT("multigpu-disjoint");

        private final String spelling;

        ParentStreamPolicy(String spelling) {
            this.spelling = spelling;
        }

        @Override
        public String spelling() {
            return spelling;
        }
    }

    public enum DeviceSelectionPolicy implements Named {
        SINGLE_GPU("single-gpu"), ROUND_ROBIN("round-robin"), STREAM_AWARE("stream-aware"),
        MIN_TRANSFER_SIZE("min-transfer-size"), MINMIN_TRANSFER_TIME("minmin-transfer-time"),
        MINMAX_TRANSFER_TIME("minmax-transfer-time");

        private final String spelling;

        DeviceSelectionPolicy(String spelling) {
            this.spelling = spelling;
        }

        @Override
        public String spelling() {
            return spelling;
        }
    }

    /** GrCUDA's {@code MemAdvisePolicy}: the {@code cudaMemAdvise} flag it gives arrays on several GPUs. */
    public enum MemAdvisePolicy implements Named {
        NONE("none"), READ_MOSTLY("read-mostly"), PREFERRED_LOCATION("preferred-location");

        private final String spelling;

        MemAdvisePolicy(String spelling) {
            this.spelling = spelling;
        }

        @Override
        public String spelling() {
            return spelling;
        }
    }

    public enum DeviceKind implements Named {
        AUTO("auto"), CPU("cpu"), CUDA("cuda");

        private final String spelling;

        DeviceKind(String spelling) {
            this.spelling = spelling;
        }

        @Override
        public String spelling() {
            return spelling;
        }
    }

    /** The option type of an enumerated option: exact spellings (or aliases); anything else lists them. */
    static <E extends Enum<E> & Named> OptionType<E> type(String option, Class<E> values) {
        return new OptionType<>(option, s -> parse(option, values, s));
    }

    static <E extends Enum<E> & Named> E parse(String option, Class<E> values, String text) {
        String t = text == null ? "" : text.trim();
        for (E e : values.getEnumConstants()) {
            if (e.spelling().equals(t) || Arrays.asList(e.aliases()).contains(t)) {
                return e;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a valid value for grcuda." + option
                + "; valid values are: " + Arrays.stream(values.getEnumConstants()).map(Named::spelling)
                .collect(Collectors.joining(", ")));
    }
}
