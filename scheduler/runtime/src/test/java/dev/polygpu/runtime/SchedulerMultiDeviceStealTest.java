package dev.polygpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.polygpu.device.Device;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.UnifiedBuffer;
import dev.polygpu.device.cpu.CpuDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A scheduler over two CPU devices facing a cluster layer: a ready kernel placed on either device may be taken,
 * with its arrays read from and its results written into its device's copies; an element run here for another
 * member ({@code submitHere}) is placed by the policy and its results are read where it ran; and the transfers that
 * bring such an element's arrays to its device pass a full window with it. The expected values follow from the
 * kernels' formulas by hand: step is x * 31 + s.
 */
class SchedulerMultiDeviceStealTest {
    private static final int N = SchedulerTest.N;

    private final List<Device> devices = new ArrayList<>();
    private final List<UnifiedBuffer> flags = new ArrayList<>();
    private final List<Scheduler> schedulers = new ArrayList<>();
    private TestKernels kernels;

    @BeforeEach
    void open() {
        devices.add(new CpuDevice(0, 2, null));
        devices.add(new CpuDevice(1, 2, null));
        kernels = new TestKernels(devices.get(0));
    }

    @AfterEach
    void close() {
        // Opened before the schedulers close, which wait for what the hold kernels keep waiting.
        for (UnifiedBuffer f : flags) {
            f.setInt(0, 1);
        }
        schedulers.forEach(Scheduler::close);
        devices.forEach(Device::close);
    }

    private Scheduler scheduler(SchedulerConfig config) {
        Scheduler s = new Scheduler(devices, config, MultiDeviceConfig.DEFAULT.withPolicy(
                DeviceSelectionPolicy.SINGLE_GPU));
        schedulers.add(s);
        return s;
    }

    private TrackedArray array(Scheduler s, String name) {
        TrackedArray a = kernels.array(s, name);
        for (int i = 0; i < N; i++) {
            a.buffer().setInt(i, i + 1);
        }
        return a;
    }

    /** Fills the window of 1 with a hold kernel on device 0 and waits until it runs; open it by setting flag[0]. */
    private UnifiedBuffer fillWindow(Scheduler s) {
        UnifiedBuffer flag = devices.get(0).allocate(8);
        flag.setInt(0, 0);
        flag.setInt(1, 0);
        flags.add(flag);
        s.setCurrentDevice(0);
        s.submit(kernels.hold(flag, array(s, "g")));
        TestKernels.awaitHolding(flag);
        return flag;
    }

    @Test
    void aReadyKernelOnDeviceOneIsTakenWithDeviceOnesCopyAndItsResultGoesBackThere() {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1));
        TrackedArray x = array(s, "x");
        s.setCurrentDevice(1);
        s.submit(kernels.step(x, 7));
        s.synchronize();
        UnifiedBuffer flag = fillWindow(s);
        s.setCurrentDevice(1);
        s.submit(kernels.step(x, 5));
        StolenElement e = s.steal();
        assertNotNull(e, "the second step is ready on device 1: " + s.stats());
        UnifiedBuffer there = e.buffer(x);
        assertNotSame(x.buffer(), there);
        assertSame(devices.get(1), there.device());
        for (int i = 0; i < N; i++) {
            assertEquals((i + 1) * 31 + 7, there.getInt(i), "x[" + i + "] on device 1");
            assertEquals(i + 1, x.buffer().getInt(i), "the host's stale x[" + i + "]");
            there.setInt(i, there.getInt(i) * 31 + 5);
        }
        e.complete();
        // Device 0 takes x from device 1, where the result was written.
        s.setCurrentDevice(0);
        s.submit(kernels.step(x, 1));
        flag.setInt(0, 1);
        s.awaitHost(x, AccessMode.READ, "read x");
        for (int i = 0; i < N; i++) {
            assertEquals((((i + 1) * 31 + 7) * 31 + 5) * 31 + 1, x.buffer().getInt(i), "x[" + i + "]");
        }
        assertThrows(IllegalArgumentException.class, () -> e.buffer(array(s, "other")));
    }

    @Test
    void anElementRunHereForAnotherMemberIsReadWhereItRan() throws Exception {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT);
        TrackedArray y = array(s, "y");
        s.setCurrentDevice(1);
        CompletableFuture<DeviceException> done = new CompletableFuture<>();
        s.submitHere(kernels.step(y, 7), 3, done::complete);
        assertNull(done.get(30, TimeUnit.SECONDS));
        UnifiedBuffer copy = s.settledCopy(y);
        assertSame(devices.get(1), copy.device());
        assertNotSame(y.buffer(), copy);
        for (int i = 0; i < N; i++) {
            assertEquals((i + 1) * 31 + 7, copy.getInt(i), "y[" + i + "] where it ran");
        }
        assertFalse(y.hostReadReady(), "nothing brought it home");
        s.release(y);
        assertEquals(0, devices.get(1).allocatedBytes(), "the release freed device 1's copy");
    }

    @Test
    void theTransfersOfAnElementRunHereForAnotherMemberPassAFullWindowWithIt() throws Exception {
        Scheduler s = scheduler(SchedulerConfig.DEFAULT.withInFlightWindow(1).withStolenOverflow(1));
        UnifiedBuffer flag = fillWindow(s);
        TrackedArray z = array(s, "z");
        s.setCurrentDevice(1);
        CompletableFuture<DeviceException> done = new CompletableFuture<>();
        // Rank 100 against the hold's 1: a level above 0, so it may overflow; its transfer to device 1 too.
        s.submitHere(kernels.step(z, 3), 100, done::complete);
        assertNull(done.get(30, TimeUnit.SECONDS), "it ran while the hold still filled the window");
        assertEquals(2, s.stats().overflowed(), "the transfer and the element: " + s.stats());
        for (int i = 0; i < N; i++) {
            assertEquals((i + 1) * 31 + 3, s.settledCopy(z).getInt(i), "z[" + i + "]");
        }
        flag.setInt(0, 1);
        s.synchronize();
    }
}
