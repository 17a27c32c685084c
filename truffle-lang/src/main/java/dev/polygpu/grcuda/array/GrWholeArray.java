package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrObject;
import dev.polygpu.grcuda.objects.ToStringMember;
import dev.polygpu.runtime.TrackedArray;

/**
 * A device array as allocated, one-dimensional ({@link GrDeviceArray}) or not ({@link GrMultiDimDeviceArray}):
 * what the two share. It is its whole memory from the first element on, its type is {@code DeviceArray}, and
 * its members are those of {@link ArrayMethods} with the hidden {@link ToStringMember toString}. The
 * subclasses export their elements.
 */
@ExportLibrary(InteropLibrary.class)
public abstract sealed class GrWholeArray extends GrObject implements ArrayHolder
        permits GrDeviceArray, GrMultiDimDeviceArray {
    final ArrayMemory memory;

    GrWholeArray(ArrayMemory memory) {
        this.memory = memory;
    }

    @Override
    public final ArrayMemory memory() {
        return memory;
    }

    @Override
    public final long firstElement() {
        return 0;
    }

    @Override
    public final boolean isContiguous() {
        return true;
    }

    @Override
    public final UnifiedBuffer buffer() {
        return memory.live();
    }

    @Override
    public final TrackedArray tracked() {
        return memory.tracked;
    }

    @Override
    public final long byteOffset() {
        return 0;
    }

    @Override
    public final ElementType elementType() {
        return memory.type;
    }

    @Override
    public final long elementCount() {
        return memory.count;
    }

    @Override
    public final boolean isFreed() {
        return memory.isFreed();
    }

    @ExportMessage
    public final boolean hasMembers() {
        return true;
    }

    @ExportMessage
    public final Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return ArrayMethods.names();
    }

    @ExportMessage
    public final boolean isMemberReadable(String member) {
        return ArrayMethods.has(member);
    }

    @ExportMessage
    public final boolean isMemberInvocable(String member) {
        return ArrayMethods.invocable(member) || ToStringMember.is(member);
    }

    @ExportMessage
    public final Object readMember(String member) throws UnknownIdentifierException {
        return ArrayMethods.read(memory, member);
    }

    @ExportMessage(name = "isMemberModifiable")
    @ExportMessage(name = "isMemberInsertable")
    public final boolean isMemberAssignable(@SuppressWarnings("unused") String member) {
        return false;
    }

    /** No member can be assigned; JavaScript's {@code a[-1] = 1} comes here and is told the index is out of bounds. */
    @ExportMessage
    public final void writeMember(String member, @SuppressWarnings("unused") Object value)
            throws UnsupportedMessageException {
        IndexMember.refuse(member, memory.description, elementsAtFirstLevel());
    }

    /** How many elements (1-D) or sub-arrays (multi-dimensional) index 0 to n - 1 select. */
    abstract long elementsAtFirstLevel();

    @ExportMessage
    public final Object invokeMember(String member, Object[] arguments, @Bind Node node)
            throws UnknownIdentifierException, ArityException, UnsupportedTypeException {
        if (ToStringMember.is(member)) {
            return ToStringMember.invoke(this, arguments);
        }
        Node previous = GrError.enterCall(node);
        try {
            return ArrayMethods.invoke(memory, member, arguments);
        } finally {
            GrError.leaveCall(previous);
        }
    }

    @Override
    protected final GrMetaObject metaObject() {
        return GrMetaObject.DEVICE_ARRAY;
    }

    /** What host-side messages (GraalPy's, for one) show for the array: its description, without contents. */
    @Override
    public final String toString() {
        return memory.description;
    }
}
