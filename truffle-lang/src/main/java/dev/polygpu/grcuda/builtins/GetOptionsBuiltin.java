package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrBuiltin;
import dev.polygpu.grcuda.objects.GrNamespace;

/** {@code getoptions()}: the context's grcuda options and their values, as a read-only record. */
final class GetOptionsBuiltin extends GrBuiltin {
    private final GrContext context;

    GetOptionsBuiltin(GrContext context) {
        super("getoptions");
        this.context = context;
    }

    @Override
    protected Object call(Object[] args) throws ArityException {
        Args.arity(args, 0, 0);
        return GrNamespace.record("options", context.settings().asMap());
    }
}
