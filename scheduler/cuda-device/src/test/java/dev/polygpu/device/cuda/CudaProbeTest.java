package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The probe that decides between the GPU and the CPU device: never throws, always says why. */
class CudaProbeTest {
    /** Whether the NVIDIA driver library is on this machine at all (where JCuda looks for it). */
    private static boolean driverInstalled() {
        for (String dir : new String[] {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu"}) {
            if (Files.exists(Path.of(dir, "libcuda.so.1"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void withoutTheDriverTheProbeSaysSoAndOpeningADeviceFailsWithThatReason() {
        assumeFalse(driverInstalled(), "this machine has libcuda.so.1; the no-driver path cannot be seen here");
        CudaProbe.Result r = CudaProbe.result();
        assertFalse(r.usable());
        assertTrue(r.devices().isEmpty());
        assertTrue(r.reason().contains("libcuda.so.1"), r.reason());
        assertTrue(r.reason().contains("JCuda"), r.reason());
        assertTrue(r.reason().contains("UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file"), r.reason());
        assertFalse(r.reason().contains("\n"), "one line for the launcher to print: " + r.reason());
        assertSame(r, CudaProbe.result(), "the probe runs once per JVM");
        DeviceException e = assertThrows(DeviceException.class, () -> CudaDevice.open(0));
        assertEquals(CudaError.NO_DEVICE, e.error());
        assertTrue(e.getMessage().contains("no usable CUDA device: " + r.reason()), e.getMessage());
    }

    @Test
    void theReasonIsTheLineOfJCudasLoaderMessageThatNamesTheMissingLibrary() {
        String jcuda = """
                Error while loading native library "JCudaDriver-12.6.0-linux-x86_64"
                Operating system name: Linux
                ---(start of nested stack traces)---
                java.lang.UnsatisfiedLinkError: no JCudaDriver-12.6.0-linux-x86_64 in java.library.path: /usr/lib
                \tat java.base/java.lang.ClassLoader.loadLibrary(ClassLoader.java:2285)
                java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver.so: libcuda.so.1: cannot open shared object \
                file: No such file or directory
                ---(end of nested stack traces)---""";
        assertEquals("UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file: No such file or directory",
                CudaProbe.rootMessage(new UnsatisfiedLinkError(jcuda)));
        assertEquals("IllegalStateException: first line", CudaProbe.rootMessage(
                new RuntimeException("wrapper", new IllegalStateException("first line\nsecond line"))));
        assertEquals("NoClassDefFoundError", CudaProbe.rootMessage(new NoClassDefFoundError()));
    }

    @Test
    @Tag("gpu")
    void onAGpuMachineTheProbeListsTheDevicesAndTheCompiler() {
        CudaProbe.Result r = CudaProbe.result();
        assumeTrue(r.usable(), () -> "no usable GPU: " + r.reason());
        assertFalse(r.devices().isEmpty());
        assertTrue(r.devices().get(0).startsWith("0: "), r.devices().toString());
        assertTrue(r.reason().contains(r.compiler()), r.reason());
        DeviceException e = assertThrows(DeviceException.class, () -> CudaDevice.open(r.devices().size()));
        assertEquals(CudaError.INVALID_DEVICE, e.error());
    }
}
