package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.grcuda.GrError;

/**
 * A function of the {@code CU} namespace ({@code buildkernel}, {@code getdevices}, {@code cudaDeviceSynchronize}
 * …): an executable interop object. Subclasses implement {@link #call}; argument checks throw the interop
 * exceptions that guest languages turn into their own TypeError.
 */
@ExportLibrary(InteropLibrary.class)
public abstract class GrBuiltin extends GrObject {
    private final String name;

    protected GrBuiltin(String name) {
        this.name = name;
    }

    public final String name() {
        return name;
    }

    /** Runs the function; {@code args} are interop values. */
    protected abstract Object call(Object[] args) throws ArityException, UnsupportedTypeException;

    @ExportMessage
    final boolean isExecutable() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    final Object execute(Object[] arguments, @Bind Node node) throws ArityException, UnsupportedTypeException {
        Node previous = GrError.enterCall(node);
        try {
            return call(arguments);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @Override
    protected final String displayString() {
        return "function " + name;
    }

    @Override
    protected final GrMetaObject metaObject() {
        return GrMetaObject.FUNCTION;
    }
}
