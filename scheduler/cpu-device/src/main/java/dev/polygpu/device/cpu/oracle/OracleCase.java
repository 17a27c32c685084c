package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.LaunchConfig;
import java.util.List;
import java.util.Objects;

/**
 * One kernel to run on both sides of the differential oracle: CUDA C {@code source} holding an
 * {@code extern "C" __global__} kernel named {@code kernel}, launched once with {@code config} and
 * {@code args}. {@code name} identifies the case in reports (a corpus entry, a generator seed).
 *
 * <p>Cases checked together are compiled by nvcc in one run when their file-scope names do not clash, so a
 * generator names every kernel, function, struct and variable it emits after the case.
 */
public record OracleCase(String name, String source, String kernel, LaunchConfig config, List<OracleArg> args) {
    public OracleCase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(config, "config");
        args = List.copyOf(args);
    }
}
