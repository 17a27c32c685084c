package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.TruffleObject;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnknownKeyException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.grcuda.GrCUDALanguage;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A namespace of grcuda names ({@code CU}, and read-only records such as the result of {@code getoptions()}):
 * an interop object whose members are its entries, in registration order. A record ({@link #record}) is also
 * a hash, as GrCUDA's {@code getoptions()} result is: Python reads it as a dict ({@code opts["grcuda.X"]},
 * {@code dict(opts)}), JavaScript as a Map ({@code opts.get("grcuda.X")}).
 */
@ExportLibrary(InteropLibrary.class)
public final class GrNamespace implements TruffleObject {
    private static final InteropLibrary INTEROP = InteropLibrary.getUncached();

    private final String name;
    private final Map<String, Object> members;
    private final boolean record;

    public GrNamespace(String name, Map<String, ?> members) {
        this(name, members, false);
    }

    private GrNamespace(String name, Map<String, ?> members, boolean record) {
        this.name = name;
        this.members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
        this.record = record;
    }

    /** A read-only record whose entries are both members and hash entries. */
    public static GrNamespace record(String name, Map<String, ?> entries) {
        return new GrNamespace(name, entries, true);
    }

    public String name() {
        return name;
    }

    /** The member called {@code member}, or null. */
    @TruffleBoundary
    public Object lookup(String member) {
        return members.get(member);
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    @TruffleBoundary
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList(members.keySet().toArray(String[]::new));
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberReadable(String member) {
        return members.containsKey(member);
    }

    @ExportMessage
    @TruffleBoundary
    Object readMember(String member) throws UnknownIdentifierException {
        Object v = members.get(member);
        if (v == null) {
            throw UnknownIdentifierException.create(member);
        }
        return v;
    }

    /** {@code cu.buildkernel(...)} in JavaScript is a member invocation, not a read then a call. */
    @ExportMessage
    @TruffleBoundary
    boolean isMemberInvocable(String member) {
        Object v = members.get(member);
        return v != null && INTEROP.isExecutable(v);
    }

    @ExportMessage
    @TruffleBoundary
    Object invokeMember(String member, Object[] arguments)
            throws UnknownIdentifierException, UnsupportedMessageException, ArityException, UnsupportedTypeException {
        return INTEROP.execute(readMember(member), arguments);
    }

    @ExportMessage
    boolean hasHashEntries() {
        return record;
    }

    @ExportMessage
    long getHashSize() throws UnsupportedMessageException {
        if (!record) {
            throw UnsupportedMessageException.create();
        }
        return members.size();
    }

    @ExportMessage
    @TruffleBoundary
    boolean isHashEntryReadable(Object key) {
        return record && members.containsKey(keyString(key));
    }

    @ExportMessage
    @TruffleBoundary
    Object readHashValue(Object key) throws UnsupportedMessageException, UnknownKeyException {
        if (!record) {
            throw UnsupportedMessageException.create();
        }
        Object v = members.get(keyString(key));
        if (v == null) {
            throw UnknownKeyException.create(key);
        }
        return v;
    }

    @ExportMessage
    @TruffleBoundary
    Object getHashEntriesIterator() throws UnsupportedMessageException {
        if (!record) {
            throw UnsupportedMessageException.create();
        }
        Object[] entries = members.entrySet().stream().map(e -> new GrList(e.getKey(), e.getValue())).toArray();
        return INTEROP.getIterator(new GrList(entries));
    }

    /** The key as a Java string, or null if it is not a string (then no entry has it). */
    private static String keyString(Object key) {
        try {
            return INTEROP.isString(key) ? INTEROP.asString(key) : null;
        } catch (UnsupportedMessageException e) {
            return null;
        }
    }

    @ExportMessage
    boolean hasLanguage() {
        return true;
    }

    @ExportMessage
    Class<GrCUDALanguage> getLanguage() {
        return GrCUDALanguage.class;
    }

    @ExportMessage
    @TruffleBoundary
    Object toDisplayString(@SuppressWarnings("unused") boolean allowSideEffects) {
        return "namespace " + name + " " + members.keySet();
    }

    @ExportMessage
    boolean hasMetaObject() {
        return true;
    }

    @ExportMessage
    Object getMetaObject() {
        return GrMetaObject.NAMESPACE;
    }
}
