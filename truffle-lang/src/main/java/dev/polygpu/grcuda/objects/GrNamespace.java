package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.dsl.Bind;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnknownKeyException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import com.oracle.truffle.api.nodes.Node;
import dev.polygpu.grcuda.GrError;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A namespace of grcuda names ({@code CU}, and read-only records such as the result of {@code getoptions()}):
 * an interop object whose members are its entries, in registration order. A record ({@link #record}) is also
 * a hash, as GrCUDA's {@code getoptions()} result is: Python reads it as a dict ({@code opts["grcuda.X"]},
 * {@code dict(opts)}), JavaScript as a Map ({@code opts.get("grcuda.X")}).
 *
 * <p>{@code CU} also takes namespaces that {@code bindall} creates ({@link #subNamespace}), whose functions it
 * {@linkplain #bind binds}; its own entries are fixed. Thread-safety: the members map is synchronized; entries
 * are added, never removed.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrNamespace extends GrObject {
    private static final InteropLibrary INTEROP = InteropLibrary.getUncached();
    /** Namespaces with up to this many names show them in their display string; larger ones their number. */
    private static final int LISTED_NAMES = 8;

    private final String name;
    private final Map<String, Object> members;
    private final boolean record;
    private final boolean extensible;

    public GrNamespace(String name, Map<String, ?> members) {
        this(name, members, false);
    }

    private GrNamespace(String name, Map<String, ?> members, boolean record) {
        this(name, Collections.unmodifiableMap(new LinkedHashMap<>(members)), record, false);
    }

    private GrNamespace(String name, Map<String, Object> members, boolean record, boolean extensible) {
        this.name = name;
        this.members = members;
        this.record = record;
        this.extensible = extensible;
    }

    /** A namespace whose fixed entries are {@code members} and which takes {@link #subNamespace}s. */
    public static GrNamespace extensible(String name, Map<String, ?> members) {
        return new GrNamespace(name, Collections.synchronizedMap(new LinkedHashMap<String, Object>(members)), false,
                true);
    }

    /**
     * The namespace {@code child} of this one, made empty (and extensible) the first time it is asked for.
     *
     * @throws IllegalArgumentException naming the entry, if {@code child} is an entry of another kind (a builtin
     *         of {@code CU}), or if this namespace does not take new entries
     */
    @TruffleBoundary
    public GrNamespace subNamespace(String child) {
        synchronized (members) {
            Object existing = members.get(child);
            if (existing instanceof GrNamespace n && n.extensible) {
                return n;
            }
            if (existing != null) {
                throw new IllegalArgumentException(name + "." + child + " is already " + describe(existing)
                        + "; choose another namespace name");
            }
            GrNamespace n = extensible(name + "." + child, Map.of());
            put(child, n);
            return n;
        }
    }

    /**
     * Adds or replaces the function {@code member} of a namespace made by {@link #subNamespace} (binding a name
     * again, as re-running a notebook cell does, replaces it).
     *
     * @throws IllegalArgumentException if {@code member} names a namespace here
     */
    @TruffleBoundary
    public void bind(String member, Object function) {
        synchronized (members) {
            Object existing = members.get(member);
            if (existing instanceof GrNamespace) {
                throw new IllegalArgumentException(name + "." + member + " is a namespace; a function cannot"
                        + " replace it");
            }
            put(member, function);
        }
    }

    private void put(String member, Object value) {
        if (!extensible) {
            throw new IllegalArgumentException("namespace " + name + " is read-only; it takes no new entries");
        }
        members.put(member, value);
    }

    private static String describe(Object existing) {
        return existing instanceof GrBuiltin b ? "the builtin function " + b.name() : existing instanceof GrNamespace
                ? "a read-only namespace" : "defined";
    }

    /**
     * An entry of a record whose value is taken again at each read (a device's free memory), rather than once
     * when the record is made.
     */
    @FunctionalInterface
    public interface Live {
        /** The entry's value now. */
        Object now();
    }

    /** A read-only record whose entries are both members and hash entries; a {@link Live} entry is read each time. */
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
        synchronized (members) {
            return new GrList(members.keySet().toArray(String[]::new));
        }
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
        return v instanceof Live live ? live.now() : v;
    }

    /** {@code cu.buildkernel(...)} in JavaScript is a member invocation, not a read then a call. */
    @ExportMessage
    @TruffleBoundary
    boolean isMemberInvocable(String member) {
        Object v = members.get(member);
        return v != null ? INTEROP.isExecutable(v) : ToStringMember.is(member);
    }

    @ExportMessage
    @TruffleBoundary
    Object invokeMember(String member, Object[] arguments, @Bind Node node)
            throws UnknownIdentifierException, UnsupportedMessageException, ArityException, UnsupportedTypeException {
        if (!members.containsKey(member) && ToStringMember.is(member)) {
            return ToStringMember.invoke(this, arguments);
        }
        Node previous = GrError.enterCall(node);
        try {
            return INTEROP.execute(readMember(member), arguments);
        } finally {
            GrError.leaveCall(previous);
        }
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
        return v instanceof Live live ? live.now() : v;
    }

    @ExportMessage
    @TruffleBoundary
    Object getHashEntriesIterator() throws UnsupportedMessageException {
        if (!record) {
            throw UnsupportedMessageException.create();
        }
        Object[] entries;
        synchronized (members) {
            entries = members.entrySet().stream().map(e -> new GrList(e.getKey(),
                    e.getValue() instanceof Live live ? live.now() : e.getValue())).toArray();
        }
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

    @Override
    protected String displayString() {
        // GraalJS puts this in every error of a call through the namespace ("invokeMember (DeviceArray) on …
        // failed due to: …"), so a long one (CU has 40 names) is counted, not listed, to keep the reason in view
        synchronized (members) {
            return "namespace " + name + (members.size() <= LISTED_NAMES ? " " + members.keySet()
                    : " (" + members.size() + " names)");
        }
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.NAMESPACE;
    }
}
