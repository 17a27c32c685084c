package dev.polygpu.device.cpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.polygpu.device.Device;
import dev.polygpu.device.cuda.CudaDevice;
import dev.polygpu.device.cuda.CudaProbe;
import org.junit.jupiter.api.Tag;

/**
 * The device conformance suite on CUDA device 0, compiling the suite's kernels with the real compiler. Skips,
 * with the probe's reason, where no GPU can be used. (It lives beside the suite, which is package-private.)
 */
@Tag("gpu")
class CudaDeviceConformanceTest extends DeviceConformanceTest {
    @Override
    protected Device newDevice() {
        CudaProbe.Result probe = CudaProbe.result();
        assumeTrue(probe.usable(), () -> "no usable GPU: " + probe.reason());
        return CudaDevice.open(0);
    }
}
