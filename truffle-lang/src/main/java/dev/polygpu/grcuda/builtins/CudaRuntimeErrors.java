package dev.polygpu.grcuda.builtins;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The CUDA runtime's error codes ({@code cudaError_t}) with the name {@code cudaGetErrorName} and the description
 * {@code cudaGetErrorString} give for each, as the CUDA runtime library returns them (table
 * {@code cuda-runtime-errors.tsv} beside this class). These are the codes GrCUDA's functions take, which are
 * not the driver API's {@code CUresult} codes of {@link dev.polygpu.device.CudaError}: the two enumerations
 * share some numbers (700, an illegal address) and not others (35, {@code cudaErrorInsufficientDriver}).
 */
final class CudaRuntimeErrors {
    /** What the CUDA runtime answers for a code it does not know, for both functions. */
    static final String UNRECOGNIZED = "unrecognized error code";

    private record Entry(String name, String description) {
    }

    private static final Map<Long, Entry> BY_CODE = load();

    private CudaRuntimeErrors() {
    }

    /** {@code cudaGetErrorName(code)}: {@code cudaErrorInsufficientDriver} for 35. */
    static String name(long code) {
        Entry e = BY_CODE.get(code);
        return e == null ? UNRECOGNIZED : e.name;
    }

    /** {@code cudaGetErrorString(code)}: {@code CUDA driver version is insufficient …} for 35. */
    static String description(long code) {
        Entry e = BY_CODE.get(code);
        return e == null ? UNRECOGNIZED : e.description;
    }

    private static Map<Long, Entry> load() {
        Map<Long, Entry> m = new HashMap<>();
        try (InputStream in = CudaRuntimeErrors.class.getResourceAsStream("cuda-runtime-errors.tsv");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", 3);
                m.put(Long.parseLong(f[0]), new Entry(f[1], f[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CUDA runtime error table", e);
        }
        return Map.copyOf(m);
    }
}
