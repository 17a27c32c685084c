package dev.polygpu.grcuda.builtins;

import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.array.GrDeviceArrayFunction;
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
        add(m, new GrGetDevicesBuiltin(context));
        add(m, new GrGetDeviceBuiltin(context));
        // arrays
        m.put(GrDeviceArrayFunction.NAME, new GrDeviceArrayFunction(context));
        // kernels
        add(m, new GrBuildKernelBuiltin(context));
        add(m, GrBindKernelBuiltin.bindkernel(context));
        add(m, GrBindKernelBuiltin.bind(context));
        add(m, GrBindKernelBuiltin.bindall(context));
        // CUDA runtime functions
        add(m, new GrCudaDeviceSynchronizeBuiltin(context));
        add(m, new GrCudaDeviceResetBuiltin(context));
        add(m, new GrCudaGetDeviceBuiltin(context));
        add(m, new GrCudaGetDeviceCountBuiltin(context));
        add(m, new GrCudaSetDeviceBuiltin(context));
        add(m, new GrCudaDeviceGetAttributeBuiltin(context));
        add(m, GrCudaGetErrorStringBuiltin.string(context));
        add(m, GrCudaGetErrorStringBuiltin.name(context));
        add(m, GrRawMemoryBuiltins.malloc(context));
        add(m, GrRawMemoryBuiltins.mallocManaged(context));
        add(m, GrRawMemoryBuiltins.free(context));
        add(m, GrCudaMemcpyBuiltin.memcpy(context));
        add(m, GrCudaMemcpyBuiltin.memcpyAsync(context));
        add(m, GrCudaMemsetBuiltin.memset(context));
        add(m, GrCudaMemsetBuiltin.memsetAsync(context));
        add(m, GrRawMemoryBuiltins.prefetch(context));
        add(m, GrRawMemoryBuiltins.advise(context));
        add(m, GrRawMemoryBuiltins.attach(context));
        add(m, new GrCudaStreamCreateBuiltin(context));
        add(m, new GrCudaStreamSynchronizeBuiltin(context));
        add(m, new GrCudaStreamDestroyBuiltin(context));
        add(m, new GrCudaEventCreateBuiltin(context));
        add(m, new GrCudaEventDestroyBuiltin(context));
        add(m, new GrCudaEventRecordBuiltin(context));
        add(m, new GrCudaEventElapsedTimeBuiltin(context));
        add(m, new GrCudaStreamWaitEventBuiltin(context));
        add(m, GrPeerAccessBuiltins.canAccessPeer(context));
        add(m, GrPeerAccessBuiltins.enablePeerAccess(context));
        add(m, GrPeerAccessBuiltins.disablePeerAccess(context));
        add(m, new GrCudaProfilerStartBuiltin(context));
        add(m, new GrCudaProfilerStopBuiltin(context));
        // polygpu extensions
        add(m, new DeviceInfoBuiltin(context));
        add(m, new GetClusterStatsBuiltin(context));
        add(m, new ScheduleBuiltin(context));
        add(m, new ScheduleBuiltin.Clear(context));
        add(m, new BandwidthBuiltin(context));
        add(m, new BandwidthBuiltin.Measure(context));
        return GrNamespace.extensible("CU", m);
    }

    private static void add(Map<String, Object> m, GrBuiltin b) {
        m.put(b.name(), b);
    }
}
