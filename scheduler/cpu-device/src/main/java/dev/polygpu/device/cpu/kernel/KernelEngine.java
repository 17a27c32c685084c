package dev.polygpu.device.cpu.kernel;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CompileInterruptedException;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.codegen.CodegenException;
import dev.polygpu.device.cpu.kernel.codegen.KernelCompiler;
import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import dev.polygpu.device.cpu.kernel.front.FrontEnd;
import dev.polygpu.device.cpu.kernel.front.TranslationUnit;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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

    /**
     * Compiles {@code source} ({@code fileName} names it in diagnostics) into a module, on a compile thread
     * ({@link CompileThread}). Every failure is a {@code DeviceException}: a {@link CompileException} with
     * line:col for a source that does not compile or exceeds a limit of the engine, a
     * {@code CompileInterruptedException} when the calling thread is interrupted, and one that says it is a bug
     * in polygpu for anything else the compiler throws.
     */
    public static CompiledModule compile(String source, String fileName) {
        return CompileThread.run(fileName, () -> guarded(fileName, () -> compileHere(source, fileName, true)));
    }

    /**
     * As {@link #compile}, but the kernels do not poll the launch's stop request at loop back-edges, so a launch
     * stuck in a loop cannot be stopped: for measuring what the polls cost ({@code bench/poll-cost}) and nothing
     * else. Barriers and the grid still check the request.
     */
    public static CompiledModule compileWithoutLoopPolls(String source, String fileName) {
        return CompileThread.run(fileName, () -> guarded(fileName, () -> compileHere(source, fileName, false)));
    }

    private static CompiledModule compileHere(String source, String fileName, boolean loopPolls) {
        TranslationUnit unit = FrontEnd.compile(source, fileName);
        EngineModule module = new EngineModule(unit, source, fileName,
                ModuleMemory.allocate(unit.globals(), fileName), loopPolls);
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

    /**
     * Runs {@code task} (a compile of {@code what}), turning what the compiler did not mean to throw into a
     * {@code DeviceException}: a user's source must never end the caller with an internal error.
     */
    static <T> T guarded(String what, Supplier<T> task) {
        try {
            return task.get();
        } catch (DeviceException e) {
            throw e;
        } catch (CompileCancel.Cancelled e) {
            throw new CompileInterruptedException(what);
        } catch (StackOverflowError e) {
            throw bug(what, e, "it nests deeper than the compiler's stack holds, although the front end's nesting"
                    + " limits should have refused it first");
        } catch (OutOfMemoryError e) {
            throw new DeviceException(CudaError.OUT_OF_MEMORY, "the kernel engine ran out of memory compiling "
                    + what + " (" + e.getMessage() + "); make the source smaller or give the JVM more memory (-Xmx)",
                    e);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            throw bug(what, e, null);
        }
    }

    private static DeviceException bug(String what, Throwable e, String note) {
        return new DeviceException(CudaError.COMPILATION_ERROR, "the CPU device's kernel engine failed while"
                + " compiling " + what + ": " + e.getClass().getName() + (e.getMessage() == null ? "" : ": "
                + e.getMessage()) + (note == null ? "" : " (" + note + ")") + ". This is a bug in polygpu:"
                + " please report it with the kernel source", e);
    }

    private static final class EngineModule implements CompiledModule {
        private final TranslationUnit unit;
        private final String[] lines;
        private final String fileName;
        private final Map<Function, CompiledKernel> compiled = new IdentityHashMap<>();
        /** The module's {@code __device__} and {@code __constant__} variables, one instance for all its kernels. */
        private final ModuleMemory memory;
        /** False for {@link #compileWithoutLoopPolls}. */
        private final boolean loopPolls;

        EngineModule(TranslationUnit unit, String source, String fileName, ModuleMemory memory, boolean loopPolls) {
            this.unit = unit;
            this.lines = source.split("\r?\n", -1);
            this.fileName = fileName;
            this.memory = memory;
            this.loopPolls = loopPolls;
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
            String what = "kernel '" + name + "' of " + fileName;
            return CompileThread.run(what, () -> guarded(what, () -> compileKernel(name)));
        }

        private CompiledKernel compileKernel(String name) {
            Function f = unit.kernel(name);
            synchronized (compiled) {
                CompiledKernel k = compiled.get(f);
                if (k == null) {
                    try {
                        k = KernelCompiler.compile(f, memory, loopPolls);
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
