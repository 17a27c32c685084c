package dev.polygpu.grcuda.array;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.polygpu.device.ElementType;
import java.util.LinkedHashMap;
import java.util.Map;

/** The element type names {@code DeviceArray} accepts: C names, their unsigned short forms and NIDL names. */
final class ElementTypes {
    private static final Map<String, ElementType> NAMES = new LinkedHashMap<>();

    static {
        NAMES.put("bool", ElementType.BOOL);
        NAMES.put("boolean", ElementType.BOOL);
        NAMES.put("char", ElementType.INT8);
        NAMES.put("short", ElementType.INT16);
        NAMES.put("int", ElementType.INT32);
        NAMES.put("long", ElementType.INT64);
        NAMES.put("float", ElementType.FLOAT);
        NAMES.put("double", ElementType.DOUBLE);
        NAMES.put("uchar", ElementType.UINT8);
        NAMES.put("ushort", ElementType.UINT16);
        NAMES.put("uint", ElementType.UINT32);
        NAMES.put("ulong", ElementType.UINT64);
        NAMES.put("sint8", ElementType.INT8);
        NAMES.put("sint16", ElementType.INT16);
        NAMES.put("sint32", ElementType.INT32);
        NAMES.put("sint64", ElementType.INT64);
        NAMES.put("uint8", ElementType.UINT8);
        NAMES.put("uint16", ElementType.UINT16);
        NAMES.put("uint32", ElementType.UINT32);
        NAMES.put("uint64", ElementType.UINT64);
    }

    private ElementTypes() {
    }

    /** The type called {@code name}, or null. */
    @TruffleBoundary
    static ElementType lookup(String name) {
        return NAMES.get(name);
    }

    @TruffleBoundary
    static String validNames() {
        return String.join(", ", NAMES.keySet());
    }

    /** The short name used in display strings and messages ({@code float}, {@code uchar}). */
    static String shortName(ElementType type) {
        return switch (type) {
            case BOOL -> "bool";
            case INT8 -> "char";
            case UINT8 -> "uchar";
            case INT16 -> "short";
            case UINT16 -> "ushort";
            case INT32 -> "int";
            case UINT32 -> "uint";
            case INT64 -> "long";
            case UINT64 -> "ulong";
            case FLOAT -> "float";
            case DOUBLE -> "double";
        };
    }
}
