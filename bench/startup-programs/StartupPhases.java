import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.Value;

/**
 * Where the start-up of a polygpu program goes: the steps {@code ./polygpu} takes for a one-kernel program, each
 * timed (wall; CPU of the whole process, every thread included; CPU of the main thread, which does the steps one
 * after the other, so that their sum bounds from below the wall time a quiet machine could give), printed as
 * Markdown table rows.
 * {@code bench/startup --phases} compiles it and runs it on the JVM and class path {@code ./polygpu} uses, with
 * and without the start-up cache. Arguments: {@code python|js}, and the kernel source file.
 */
public final class StartupPhases {
    private static long lastWall;
    private static long lastCpu;
    private static long lastMainCpu;

    public static void main(String[] args) throws Exception {
        String language = args[0];
        String kernel = Files.readString(Path.of(args[1]));
        lastWall = System.nanoTime();
        lastCpu = cpuNanos();
        lastMainCpu = mainCpuNanos();
        long sinceStart = ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.printf("| JVM start to main | %.2f | – | – |%n", sinceStart / 1e3);
        try (Engine engine = Engine.create();
                Context context = Context.newBuilder("python", "js", "grcuda").engine(engine).allowAllAccess(true)
                        .allowPolyglotAccess(PolyglotAccess.ALL).build()) {
            step("engine and context created (" + engine.getImplementationName() + ")");
            context.eval(language, "1");
            step(language + " initialized");
            Value cu = context.eval("grcuda", "CU");
            step("grcuda initialized (CU)");
            cu.getMember("polygpu_device_info").execute();
            step("device opened (the launcher's device line)");
            Value square = cu.invokeMember("buildkernel", kernel, "square(x: inout pointer float, n: sint32)");
            step("buildkernel (first kernel compiled)");
            Value x = cu.invokeMember("DeviceArray", "float", 16);
            for (int i = 0; i < 16; i++) {
                x.setArrayElement(i, i);
            }
            square.execute(1, 16).execute(x, 16);
            if (x.getArrayElement(3).asFloat() != 9.0f) {
                throw new IllegalStateException("the kernel gave " + x.getArrayElement(3) + ", not 9.0");
            }
            step("array filled, kernel launched and read back");
        }
        step("context and engine closed");
    }

    private static void step(String what) {
        long wall = System.nanoTime();
        long cpu = cpuNanos();
        long mainCpu = mainCpuNanos();
        System.out.printf("| %s | %.2f | %.2f | %.2f |%n", what, (wall - lastWall) / 1e9, (cpu - lastCpu) / 1e9,
                (mainCpu - lastMainCpu) / 1e9);
        lastWall = wall;
        lastCpu = cpu;
        lastMainCpu = mainCpu;
    }

    /** CPU time of this (the main) thread. */
    private static long mainCpuNanos() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** CPU time of the whole process (all threads: the JIT's and the GC's too). */
    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }
}
