package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.codegen.CodegenException;
import dev.polygpu.device.cpu.kernel.codegen.KernelCompiler;
import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.kernel.front.TranslationUnit;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the kernel engine: CUDA C source in, kernels that run on the CPU out. The front end
 * (preprocessor, parser, semantic analysis) checks the whole source at once, as NVRTC does; every plain
 * kernel is also compiled to JVM code right away so that all errors show up at build time. Template kernels
 * are instantiated and compiled on their first lookup ({@code k<float>}).
 *
 * <p>Thread-safety: modules may be used from several threads; each kernel is compiled once.
 */
public final class KernelEngine {

    private KernelEngine() {
    }

    /** Compiles {@code source} ({@code fileName} names it in diagnostics) into a module. */
    public static CompiledModule compile(String source, String fileName) {
        TranslationUnit unit = FrontEnd.compile(source, fileName);
        EngineModule module = new EngineModule(unit, source, fileName,
                ModuleMemory.allocate(unit.globals(), fileName));
        try {
            for (String name : unit.kernelNames()) {
                if (!name.contains("<")) {
                    module.kernel(name);
                }
            }
        } catch (RuntimeException e) {
            module.release();
            throw e;
        }
        return module;
    }

    private static final class EngineModule implements CompiledModule {
        private final TranslationUnit unit;
        private final String[] lines;
        private final String fileName;
        private final Map<Function, CompiledKernel> compiled = new IdentityHashMap<>();
        /** The module's {@code __device__} and {@code __constant__} variables, one instance for all its kernels. */
        private final ModuleMemory memory;

        EngineModule(TranslationUnit unit, String source, String fileName, ModuleMemory memory) {
            this.unit = unit;
            this.lines = source.split("\r?\n", -1);
            this.fileName = fileName;
            this.memory = memory;
        }

        @Override
        public void release() {
            memory.release();
        }

        @Override
        public List<String> kernelNames() {
            return unit.kernelNames();
        }

        @Override
        public CompiledKernel kernel(String name) {
            Function f = unit.kernel(name);
            synchronized (compiled) {
                CompiledKernel k = compiled.get(f);
                if (k == null) {
                    try {
                        k = KernelCompiler.compile(f, memory);
                    } catch (CodegenException e) {
                        int line = e.pos() == null ? 0 : e.pos().line();
                        int col = e.pos() == null ? 0 : e.pos().column();
                        String text = line > 0 && line <= lines.length ? lines[line - 1] : null;
                        throw new CompileException(List.of(
                                new CompileException.Diagnostic(fileName, line, col, e.getMessage(), text)));
                    }
                    compiled.put(f, k);
                }
                return k;
            }
        }
    }
}
