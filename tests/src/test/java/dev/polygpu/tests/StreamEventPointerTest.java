package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * GrCUDA's streams and events are pointers to interop ({@code isNativePointer()}, {@code asNativePointer()} the
 * handle, non-zero as CUDA's {@code cudaStream_t} of a created stream is); they keep their display strings and
 * still work as streams and events.
 */
class StreamEventPointerTest {
    @Test
    void java() {
        Compat.java(cu -> {
            Value s1 = cu.invokeMember("cudaStreamCreate");
            Value s2 = cu.invokeMember("cudaStreamCreate");
            Value e1 = cu.invokeMember("cudaEventCreate");
            Value e2 = cu.invokeMember("cudaEventCreate");
            Set<Long> handles = new HashSet<>();
            for (Value v : new Value[] {s1, s2, e1, e2}) {
                assertTrue(v.isNativePointer(), v.toString());
                long h = v.asNativePointer();
                assertNotEquals(0L, h, v.toString());
                assertEquals(h, v.asNativePointer(), "stable");
                handles.add(h);
            }
            assertEquals(4, handles.size(), "unique: " + handles);
            assertTrue(s1.toString().startsWith("stream "), s1.toString());
            assertEquals("event", e1.toString());
            // still a stream and an event
            cu.invokeMember("cudaEventRecord", e1, s1);
            cu.invokeMember("cudaStreamWaitEvent", s2, e1);
            cu.invokeMember("cudaStreamSynchronize", s2);
            cu.invokeMember("cudaEventRecord", e2, s1);
            cu.invokeMember("cudaDeviceSynchronize");
            assertTrue(cu.invokeMember("cudaEventElapsedTime", e1, e2).asFloat() >= 0f);
            cu.invokeMember("cudaStreamDestroy", s1);
            cu.invokeMember("cudaEventDestroy", e1);
        });
    }

    @Test
    void python() {
        String out = Guests.eval("python", Compat.PY + """
                s = cu.cudaStreamCreate()
                e = cu.cudaEventCreate()
                cu.cudaEventRecord(e, s)
                cu.cudaStreamWaitEvent(s, e)
                cu.cudaStreamSynchronize(s)
                print(str(s).startswith('stream '), str(e), s == s, s == e)""");
        assertEquals("True event True False", out.strip());
    }

    @Test
    void javascript() {
        String out = Guests.eval("js", Compat.JS + """
                const s = cu.cudaStreamCreate();
                const e = cu.cudaEventCreate();
                cu.cudaEventRecord(e, s);
                cu.cudaStreamSynchronize(s);
                console.log(String(s).startsWith('stream '), String(e));""");
        assertEquals("true event", out.strip());
    }
}
