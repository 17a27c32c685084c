package dev.polygpu.grcuda.objects;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.library.ExportLibrary;
import com.oracle.truffle.api.library.ExportMessage;

/**
 * The meta object (type) of a kind of grcuda value, as guest languages show it ({@code type(x)} in Python):
 * {@code DeviceArray}, {@code Kernel}, {@code Device}… One shared instance per kind; stateless.
 */
@ExportLibrary(InteropLibrary.class)
public final class GrMetaObject extends GrObject {
    public static final GrMetaObject DEVICE_ARRAY = new GrMetaObject("DeviceArray",
            "dev.polygpu.grcuda.array.GrDeviceArray", "dev.polygpu.grcuda.array.GrMultiDimDeviceArray",
            "dev.polygpu.grcuda.array.GrArrayView");
    public static final GrMetaObject KERNEL = new GrMetaObject("Kernel", "dev.polygpu.grcuda.kernel.GrKernel");
    public static final GrMetaObject CONFIGURED_KERNEL = new GrMetaObject("ConfiguredKernel",
            "dev.polygpu.grcuda.kernel.GrConfiguredKernel");
    public static final GrMetaObject DEVICE = new GrMetaObject("Device", "dev.polygpu.grcuda.kernel.GrDevice");
    public static final GrMetaObject STREAM = new GrMetaObject("Stream", "dev.polygpu.grcuda.kernel.GrStream");
    public static final GrMetaObject GPU_POINTER = new GrMetaObject("GPUPointer",
            "dev.polygpu.grcuda.array.GrPointer");
    public static final GrMetaObject EVENT = new GrMetaObject("Event", "dev.polygpu.grcuda.kernel.GrEvent");
    public static final GrMetaObject FUNCTION = new GrMetaObject("Function", "dev.polygpu.grcuda.objects.GrBuiltin");
    public static final GrMetaObject NAMESPACE = new GrMetaObject("Namespace", "dev.polygpu.grcuda.objects.GrNamespace");

    private final String name;
    /** Class names rather than classes: the meta objects of all packages live here without a package cycle. */
    private final String[] instanceClasses;

    private GrMetaObject(String name, String... instanceClasses) {
        this.name = name;
        this.instanceClasses = instanceClasses;
    }

    @ExportMessage
    boolean isMetaObject() {
        return true;
    }

    @ExportMessage(name = "getMetaQualifiedName")
    @ExportMessage(name = "getMetaSimpleName")
    Object getMetaSimpleName() {
        return name;
    }

    @ExportMessage
    @TruffleBoundary
    boolean isMetaInstance(Object instance) {
        for (Class<?> c = instance.getClass(); c != null; c = c.getSuperclass()) {
            for (String n : instanceClasses) {
                if (c.getName().equals(n)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    protected String displayString() {
        return name;
    }
}
