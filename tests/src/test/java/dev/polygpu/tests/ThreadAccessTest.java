package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Value;
import org.junit.jupiter.api.Test;

/**
 * The polyglot API's thread rule for grcuda (docs/scheduler.md): a context is used by one thread at a time;
 * a second thread entering a busy context is rejected with a clear error, and the context keeps working.
 */
class ThreadAccessTest {

    @Test
    void aSecondThreadInABusyContextIsRejectedClearlyAndTheContextKeepsWorking() throws Exception {
        try (Context c = Context.newBuilder("grcuda").engine(Guests.engine()).allowAllAccess(true).build()) {
            Value cu = c.eval("grcuda", "CU");
            Value x = cu.getMember("DeviceArray").execute("float", 10);
            AtomicReference<Throwable> seen = new AtomicReference<>();
            c.enter();
            try {
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        x.setArrayElement(0, 1.5f);
                    } catch (Throwable e) {
                        seen.set(e);
                    }
                });
                t.join();
            } finally {
                c.leave();
            }
            assertTrue(seen.get() instanceof IllegalStateException, String.valueOf(seen.get()));
            assertTrue(seen.get().getMessage().contains("grcuda"), seen.get().getMessage());
            // One thread at a time is fine, whichever thread it is.
            Thread t = Thread.ofPlatform().start(() -> x.setArrayElement(1, 2.5f));
            t.join();
            assertEquals(2.5f, x.getArrayElement(1).asFloat());
        }
    }
}
