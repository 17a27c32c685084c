package dev.polygpu.grcuda.kernel;

import dev.polygpu.grcuda.SharedEngine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.ElementType;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Devices, their properties, and the cuda* runtime functions through the polyglot API. */
class GrDeviceTest {
    @RegisterExtension
    static final SharedEngine ENGINE = new SharedEngine();
    private Context c;
    private Value cu;

    @BeforeEach
    void open() {
        c = Context.newBuilder("grcuda").engine(ENGINE.get()).allowAllAccess(true).build();
        cu = c.eval("grcuda", "CU");
    }

    @AfterEach
    void close() {
        c.close();
    }

    private Value call(String name, Object... args) {
        return cu.getMember(name).execute(args);
    }

    private String error(String name, Object... args) {
        return assertThrows(RuntimeException.class, () -> call(name, args)).getMessage();
    }

    @Test
    void devicesAndTheirProperties() {
        Value devices = call("getdevices");
        assertEquals(1, devices.getArraySize());
        Value d = devices.getArrayElement(0);
        assertEquals(0, d.getMember("id").asInt());
        assertTrue(d.invokeMember("isCurrent").asBoolean());
        assertTrue(d.getMember("isCurrent").execute().asBoolean());
        assertTrue(d.invokeMember("setCurrent").isNull());
        Value p = d.getMember("properties");
        assertEquals(32, p.getMember("warpSize").asInt());
        assertTrue(p.getMember("maxThreadsPerBlock").asInt() >= 256);
        assertTrue(p.hasMember("deviceName") && p.hasMember("multiProcessorCount"));
        assertEquals(0, call("getdevice", 0).getMember("id").asInt());
        assertEquals("getdevice: there is no device 1; device ids are 0 to 0 (1 device)", error("getdevice", 1));
        assertTrue(c.eval("grcuda", "getdevice(0)").toString().startsWith("device 0 ("));
    }

    @Test
    void deviceRuntimeFunctions() {
        assertEquals(1, call("cudaGetDeviceCount").asInt());
        assertEquals(0, call("cudaGetDevice").asInt());
        assertTrue(call("cudaSetDevice", 0).isNull());
        assertEquals("cudaSetDevice: there is no device 2; device ids are 0 to 0 (1 device)",
                error("cudaSetDevice", 2));
        assertEquals(32, call("cudaDeviceGetAttribute", "warpSize", 0).asInt());
        String unknown = error("cudaDeviceGetAttribute", "warpsize", 0);
        assertTrue(unknown.startsWith("cudaDeviceGetAttribute: unknown attribute 'warpsize'; attributes are"
                + " deviceName, computeCapabilityMajor,"), unknown);
        assertTrue(call("cudaDeviceSynchronize").isNull());
        assertTrue(call("cudaDeviceReset").isNull());
        assertTrue(call("cudaProfilerStart").isNull());
        assertTrue(call("cudaProfilerStop").isNull());
        // libcudart's descriptions of cudaErrorIllegalAddress (700), cudaSuccess and a code it does not know
        assertEquals("an illegal memory access was encountered", call("cudaGetErrorString", 700).asString());
        assertEquals("no error", call("cudaGetErrorString", 0).asString());
        assertEquals("unrecognized error code", call("cudaGetErrorString", 12345).asString());
    }

    /**
     * As in CUDA, the time to an event whose work is still running is an error (not a wait); it says how to wait,
     * and after the wait the same call works. The kernel naps for about a second, which the host's next calls
     * take far less than; if a loaded machine stalled the host for that long (the call then finds the nap over
     * and answers), the nap is launched again, up to three times. A call that waited instead of refusing would
     * answer every time.
     */
    @Test
    void elapsedTimeToAnEventStillRunningSaysHowToWait() {
        Value nap = call("buildkernel", "__global__ void nap(int *x) {"
                + " for (int i = 0; i < 1000; i++) __nanosleep(1000000); x[0] = 7; }", "nap(x: inout pointer sint32)");
        Value x = cu.getMember("DeviceArray").execute("int", 1);
        Value start = call("cudaEventCreate");
        Value end = call("cudaEventCreate");
        String e = null;
        for (int attempt = 0; e == null; attempt++) {
            call("cudaEventRecord", start);
            nap.execute(1, 1).execute(x);
            call("cudaEventRecord", end);
            try {
                float ms = call("cudaEventElapsedTime", start, end).asFloat();
                assertTrue(attempt < 2, "cudaEventElapsedTime answered " + ms + " ms three times, each right after "
                        + "a launch of a 1 s nap, instead of refusing while the nap ran");
            } catch (PolyglotException refused) {
                e = refused.getMessage();
            }
        }
        assertTrue(e.startsWith("cudaEventElapsedTime: the work recorded before an event is still running (")
                && e.contains("wait for it first with cudaDeviceSynchronize(), or cudaStreamSynchronize(s)")
                && e.endsWith("[CUDA_ERROR_NOT_READY]"), e);
        call("cudaDeviceSynchronize");
        assertTrue(call("cudaEventElapsedTime", start, end).asFloat() > 0);
        assertEquals(7, x.getArrayElement(0).asInt());
    }

    @Test
    void streamsAndEventsOrderAndTimeALaunch() {
        Value k = call("buildkernel", GrKernelTest.SQUARE, GrKernelTest.SIG);
        TestMemory x = TestMemory.allocate(c, ElementType.FLOAT, 100);
        TestMemory y = TestMemory.allocate(c, ElementType.FLOAT, 100);
        for (int i = 0; i < 100; i++) {
            x.host().setFloat(i, i * 0.5f + 1);
        }
        Value s = call("cudaStreamCreate");
        Value start = call("cudaEventCreate");
        Value end = call("cudaEventCreate");
        call("cudaEventRecord", start, s);
        k.execute(1, 64, 0, s).execute(x, y, 100);
        call("cudaEventRecord", end, s);
        assertTrue(call("cudaStreamWaitEvent", s, end).isNull());
        call("cudaStreamSynchronize", s);
        assertTrue(call("cudaEventElapsedTime", start, end).asFloat() >= 0);
        assertEquals(50.5f * 50.5f, y.host().getFloat(99));
        call("cudaEventRecord", start);
        call("cudaEventDestroy", start);
        call("cudaEventDestroy", end);
        call("cudaStreamDestroy", s);
        String notStream = error("cudaStreamSynchronize", 3);
        assertTrue(notStream.contains("cudaStreamSynchronize: argument 1 must be a stream from cudaStreamCreate(),"
                + " got 3"), notStream);
    }

    @Test
    void memcpyCopiesBetweenDeviceArrays() {
        TestMemory a = TestMemory.allocate(c, ElementType.INT32, 16);
        TestMemory b = TestMemory.allocate(c, ElementType.INT32, 16);
        for (int i = 0; i < 16; i++) {
            a.host().setInt(i, 3 * i + 7);
        }
        assertTrue(call("cudaMemcpy", b, a, 8 * 4).isNull());
        for (int i = 0; i < 16; i++) {
            assertEquals(i < 8 ? 3 * i + 7 : 0, b.host().getInt(i), "element " + i);
        }
        String tooMany = error("cudaMemcpy", b, a, 100);
        assertTrue(tooMany.startsWith("cudaMemcpy: cannot copy 100 bytes; the destination ")
                && tooMany.endsWith(" has 64 bytes from there on"), tooMany);
        String notArray = error("cudaMemcpy", b, 5, 4);
        assertTrue(notArray.contains("cudaMemcpy: argument 2 (source) is the address 0x5, which is not inside any"
                + " live allocation of this context"), notArray);
        String notMemory = error("cudaMemcpy", b, "a", 4);
        assertTrue(notMemory.contains("cudaMemcpy: argument 2 (source) must be a device array, a GPUPointer from"
                + " cudaMalloc or an address inside one, got \"a\""), notMemory);
        assertFalse(a.isFreed());
    }
}
