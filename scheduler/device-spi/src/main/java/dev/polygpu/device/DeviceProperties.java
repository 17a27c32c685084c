package dev.polygpu.device;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a device is and what it allows: the attributes of {@code cudaDeviceProp} / {@code CUdevice_attribute}
 * that the runtime itself uses as components, and every other {@link DeviceAttribute} in {@code others} (those
 * the device has a value for). {@link #asMap()} gives them all under GrCUDA's attribute names.
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
        boolean managedMemory,
        Map<DeviceAttribute, Integer> others) {

    /** The attributes the components hold; {@code others} may not repeat them. */
    public static final Set<DeviceAttribute> COMPONENT_ATTRIBUTES = Collections.unmodifiableSet(
            EnumSet.of(DeviceAttribute.COMPUTE_CAPABILITY_MAJOR, DeviceAttribute.COMPUTE_CAPABILITY_MINOR,
                    DeviceAttribute.MULTI_PROCESSOR_COUNT, DeviceAttribute.WARP_SIZE,
                    DeviceAttribute.MAX_THREADS_PER_BLOCK, DeviceAttribute.MAX_BLOCK_DIM_X,
                    DeviceAttribute.MAX_BLOCK_DIM_Y, DeviceAttribute.MAX_BLOCK_DIM_Z, DeviceAttribute.MAX_GRID_DIM_X,
                    DeviceAttribute.MAX_GRID_DIM_Y, DeviceAttribute.MAX_GRID_DIM_Z,
                    DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK, DeviceAttribute.CLOCK_RATE,
                    DeviceAttribute.CONCURRENT_KERNELS, DeviceAttribute.MANAGED_MEMORY));

    public DeviceProperties {
        for (DeviceAttribute a : others.keySet()) {
            if (COMPONENT_ATTRIBUTES.contains(a)) {
                throw new IllegalArgumentException(a + " is a component of DeviceProperties, not one of the others");
            }
        }
        others = others.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(others));
    }

    /** Properties with no attributes beyond the components. */
    public DeviceProperties(String name, int computeCapabilityMajor, int computeCapabilityMinor,
            long totalGlobalMemory, int multiProcessorCount, int warpSize, int maxThreadsPerBlock,
            int maxBlockDimX, int maxBlockDimY, int maxBlockDimZ, int maxGridDimX, int maxGridDimY, int maxGridDimZ,
            int sharedMemoryPerBlock, int clockRateKHz, boolean concurrentKernels, boolean managedMemory) {
        this(name, computeCapabilityMajor, computeCapabilityMinor, totalGlobalMemory, multiProcessorCount, warpSize,
                maxThreadsPerBlock, maxBlockDimX, maxBlockDimY, maxBlockDimZ, maxGridDimX, maxGridDimY, maxGridDimZ,
                sharedMemoryPerBlock, clockRateKHz, concurrentKernels, managedMemory, Map.of());
    }

    /**
     * The properties by attribute name ({@link DeviceAttribute#attributeName()}): the name, total memory, the
     * components, then {@code others} in code order.
     */
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
        for (Map.Entry<DeviceAttribute, Integer> e : others.entrySet()) {
            m.put(e.getKey().attributeName(), e.getValue());
        }
        return m;
    }
}
