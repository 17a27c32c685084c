package dev.polygpu.device.cpu;

import dev.polygpu.device.Device;

/**
 * The device conformance suite on the CPU device in chaos mode: chaos may change timing and the order of work
 * across streams, never what a correct program observes.
 */
class ChaosConformanceTest extends DeviceConformanceTest {
    /** Short pauses keep the suite fast; the seed is fixed so a failure can be rerun alike. */
    static final Chaos CHAOS = new Chaos(0xC0FFEEL, 200);

    @Override
    protected Device newDevice() {
        return new CpuDevice(2, FakeKernels.compiler(FakeKernels.saxpy(), FakeKernels.mark()), CHAOS);
    }
}
