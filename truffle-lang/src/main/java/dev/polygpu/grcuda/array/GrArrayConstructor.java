package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.device.ElementType;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrBuiltin;

/** {@code DeviceArray(type)}: {@code DeviceArray} curried on the element type; call it with the sizes. */
final class GrArrayConstructor extends GrBuiltin {
    private final GrContext context;
    private final ElementType type;

    GrArrayConstructor(GrContext context, ElementType type) {
        super("DeviceArray(" + ElementTypes.shortName(type) + ")");
        this.context = context;
        this.type = type;
    }

    @Override
    protected Object call(Object[] args) throws ArityException, UnsupportedTypeException {
        return ArrayFactory.create(context, type, args, 0);
    }
}
