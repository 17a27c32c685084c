package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.Device;
import dev.polygpu.device.Dim3;
import dev.polygpu.device.KernelArgs;
import dev.polygpu.device.LaunchConfig;
import dev.polygpu.device.Module;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Fixtures, buffers to and from Java arrays, and launches for the PTX tests. */
final class PtxTestSupport {
    private PtxTestSupport() {
    }

    /** A test resource under {@code /ptx/}. */
    static byte[] resource(String name) {
        try (InputStream in = PtxTestSupport.class.getResourceAsStream("/ptx/" + name)) {
            if (in == null) {
                throw new IllegalStateException("test resource /ptx/" + name + " is missing");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(resource(name), StandardCharsets.UTF_8);
    }

    /** Loads PTX text given as a string. */
    static Module ptx(Device d, String text, String file) {
        return d.load(text.getBytes(StandardCharsets.UTF_8), file);
    }

    static void launch(Module m, String kernel, int grid, int block, KernelArgs args) {
        launch(m, kernel, new LaunchConfig(Dim3.of(grid), Dim3.of(block), 0), args);
    }

    static void launch(Module m, String kernel, LaunchConfig config, KernelArgs args) {
        Device d = m.device();
        d.defaultStream().launch(m.function(kernel), config, args);
        d.synchronize();
    }
}
