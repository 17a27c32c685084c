package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.builtins.Args;
import dev.polygpu.grcuda.objects.GrBuiltin;

/**
 * {@code DeviceArray.map(type, sequence)} (or {@code (sequence, type)}): a new 1-D array holding the elements
 * of any interop array (a Python list, a JavaScript array, a Java array), converted and range-checked.
 */
final class GrArrayMapBuiltin extends GrBuiltin {
    private final GrContext context;

    GrArrayMapBuiltin(GrContext context) {
        super("DeviceArray.map");
        this.context = context;
    }

    @Override
    protected Object call(Object[] args) throws ArityException, UnsupportedTypeException {
        Args.arity(args, 2, 2);
        int typeAt = InteropLibrary.getUncached().isString(args[0]) ? 0 : 1;
        return ArrayFactory.map(context, ArrayFactory.type(args, typeAt, name()), args[1 - typeAt], name());
    }
}
