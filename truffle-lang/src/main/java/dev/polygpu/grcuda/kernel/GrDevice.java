package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnknownIdentifierException;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;
import dev.polygpu.device.Device;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.builtins.Args;
import dev.polygpu.grcuda.objects.GrList;
import dev.polygpu.grcuda.objects.GrMetaObject;
import dev.polygpu.grcuda.objects.GrMethod;
import dev.polygpu.grcuda.objects.GrNamespace;
import dev.polygpu.grcuda.objects.GrNone;
import dev.polygpu.grcuda.objects.GrObject;
import dev.polygpu.grcuda.objects.ToStringMember;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A device as {@code getdevice(i)} / {@code getdevices()} return it: {@code id}, {@code properties} (a
 * record of the attributes of {@link dev.polygpu.device.DeviceProperties#asMap()} with GrCUDA's
 * {@code totalDeviceMemory} and {@code freeDeviceMemory}), {@code isCurrent()} and
 * {@code setCurrent()} (as {@code cudaSetDevice}). A context has one device unless several CPU devices stand in for
 * GPUs ({@code grcuda.NumberOfGPUs}).
 */
@ExportLibrary(InteropLibrary.class)
public final class GrDevice extends GrObject {
    private static final String[] MEMBERS = {"id", "properties", "isCurrent", "setCurrent"};

    private final GrContext context;
    private final int id;

    public GrDevice(GrContext context, int id) {
        this.context = context;
        this.id = id;
    }

    /** Number of devices the context can use. */
    public static int count(GrContext context) {
        return context.devices().size();
    }

    /** Throws a guest error naming the valid ids unless {@code id} is a device of the context. */
    @TruffleBoundary
    public static int check(GrContext context, long id, String function) {
        int n = count(context);
        if (id < 0 || id >= n) {
            throw GrError.of(function + ": there is no device " + id + "; device ids are 0 to " + (n - 1)
                    + " (" + n + " device" + (n == 1 ? "" : "s") + ")");
        }
        return (int) id;
    }

    @ExportMessage
    boolean hasMembers() {
        return true;
    }

    @ExportMessage
    Object getMembers(@SuppressWarnings("unused") boolean includeInternal) {
        return new GrList(MEMBERS);
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberReadable(String member) {
        return java.util.Arrays.asList(MEMBERS).contains(member);
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMemberInvocable(String member) {
        return member.equals("isCurrent") || member.equals("setCurrent") || ToStringMember.is(member);
    }

    @ExportMessage
    @TruffleBoundary
    Object readMember(String member) throws UnknownIdentifierException {
        return switch (member) {
            case "id" -> id;
            case "properties" -> properties();
            case "isCurrent" -> new GrMethod("isCurrent", this::isCurrent);
            case "setCurrent" -> new GrMethod("setCurrent", this::setCurrent);
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    @ExportMessage
    @TruffleBoundary
    Object invokeMember(String member, Object[] arguments)
            throws UnknownIdentifierException, ArityException, UnsupportedTypeException, UnsupportedMessageException {
        return switch (member) {
            case "isCurrent" -> isCurrent(arguments);
            case "setCurrent" -> setCurrent(arguments);
            case ToStringMember.NAME -> ToStringMember.invoke(this, arguments);
            default -> throw UnknownIdentifierException.create(member);
        };
    }

    /**
     * The device's attributes by their CUDA names, then GrCUDA's {@code totalDeviceMemory} and
     * {@code freeDeviceMemory} (read again at each access, as it changes with every allocation).
     */
    private GrNamespace properties() {
        Device device = context.devices().get(id);
        Map<String, Object> entries = new LinkedHashMap<>(device.properties().asMap());
        entries.put("totalDeviceMemory", device.properties().totalGlobalMemory());
        entries.put("freeDeviceMemory", (GrNamespace.Live) device::freeMemory);
        return GrNamespace.record("properties", entries);
    }

    private Object isCurrent(Object[] args) throws ArityException {
        Args.arity(args, 0, 0);
        return id == context.currentDevice();
    }

    private Object setCurrent(Object[] args) throws ArityException {
        Args.arity(args, 0, 0);
        context.setCurrentDevice(id);
        return GrNone.INSTANCE;
    }

    @Override
    protected String displayString() {
        return "device " + id + " (" + context.devices().get(id).properties().name() + ")";
    }

    @Override
    protected GrMetaObject metaObject() {
        return GrMetaObject.DEVICE;
    }
}
