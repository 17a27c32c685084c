package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrBandwidth;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrBuiltin;
import dev.polygpu.grcuda.objects.GrNone;

/**
 * {@code polygpu_bandwidth(format)}: a polygpu extension (not GrCUDA API) returning, as a string, the link
 * bandwidths of the context's devices and the host: {@code "csv"} in GrCUDA's CSV, which {@code
 * grcuda.BandwidthMatrix} reads back; {@code "table"} as a table for people, with how they were measured when they
 * were, and where they came from. Choosing the devices, and finding the bandwidths (from the file, the cache, or
 * measured), happen here if they have not happened yet. {@code polygpu --bandwidth-matrix} prints both.
 */
final class BandwidthBuiltin extends GrBuiltin {
    static final String NAME = "polygpu_bandwidth";

    private final GrContext context;

    BandwidthBuiltin(GrContext context) {
        super(NAME);
        this.context = context;
    }

    @Override
    @TruffleBoundary
    protected Object call(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 1, 1);
        String format = Args.string(args, 0, NAME, "format");
        GrBandwidth b = context.bandwidth();
        return switch (format) {
            case "csv" -> b.csv();
            case "table" -> b.table();
            default -> throw GrError.of(NAME + ": unknown format '" + format + "'; the formats are csv, table");
        };
    }

    /**
     * {@code polygpu_bandwidth_measure()}: measures the links again and replaces the cached figures; the running
     * scheduler keeps those it started with.
     */
    static final class Measure extends GrBuiltin {
        private final GrContext context;

        Measure(GrContext context) {
            super("polygpu_bandwidth_measure");
            this.context = context;
        }

        @Override
        protected Object call(Object[] args) throws ArityException {
            Args.arity(args, 0, 0);
            context.measureBandwidthAgain();
            return GrNone.INSTANCE;
        }
    }
}
