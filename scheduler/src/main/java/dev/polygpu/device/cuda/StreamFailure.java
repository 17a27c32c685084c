package dev.polygpu.device.cuda;

import dev.polygpu.device.DeviceException;

/** A failure a stream has not reported yet; {@code seq} orders failures across the device's streams. */
record StreamFailure(long seq, DeviceException error) {
}
