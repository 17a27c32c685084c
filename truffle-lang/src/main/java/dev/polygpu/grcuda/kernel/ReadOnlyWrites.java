package dev.polygpu.grcuda.kernel;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.kernel.analysis.ParameterWrites;
import dev.polygpu.device.cpu.kernel.ast.Pos;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.runtime.AccessMode;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kernels whose source writes through a pointer parameter their signature declares read-only ({@code in},
 * {@code const pointer}), as several of GrCUDA's own benchmarks do. GrCUDA runs them and lets the write race
 * with concurrent readers; here {@link ParameterWrites} finds the write in the source when the kernel is built,
 * a warning names kernel, parameter and line (once per context), and the parameter is scheduled as
 * {@code inout}, so the program runs and nothing races. Writes the analysis cannot see are still refused when
 * they happen on the CPU device.
 */
final class ReadOnlyWrites {
    private static final System.Logger LOG = System.getLogger(ReadOnlyWrites.class.getName());

    private ReadOnlyWrites() {
    }

    /** {@code signature} with every read-only pointer parameter the source writes through made {@code inout}. */
    static NidlSignature widen(GrContext context, String source, String fileName, NidlSignature signature) {
        if (signature.params().stream().noneMatch(p -> p.pointer() && p.access() == AccessMode.READ)) {
            return signature;
        }
        Map<Integer, Pos> writes;
        try {
            writes = ParameterWrites.of(source, fileName, signature.name());
        } catch (DeviceException e) {
            // CUDA C the CPU device's front end does not take (it runs on a GPU): no analysis, as in GrCUDA
            LOG.log(System.Logger.Level.DEBUG, "no write analysis of kernel '" + signature.name() + "': "
                    + e.getMessage());
            return signature;
        }
        List<NidlSignature.Param> params = new ArrayList<>(signature.params());
        boolean widened = false;
        for (int i = 0; i < params.size(); i++) {
            NidlSignature.Param p = params.get(i);
            Pos at = writes.get(i);
            if (at != null && p.pointer() && p.access() == AccessMode.READ) {
                params.set(i, new NidlSignature.Param(p.name(), true, p.type(), AccessMode.READ_WRITE));
                widened = true;
                warn(context, signature, p, i, fileName, at);
            }
        }
        return widened ? new NidlSignature(signature.name(), params, signature.legacy(), signature.cxx(),
                signature.returns()) : signature;
    }

    private static void warn(GrContext context, NidlSignature signature, NidlSignature.Param p, int index,
            String fileName, Pos at) {
        String key = signature.name() + "\u0000" + p.name() + "\u0000" + at.line();
        if (!context.firstWarning(key)) {
            return;
        }
        PrintStream err = new PrintStream(context.env().err(), true, StandardCharsets.UTF_8);
        err.println("polygpu: warning: kernel '" + signature.name() + "' writes through its parameter '" + p.name()
                + "' (argument " + (index + 1) + ") at " + fileName + ":" + at.line() + ":" + at.column()
                + ", which its signature declares read-only ('in' or 'const'); it is scheduled as 'inout', so"
                + " that no other computation uses the array meanwhile. Declare it 'inout' to silence this.");
    }
}
