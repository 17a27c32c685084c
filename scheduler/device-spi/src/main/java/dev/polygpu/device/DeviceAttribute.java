package dev.polygpu.device;

/**
 * The device attributes of CUDA's {@code cudaDeviceAttr} (the same codes as the driver's
 * {@code CUdevice_attribute}) that programs read by code ({@code cudaDeviceGetAttribute}) or by name (GrCUDA's
 * {@code getdevice(i).properties}): each with its code and its name, the CUDA name without the
 * {@code cudaDevAttr} prefix in lower camel case ({@code cudaDevAttrWarpSize} is {@code warpSize}).
 */
public enum DeviceAttribute {
    MAX_THREADS_PER_BLOCK(1, "maxThreadsPerBlock"),
    MAX_BLOCK_DIM_X(2, "maxBlockDimX"),
    MAX_BLOCK_DIM_Y(3, "maxBlockDimY"),
    MAX_BLOCK_DIM_Z(4, "maxBlockDimZ"),
    MAX_GRID_DIM_X(5, "maxGridDimX"),
    MAX_GRID_DIM_Y(6, "maxGridDimY"),
    MAX_GRID_DIM_Z(7, "maxGridDimZ"),
    MAX_SHARED_MEMORY_PER_BLOCK(8, "maxSharedMemoryPerBlock"),
    TOTAL_CONSTANT_MEMORY(9, "totalConstantMemory"),
    WARP_SIZE(10, "warpSize"),
    MAX_PITCH(11, "maxPitch"),
    MAX_REGISTERS_PER_BLOCK(12, "maxRegistersPerBlock"),
    CLOCK_RATE(13, "clockRate"),
    TEXTURE_ALIGNMENT(14, "textureAlignment"),
    GPU_OVERLAP(15, "gpuOverlap"),
    MULTI_PROCESSOR_COUNT(16, "multiProcessorCount"),
    KERNEL_EXEC_TIMEOUT(17, "kernelExecTimeout"),
    INTEGRATED(18, "integrated"),
    CAN_MAP_HOST_MEMORY(19, "canMapHostMemory"),
    COMPUTE_MODE(20, "computeMode"),
    MAX_TEXTURE_1D_WIDTH(21, "maxTexture1DWidth"),
    MAX_TEXTURE_2D_WIDTH(22, "maxTexture2DWidth"),
    MAX_TEXTURE_2D_HEIGHT(23, "maxTexture2DHeight"),
    MAX_TEXTURE_3D_WIDTH(24, "maxTexture3DWidth"),
    MAX_TEXTURE_3D_HEIGHT(25, "maxTexture3DHeight"),
    MAX_TEXTURE_3D_DEPTH(26, "maxTexture3DDepth"),
    MAX_TEXTURE_2D_LAYERED_WIDTH(27, "maxTexture2DLayeredWidth"),
    MAX_TEXTURE_2D_LAYERED_HEIGHT(28, "maxTexture2DLayeredHeight"),
    MAX_TEXTURE_2D_LAYERED_LAYERS(29, "maxTexture2DLayeredLayers"),
    SURFACE_ALIGNMENT(30, "surfaceAlignment"),
    CONCURRENT_KERNELS(31, "concurrentKernels"),
    ECC_ENABLED(32, "eccEnabled"),
    PCI_BUS_ID(33, "pciBusId"),
    PCI_DEVICE_ID(34, "pciDeviceId"),
    TCC_DRIVER(35, "tccDriver"),
    MEMORY_CLOCK_RATE(36, "memoryClockRate"),
    GLOBAL_MEMORY_BUS_WIDTH(37, "globalMemoryBusWidth"),
    L2_CACHE_SIZE(38, "l2CacheSize"),
    MAX_THREADS_PER_MULTI_PROCESSOR(39, "maxThreadsPerMultiProcessor"),
    ASYNC_ENGINE_COUNT(40, "asyncEngineCount"),
    UNIFIED_ADDRESSING(41, "unifiedAddressing"),
    MAX_TEXTURE_1D_LAYERED_WIDTH(42, "maxTexture1DLayeredWidth"),
    MAX_TEXTURE_1D_LAYERED_LAYERS(43, "maxTexture1DLayeredLayers"),
    MAX_TEXTURE_2D_GATHER_WIDTH(45, "maxTexture2DGatherWidth"),
    MAX_TEXTURE_2D_GATHER_HEIGHT(46, "maxTexture2DGatherHeight"),
    MAX_TEXTURE_3D_WIDTH_ALT(47, "maxTexture3DWidthAlt"),
    MAX_TEXTURE_3D_HEIGHT_ALT(48, "maxTexture3DHeightAlt"),
    MAX_TEXTURE_3D_DEPTH_ALT(49, "maxTexture3DDepthAlt"),
    PCI_DOMAIN_ID(50, "pciDomainId"),
    TEXTURE_PITCH_ALIGNMENT(51, "texturePitchAlignment"),
    MAX_TEXTURE_CUBEMAP_WIDTH(52, "maxTextureCubemapWidth"),
    MAX_TEXTURE_CUBEMAP_LAYERED_WIDTH(53, "maxTextureCubemapLayeredWidth"),
    MAX_TEXTURE_CUBEMAP_LAYERED_LAYERS(54, "maxTextureCubemapLayeredLayers"),
    MAX_SURFACE_1D_WIDTH(55, "maxSurface1DWidth"),
    MAX_SURFACE_2D_WIDTH(56, "maxSurface2DWidth"),
    MAX_SURFACE_2D_HEIGHT(57, "maxSurface2DHeight"),
    MAX_SURFACE_3D_WIDTH(58, "maxSurface3DWidth"),
    MAX_SURFACE_3D_HEIGHT(59, "maxSurface3DHeight"),
    MAX_SURFACE_3D_DEPTH(60, "maxSurface3DDepth"),
    MAX_SURFACE_1D_LAYERED_WIDTH(61, "maxSurface1DLayeredWidth"),
    MAX_SURFACE_1D_LAYERED_LAYERS(62, "maxSurface1DLayeredLayers"),
    MAX_SURFACE_2D_LAYERED_WIDTH(63, "maxSurface2DLayeredWidth"),
    MAX_SURFACE_2D_LAYERED_HEIGHT(64, "maxSurface2DLayeredHeight"),
    MAX_SURFACE_2D_LAYERED_LAYERS(65, "maxSurface2DLayeredLayers"),
    MAX_SURFACE_CUBEMAP_WIDTH(66, "maxSurfaceCubemapWidth"),
    MAX_SURFACE_CUBEMAP_LAYERED_WIDTH(67, "maxSurfaceCubemapLayeredWidth"),
    MAX_SURFACE_CUBEMAP_LAYERED_LAYERS(68, "maxSurfaceCubemapLayeredLayers"),
    MAX_TEXTURE_1D_LINEAR_WIDTH(69, "maxTexture1DLinearWidth"),
    MAX_TEXTURE_2D_LINEAR_WIDTH(70, "maxTexture2DLinearWidth"),
    MAX_TEXTURE_2D_LINEAR_HEIGHT(71, "maxTexture2DLinearHeight"),
    MAX_TEXTURE_2D_LINEAR_PITCH(72, "maxTexture2DLinearPitch"),
    MAX_TEXTURE_2D_MIPMAPPED_WIDTH(73, "maxTexture2DMipmappedWidth"),
    MAX_TEXTURE_2D_MIPMAPPED_HEIGHT(74, "maxTexture2DMipmappedHeight"),
    COMPUTE_CAPABILITY_MAJOR(75, "computeCapabilityMajor"),
    COMPUTE_CAPABILITY_MINOR(76, "computeCapabilityMinor"),
    MAX_TEXTURE_1D_MIPMAPPED_WIDTH(77, "maxTexture1DMipmappedWidth"),
    STREAM_PRIORITIES_SUPPORTED(78, "streamPrioritiesSupported"),
    GLOBAL_L1_CACHE_SUPPORTED(79, "globalL1CacheSupported"),
    LOCAL_L1_CACHE_SUPPORTED(80, "localL1CacheSupported"),
    MAX_SHARED_MEMORY_PER_MULTIPROCESSOR(81, "maxSharedMemoryPerMultiprocessor"),
    MAX_REGISTERS_PER_MULTIPROCESSOR(82, "maxRegistersPerMultiprocessor"),
    MANAGED_MEMORY(83, "managedMemory"),
    IS_MULTI_GPU_BOARD(84, "isMultiGpuBoard"),
    MULTI_GPU_BOARD_GROUP_ID(85, "multiGpuBoardGroupID"),
    HOST_NATIVE_ATOMIC_SUPPORTED(86, "hostNativeAtomicSupported"),
    SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO(87, "singleToDoublePrecisionPerfRatio"),
    PAGEABLE_MEMORY_ACCESS(88, "pageableMemoryAccess"),
    CONCURRENT_MANAGED_ACCESS(89, "concurrentManagedAccess"),
    COMPUTE_PREEMPTION_SUPPORTED(90, "computePreemptionSupported"),
    CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM(91, "canUseHostPointerForRegisteredMem"),
    COOPERATIVE_LAUNCH(95, "cooperativeLaunch"),
    /** Deprecated since CUDA 12 (code 96 is reserved there); older devices report it. */
    COOPERATIVE_MULTI_DEVICE_LAUNCH(96, "cooperativeMultiDeviceLaunch"),
    MAX_SHARED_MEMORY_PER_BLOCK_OPTIN(97, "maxSharedMemoryPerBlockOptin"),
    CAN_FLUSH_REMOTE_WRITES(98, "canFlushRemoteWrites"),
    HOST_REGISTER_SUPPORTED(99, "hostRegisterSupported"),
    PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES(100, "pageableMemoryAccessUsesHostPageTables"),
    DIRECT_MANAGED_MEM_ACCESS_FROM_HOST(101, "directManagedMemAccessFromHost"),
    MAX_BLOCKS_PER_MULTIPROCESSOR(106, "maxBlocksPerMultiprocessor");

    private final int code;
    private final String attributeName;

    DeviceAttribute(int code, String attributeName) {
        this.code = code;
        this.attributeName = attributeName;
    }

    /** CUDA's code of the attribute. */
    public int code() {
        return code;
    }

    /** The attribute's name as {@code properties} lists it. */
    public String attributeName() {
        return attributeName;
    }

    /** The attribute of {@code code}, or null for a code that is none of these. */
    public static DeviceAttribute ofCode(long code) {
        for (DeviceAttribute a : values()) {
            if (a.code == code) {
                return a;
            }
        }
        return null;
    }
}
