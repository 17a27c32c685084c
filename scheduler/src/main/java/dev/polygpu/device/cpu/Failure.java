package dev.polygpu.device.cpu;

import dev.polygpu.device.DeviceException;

/** A failed stream operation waiting to be reported; {@code seq} orders failures across the device's streams. */
record Failure(long seq, int streamId, DeviceException error) {
}
