package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * {@code getdevice(i).properties} as GrCUDA documents it: every CUDA device attribute by its
 * {@code cudaDeviceAttr} name (lower camel case, without the prefix), {@code deviceName},
 * {@code totalDeviceMemory} and {@code freeDeviceMemory}, the free memory now (it falls by at least an
 * allocation's size and rises again when that is freed, read from the same properties object).
 */
class DevicePropertiesTest {
    /** CUDA's cudaDeviceAttr names 1 to 101 (driver_types.h of CUDA 11, where 96 was still an attribute). */
    static final List<String> CUDA_ATTRIBUTES = List.of("""
            maxThreadsPerBlock maxBlockDimX maxBlockDimY maxBlockDimZ maxGridDimX maxGridDimY maxGridDimZ
            maxSharedMemoryPerBlock totalConstantMemory warpSize maxPitch maxRegistersPerBlock clockRate
            textureAlignment gpuOverlap multiProcessorCount kernelExecTimeout integrated canMapHostMemory computeMode
            maxTexture1DWidth maxTexture2DWidth maxTexture2DHeight maxTexture3DWidth maxTexture3DHeight
            maxTexture3DDepth maxTexture2DLayeredWidth maxTexture2DLayeredHeight maxTexture2DLayeredLayers
            surfaceAlignment concurrentKernels eccEnabled pciBusId pciDeviceId tccDriver memoryClockRate
            globalMemoryBusWidth l2CacheSize maxThreadsPerMultiProcessor asyncEngineCount unifiedAddressing
            maxTexture1DLayeredWidth maxTexture1DLayeredLayers maxTexture2DGatherWidth maxTexture2DGatherHeight
            maxTexture3DWidthAlt maxTexture3DHeightAlt maxTexture3DDepthAlt pciDomainId texturePitchAlignment
            maxTextureCubemapWidth maxTextureCubemapLayeredWidth maxTextureCubemapLayeredLayers maxSurface1DWidth
            maxSurface2DWidth maxSurface2DHeight maxSurface3DWidth maxSurface3DHeight maxSurface3DDepth
            maxSurface1DLayeredWidth maxSurface1DLayeredLayers maxSurface2DLayeredWidth maxSurface2DLayeredHeight
            maxSurface2DLayeredLayers maxSurfaceCubemapWidth maxSurfaceCubemapLayeredWidth
            maxSurfaceCubemapLayeredLayers maxTexture1DLinearWidth maxTexture2DLinearWidth maxTexture2DLinearHeight
            maxTexture2DLinearPitch maxTexture2DMipmappedWidth maxTexture2DMipmappedHeight computeCapabilityMajor
            computeCapabilityMinor maxTexture1DMipmappedWidth streamPrioritiesSupported globalL1CacheSupported
            localL1CacheSupported maxSharedMemoryPerMultiprocessor maxRegistersPerMultiprocessor managedMemory
            isMultiGpuBoard multiGpuBoardGroupID hostNativeAtomicSupported singleToDoublePrecisionPerfRatio
            pageableMemoryAccess concurrentManagedAccess computePreemptionSupported
            canUseHostPointerForRegisteredMem cooperativeLaunch cooperativeMultiDeviceLaunch
            maxSharedMemoryPerBlockOptin canFlushRemoteWrites hostRegisterSupported
            pageableMemoryAccessUsesHostPageTables directManagedMemAccessFromHost""".strip().split("\\s+"));
    private static final long MIB_64 = 64L << 20;

    @Test
    void javaSeesEveryAttributeAndLiveFreeMemory() {
        Compat.java(cu -> {
            Value props = cu.invokeMember("getdevice", 0).getMember("properties");
            for (String name : CUDA_ATTRIBUTES) {
                assertTrue(props.hasMember(name), "missing " + name);
                assertTrue(props.getMember(name).fitsInLong(), name);
            }
            assertTrue(props.getMember("deviceName").isString());
            long total = props.getMember("totalDeviceMemory").asLong();
            long before = props.getMember("freeDeviceMemory").asLong();
            assertTrue(before > 0 && before <= total, before + " of " + total);
            Value a = cu.invokeMember("DeviceArray", "char", MIB_64);
            long during = props.getMember("freeDeviceMemory").asLong();
            assertTrue(during <= before - MIB_64, before + " -> " + during);
            a.invokeMember("free");
            long after = props.getMember("freeDeviceMemory").asLong();
            assertTrue(after >= during + MIB_64, during + " -> " + after);
            // the same values by CUDA code: 10 warp size, 16 multiprocessors, 38 L2 cache
            assertEquals(props.getMember("warpSize").asLong(), cu.invokeMember("cudaDeviceGetAttribute", 10, 0).asLong());
            assertEquals(props.getMember("multiProcessorCount").asLong(),
                    cu.invokeMember("cudaDeviceGetAttribute", 16, 0).asLong());
            assertEquals(props.getMember("l2CacheSize").asLong(), cu.invokeMember("cudaDeviceGetAttribute", 38, 0).asLong());
        });
    }

    /** On the CPU device the L2 cache is the host's, as Linux reports it for the first core. */
    @Test
    void theCpuDevicesL2CacheIsTheHosts() throws IOException {
        Path size = Path.of("/sys/devices/system/cpu/cpu0/cache/index2/size");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(size), "no " + size);
        String text = Files.readString(size).strip();
        long expected = text.endsWith("K") ? Long.parseLong(text.substring(0, text.length() - 1)) * 1024
                : text.endsWith("M") ? Long.parseLong(text.substring(0, text.length() - 1)) << 20 : Long.parseLong(text);
        Compat.java(java.util.Map.of("grcuda.Device", "cpu"), cu -> assertEquals(expected,
                cu.invokeMember("getdevice", 0).getMember("properties").getMember("l2CacheSize").asLong()));
    }

    @Test
    void python() {
        String names = String.join("', '", CUDA_ATTRIBUTES);
        String out = Guests.eval("python", Compat.PY + """
                d = cu.getdevices()[0]
                p = d.properties
                missing = [n for n in ['%s'] if n not in p]
                before = p.freeDeviceMemory
                a = cu.DeviceArray('char', %d)
                during = p['freeDeviceMemory']
                a.free()
                print(missing, p.totalDeviceMemory >= before >= during + %d, p.freeDeviceMemory >= during + %d)"""
                .formatted(names, MIB_64, MIB_64, MIB_64));
        assertEquals("[] True True", out.strip());
    }

    @Test
    void javascript() {
        String out = Guests.eval("js", Compat.JS + """
                const p = cu.getdevice(0).properties;
                const before = p.freeDeviceMemory;
                const a = cu.DeviceArray('char', %d);
                const during = p.freeDeviceMemory;
                console.log(p.warpSize, p.totalDeviceMemory >= before, before - during >= %d,
                    typeof p.deviceName, p.computeCapabilityMajor === cu.cudaDeviceGetAttribute(75, 0));"""
                .formatted(MIB_64, MIB_64));
        assertEquals("32 true true string true", out.strip());
    }
}
