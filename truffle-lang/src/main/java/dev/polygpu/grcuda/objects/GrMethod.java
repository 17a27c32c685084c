package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;

/**
 * A method of a grcuda object read as a member ({@code device.isCurrent}), executable like a builtin; the
 * object it belongs to is captured by {@link Body}.
 */
public final class GrMethod extends GrBuiltin {
    /** What the method does with its arguments. */
    @FunctionalInterface
    public interface Body {
        Object call(Object[] args) throws ArityException, UnsupportedTypeException;
    }

    private final Body body;

    public GrMethod(String name, Body body) {
        super(name);
        this.body = body;
    }

    @Override
    protected Object call(Object[] args) throws ArityException, UnsupportedTypeException {
        return body.call(args);
    }
}
