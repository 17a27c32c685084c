package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.ElementType;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrList;
import dev.polygpu.grcuda.objects.GrObject;

/**
 * {@code CU.DeviceArray}: executable as {@code DeviceArray(type, n)} (1-D), {@code DeviceArray(type, d1, d2, …
 * [, "C"|"F"])} (multi-dimensional) and {@code DeviceArray(type)} (curried on the type), with the member
 * {@code map} ({@link GrArrayMapBuiltin}); {@code new DeviceArray(…)} works the same. The parser routes
 * {@code float[10][20]} here too.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrDeviceArrayFunction extends GrObject {
    public static final String NAME = "DeviceArray";
    private static final String MAP = "map";

    private final GrContext context;
    private final GrArrayMapBuiltin map;

    public GrDeviceArrayFunction(GrContext context) {
        this.context = context;
        this.map = new GrArrayMapBuiltin(context);
    }

    /** Also a constructor: JavaScript programmers write {@code new cu.DeviceArray("float", 10)} as often as not. */
    @ExportMessage(name = "isExecutable")
    @ExportMessage(name = "isInstantiable")
    boolean isExecutable() {
        return true;
    }

    @ExportMessage(name = "execute")
    @ExportMessage(name = "instantiate")
    @TruffleBoundary
    Object execute(Object[] args, @Bind Node node) throws ArityException, UnsupportedTypeException {
        if (args.length == 0) {
            throw ArityException.create(1, -1, 0);
        }
        Node previous = GrError.enterCall(node);
        try {
            ElementType type = ArrayFactory.type(args, 0, NAME);
            if (args.length == 1) {
                return new GrArrayConstructor(context, type);
            }
            return ArrayFactory.create(context, type, args, 1);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList(new String[]{MAP});
    }

    @ExportMessage(name = "isMemberReadable")
    @ExportMessage(name = "isMemberInvocable")
    boolean isMemberReadable(String member) {
        return MAP.equals(member);
    }

    @ExportMessage
    Object readMember(String member) throws UnknownIdentifierException {
        if (!MAP.equals(member)) {
            throw UnknownIdentifierException.create(member);
        }
        return map;
    }

    @ExportMessage
    Object invokeMember(String member, Object[] args, @Bind Node node)
            throws UnknownIdentifierException, ArityException, UnsupportedTypeException {
        if (!MAP.equals(member)) {
            throw UnknownIdentifierException.create(member);
        }
        Node previous = GrError.enterCall(node);
        try {
            return map.call(args);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @Override
    protected String displayString() {
        return "function " + NAME;
    }
}
