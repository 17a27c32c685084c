package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelParam;
import dev.polygpu.device.cpu.kernel.BlockRunner;
import dev.polygpu.device.cpu.kernel.CompiledKernel;
import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Var;
import dev.polygpu.device.cpu.kernel.exec.GeneratedKernel;
import dev.polygpu.device.cpu.kernel.exec.KernelInfo;
import dev.polygpu.device.cpu.kernel.exec.KernelRunner;
import dev.polygpu.device.cpu.kernel.exec.ModuleMemory;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Compiles an analyzed kernel into a hidden JVM class implementing {@link GeneratedKernel}. Hidden classes
 * are unloaded with their last reference, so compiling many kernels does not leak metaspace.
 */
public final class KernelCompiler {
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final ClassFile CLASS_FILE = ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(
            ClassHierarchyResolver.defaultResolver().orElse(
                    ClassHierarchyResolver.ofClassLoading(KernelCompiler.class.getClassLoader()))));

    private static final System.Logger LOG = System.getLogger(KernelCompiler.class.getName());
    /** HotSpot's HugeMethodLimit: larger methods are never JIT-compiled while DontCompileHugeMethods is on. */
    static final int HUGE_METHOD_LIMIT = 8000;

    /** System property naming a folder where each compiled kernel's class file is written, for inspection. */
    public static final String DUMP_PROPERTY = "polygpu.cpu.dumpKernels";

    private KernelCompiler() {
    }

    /** The bytecode length of method {@code name} of a generated class. */
    static int methodCodeLength(byte[] classBytes, String name) {
        return ClassFile.of().parse(classBytes).methods().stream()
                .filter(m -> m.methodName().equalsString(name))
                .flatMap(m -> m.findAttribute(java.lang.classfile.Attributes.code()).stream())
                .mapToInt(java.lang.classfile.attribute.CodeAttribute::codeLength)
                .findFirst().orElse(0);
    }

    /**
     * Compiles {@code kernel} of a source without {@code __device__}/{@code __constant__} variables; throws
     * {@link CodegenException} for constructs the engine cannot run.
     */
    public static CompiledKernel compile(Function kernel) {
        return compile(kernel, ModuleMemory.EMPTY);
    }

    /**
     * Compiles {@code kernel}, whose module's {@code __device__} and {@code __constant__} variables live in
     * {@code memory}; throws {@link CodegenException} for constructs the engine cannot run.
     */
    public static CompiledKernel compile(Function kernel, ModuleMemory memory) {
        return compile(kernel, memory, true);
    }

    /**
     * As {@link #compile(Function, ModuleMemory)}; {@code loopPolls} false leaves out the polls of the launch's stop
     * request at loop back-edges, for measuring their cost only (a launch can then not be stopped inside a loop).
     */
    public static CompiledKernel compile(Function kernel, ModuleMemory memory, boolean loopPolls) {
        return compile(kernel, memory, loopPolls, true);
    }

    /** As {@link #compile(Function, ModuleMemory, boolean)}; {@code laneRows} false never checks rows at once. */
    static CompiledKernel compile(Function kernel, ModuleMemory memory, boolean loopPolls, boolean laneRows) {
        YieldLowering lowering = new YieldLowering();
        Plan plan = new Plan(kernel, lowering, memory);
        plan.laneRows = laneRows;
        plan.regions = RegionForm.of(plan);
        plan.lanes = LaneForm.of(plan);
        boolean coop = plan.cooperative() && plan.regions == null;
        // Lanes run a grid-stride loop iteration by iteration already.
        RegionForm swept = plan.lanes != null ? null : RegionForm.swept(plan);
        Emitter[] emitted = new Emitter[1];
        RegionEmitter[] regionEmitted = new RegionEmitter[1];
        ClassDesc self = ClassDesc.of(KernelCompiler.class.getPackageName() + ".Kernel" + COUNTER.incrementAndGet());
        byte[] bytes = null;
        while (bytes == null) {
            try {
                bytes = build(self, plan, coop, swept, loopPolls, emitted, regionEmitted);
            } catch (IllegalArgumentException e) {
                if (plan.laneRows) {
                    // Checking rows at once repeats each such region's code twice more.
                    plan.laneRows = false;
                } else if (swept != null) {
                    // The second method made the class too large: the thread loop alone.
                    swept = null;
                    regionEmitted[0] = null;
                } else {
                    throw tooLarge(kernel, e);
                }
            }
        }
        String method = coop ? "resumeThreads" : "runBlock";
        int codeBytes = methodCodeLength(bytes, method);
        if (codeBytes > HUGE_METHOD_LIMIT && plan.laneRows && plan.regions != null) {
            // Without the row checks' code the method may stay small enough for the JIT, which matters more.
            plan.laneRows = false;
            bytes = build(self, plan, coop, swept, loopPolls, emitted, regionEmitted);
            codeBytes = methodCodeLength(bytes, method);
        }
        if (codeBytes > HUGE_METHOD_LIMIT) {
            LOG.log(System.Logger.Level.WARNING, "kernel ''{0}'' compiled to {1} bytes of JVM code; HotSpot does not"
                    + " JIT-compile methods over {2} bytes unless the JVM runs with -XX:-DontCompileHugeMethods,"
                    + " so it will run slowly without that flag", kernel.name, codeBytes, HUGE_METHOD_LIMIT);
        }
        dump(kernel.name, self, bytes);
        GeneratedKernel generated = instantiate(bytes);
        Emitter em = emitted[0];
        RegionEmitter rem = regionEmitted[0];
        KernelInfo info = new KernelInfo(kernel.name,
                plan.shared.stream().map(v -> v.name).toList(),
                plan.sharedOffsets,
                plan.shared.stream().mapToInt(v -> v.kind == Var.Kind.EXTERN_SHARED ? 0 : v.type.size()).toArray(),
                plan.staticShared,
                plan.localMemory.stream().map(v -> v.name).toList(),
                plan.localMemory.stream().mapToInt(v -> v.type.size()).toArray(),
                rem != null ? rem.primSlots() : em.primSlots, rem != null ? rem.refSlots() : em.refSlots,
                List.copyOf(em.sites), plan.regions != null, swept != null, memory);
        int sweeps = plan.regions != null ? plan.regions.sweeps : swept != null ? swept.sweeps : 0;
        int lanes = plan.lanes != null ? plan.lanes.lanes() : 0;
        return new Compiled(kernel.name, parameters(kernel), info, generated, codeBytes, em.prints, sweeps, lanes);
    }

    /**
     * The error for a kernel whose generated method passes one of the JVM's limits on a method: 65,535 bytes of
     * code or 65,535 local variable slots. The class file library reports either as an
     * {@code IllegalArgumentException}; any other is a bug of the code generator and passes on.
     */
    private static CodegenException tooLarge(Function kernel, IllegalArgumentException e) {
        String m = String.valueOf(e.getMessage());
        String what;
        if (m.startsWith("Code length")) {
            what = "its code passes the 65535 bytes of JVM code one method may hold";
        } else if (m.startsWith("Invalid slot index")) {
            what = "it needs more than the 65535 local variable slots one JVM method may have (each local variable,"
                    + " vector component and struct member takes one or two)";
        } else {
            throw e;
        }
        return new CodegenException(kernel.pos, "kernel '" + kernel.name + "' is too large for the CPU device's"
                + " kernel engine, which compiles a kernel with its __device__ functions inlined into one JVM"
                + " method: " + what + "; split it into several kernels, or unroll fewer statements (a smaller"
                + " '#pragma unroll' count, fewer hand-unrolled lines)");
    }

    /**
     * The kernel's class: {@code resumeThreads} (cooperative), or {@code runBlock} in the region form or as the thread
     * loop, with {@code runBlocks} where its lanes run across blocks ({@link LaneForm#acrossBlocks}), and with
     * {@code swept} also {@code runBlockSwept}, the region form of a kernel without barriers.
     */
    private static byte[] build(ClassDesc self, Plan plan, boolean coop, RegionForm swept, boolean loopPolls,
            Emitter[] emitted, RegionEmitter[] regionEmitted) {
        return CLASS_FILE.build(self, cb -> {
            cb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            cb.withInterfaceSymbols(Jvm.GENERATED);
            cb.withMethodBody(ConstantDescs.INIT_NAME, MethodTypeDesc.of(ConstantDescs.CD_void), ClassFile.ACC_PUBLIC,
                    code -> {
                        code.aload(0);
                        code.invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME,
                                MethodTypeDesc.of(ConstantDescs.CD_void));
                        code.return_();
                    });
            cb.withMethodBody(coop ? "resumeThreads" : "runBlock", coop ? Jvm.RESUME : Jvm.RUN_BLOCK, ClassFile.ACC_PUBLIC,
                    code -> {
                        Emitter em = new Emitter(code, plan, loopPolls);
                        if (coop) {
                            em.emitResume();
                        } else if (plan.regions != null) {
                            RegionEmitter rem = new RegionEmitter(em, plan.regions);
                            rem.emit();
                            regionEmitted[0] = rem;
                        } else {
                            em.emitRunBlock();
                        }
                        emitted[0] = em;
                    });
            if (plan.lanes != null && plan.lanes.acrossBlocks()) {
                cb.withMethodBody("runBlocks", Jvm.RUN_BLOCKS, ClassFile.ACC_PUBLIC,
                        code -> new Emitter(code, plan, loopPolls).emitRunBlocks());
            }
            if (swept != null) {
                cb.withMethodBody("runBlockSwept", Jvm.RUN_BLOCK, ClassFile.ACC_PUBLIC, code -> {
                    // The emitters read the plan's form when they are made.
                    plan.regions = swept;
                    try {
                        RegionEmitter rem = new RegionEmitter(new Emitter(code, plan, loopPolls), swept);
                        rem.emit();
                        regionEmitted[0] = rem;
                    } finally {
                        plan.regions = null;
                    }
                });
            }
        });
    }

    /**
     * Writes a kernel's class file into the folder named by the system property {@value #DUMP_PROPERTY}, when it
     * is set, so that {@code javap -c} can show the code C2 is given.
     */
    private static void dump(String kernelName, ClassDesc self, byte[] bytes) {
        String dir = System.getProperty(DUMP_PROPERTY);
        if (dir == null || dir.isEmpty()) {
            return;
        }
        java.nio.file.Path file = java.nio.file.Path.of(dir, kernelName + "-" + self.displayName() + ".class");
        try {
            java.nio.file.Files.createDirectories(file.getParent());
            java.nio.file.Files.write(file, bytes);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot write the kernel class " + file + " that "
                    + DUMP_PROPERTY + " asks for: " + e.getMessage(), e);
        }
    }

    private static GeneratedKernel instantiate(byte[] bytes) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClass(bytes, true);
            return (GeneratedKernel) lookup.findConstructor(lookup.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
        } catch (Throwable t) {
            throw new IllegalStateException("the kernel engine generated invalid code (a bug in polygpu): " + t, t);
        }
    }

    /** Bytecode length of a kernel's generated method (for tests and diagnostics). */
    static int codeBytes(CompiledKernel kernel) {
        return ((Compiled) kernel).codeBytes();
    }

    /** How many of a kernel's loops run iteration-major ({@link Interchange}; for tests and diagnostics). */
    static int interchangedLoops(CompiledKernel kernel) {
        return ((Compiled) kernel).sweeps();
    }

    /** How many threads a kernel runs at a time as SIMD lanes ({@link LaneForm}); 0 where it runs none. */
    static int lanes(CompiledKernel kernel) {
        return ((Compiled) kernel).lanes();
    }

    /** True if a kernel's class runs stretches of blocks as one run of lanes ({@link LaneForm#acrossBlocks}). */
    static boolean acrossBlocks(CompiledKernel kernel) {
        return java.util.Arrays.stream(((Compiled) kernel).code().getClass().getDeclaredMethods())
                .anyMatch(m -> m.getName().equals("runBlocks"));
    }

    static List<KernelParam> parameters(Function kernel) {
        List<KernelParam> params = new ArrayList<>();
        for (Var p : kernel.params) {
            if (p.type instanceof CType.Pointer ptr) {
                params.add(new KernelParam(p.name, true, elementType(ptr.pointee())));
            } else {
                params.add(new KernelParam(p.name, false, elementType(p.type)));
            }
        }
        return params;
    }

    /** The element type of a C type, or null (void, pointers). */
    static ElementType elementType(CType t) {
        if (!(t instanceof CType.Prim p)) {
            return null;
        }
        return switch (p) {
            case BOOL -> ElementType.BOOL;
            case CHAR, SCHAR -> ElementType.INT8;
            case UCHAR -> ElementType.UINT8;
            case SHORT -> ElementType.INT16;
            case USHORT -> ElementType.UINT16;
            case INT -> ElementType.INT32;
            case UINT -> ElementType.UINT32;
            case LONG, LONGLONG -> ElementType.INT64;
            case ULONG, ULONGLONG -> ElementType.UINT64;
            case FLOAT -> ElementType.FLOAT;
            case DOUBLE -> ElementType.DOUBLE;
            case VOID, HALF -> null;
        };
    }

    /** A compiled kernel: metadata plus the generated code; runners are created per worker thread. */
    private record Compiled(String name, List<KernelParam> parameters, KernelInfo info, GeneratedKernel code,
                            int codeBytes, boolean prints, int sweeps, int lanes) implements CompiledKernel {
        @Override
        public int staticSharedBytes() {
            return info.staticShared();
        }

        @Override
        public boolean cooperative() {
            return info.cooperative() || info.regions();
        }

        @Override
        public Form form() {
            return info.regions() ? Form.BARRIER_REGIONS : info.cooperative() ? Form.COOPERATIVE : Form.THREAD_LOOP;
        }

        @Override
        public BlockRunner newRunner() {
            return new KernelRunner(code, info);
        }

        @Override
        public void pinModuleMemory() {
            info.memory().pin();
        }

        @Override
        public void unpinModuleMemory() {
            info.memory().unpin();
        }
    }
}
