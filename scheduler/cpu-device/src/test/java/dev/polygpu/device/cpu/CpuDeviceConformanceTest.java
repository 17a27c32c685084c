package dev.polygpu.device.cpu;

import dev.polygpu.device.Device;

/** The device conformance suite on the CPU device, with Java stand-ins for the suite's kernels. */
class CpuDeviceConformanceTest extends DeviceConformanceTest {
    @Override
    protected Device newDevice() {
        return new CpuDevice(2, FakeKernels.compiler(FakeKernels.saxpy(), FakeKernels.mark()));
    }
}
