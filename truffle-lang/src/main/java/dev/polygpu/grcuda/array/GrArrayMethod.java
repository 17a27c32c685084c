package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrObject;

/**
 * A method of a device array read as a member ({@code f = a.copyFrom}), bound to its array: languages that
 * read a member before calling it (GraalPy) call this.
 */
@ExportLibrary(InteropLibrary.class)
final class GrArrayMethod extends GrObject {
    private final ArrayMemory memory;
    private final String name;

    GrArrayMethod(ArrayMemory memory, String name) {
        this.memory = memory;
        this.name = name;
    }

    @ExportMessage
    boolean isExecutable() {
        return true;
    }

    @ExportMessage
    Object execute(Object[] arguments, @Bind Node node) throws ArityException, UnsupportedTypeException {
        Node previous = GrError.enterCall(node);
        try {
            return ArrayMethods.invoke(memory, name, arguments);
        } catch (UnknownIdentifierException e) {
            throw new IllegalStateException(e);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @Override
    protected String displayString() {
        return "method " + name + " of " + memory.description;
    }
}
