package dev.polygpu.device;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a device is and what it allows; the subset of {@code cudaDeviceProp} / {@code CUdevice_attribute} that
 * programs ask for. {@link #asMap()} gives them under GrCUDA's attribute names.
 */
public record DeviceProperties(
        String name,
        int computeCapabilityMajor,
        int computeCapabilityMinor,
        long totalGlobalMemory,
        int multiProcessorCount,
        int warpSize,
        int maxThreadsPerBlock,
        int maxBlockDimX, int maxBlockDimY, int maxBlockDimZ,
        int maxGridDimX, int maxGridDimY, int maxGridDimZ,
        int sharedMemoryPerBlock,
        int clockRateKHz,
        boolean concurrentKernels,
        boolean managedMemory) {

    /** The properties by attribute name (the names of {@code cudaDeviceAttr} without the prefix, camel case). */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("deviceName", name);
        m.put("computeCapabilityMajor", computeCapabilityMajor);
        m.put("computeCapabilityMinor", computeCapabilityMinor);
        m.put("totalGlobalMemory", totalGlobalMemory);
        m.put("multiProcessorCount", multiProcessorCount);
        m.put("warpSize", warpSize);
        m.put("maxThreadsPerBlock", maxThreadsPerBlock);
        m.put("maxBlockDimX", maxBlockDimX);
        m.put("maxBlockDimY", maxBlockDimY);
        m.put("maxBlockDimZ", maxBlockDimZ);
        m.put("maxGridDimX", maxGridDimX);
        m.put("maxGridDimY", maxGridDimY);
        m.put("maxGridDimZ", maxGridDimZ);
        m.put("maxSharedMemoryPerBlock", sharedMemoryPerBlock);
        m.put("clockRate", clockRateKHz);
        m.put("concurrentKernels", concurrentKernels ? 1 : 0);
        m.put("managedMemory", managedMemory ? 1 : 0);
        return m;
    }
}
