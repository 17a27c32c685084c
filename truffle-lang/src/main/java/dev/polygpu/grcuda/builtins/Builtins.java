package dev.polygpu.grcuda.builtins;

import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.objects.GrBuiltin;
import dev.polygpu.grcuda.objects.GrNamespace;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one list of what the root namespace {@code CU} holds. */
public final class Builtins {
    private Builtins() {
    }

    public static GrNamespace rootNamespace(GrContext context) {
        Map<String, Object> m = new LinkedHashMap<>();
        // options and devices
        add(m, new GetOptionsBuiltin(context));
        // arrays
        // kernels
        // CUDA runtime functions
        // polygpu extensions
        add(m, new DeviceInfoBuiltin(context));
        return new GrNamespace("CU", m);
    }

    private static void add(Map<String, Object> m, GrBuiltin b) {
        m.put(b.name(), b);
    }
}
