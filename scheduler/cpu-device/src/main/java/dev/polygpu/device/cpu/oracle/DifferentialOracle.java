package dev.polygpu.device.cpu.oracle;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.Module;
import dev.polygpu.device.Stream;
import dev.polygpu.device.cpu.CpuDevice;
import dev.polygpu.device.cpu.oracle.OracleOptions.NanComparison;
import dev.polygpu.device.cpu.oracle.OracleResult.Side;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Checks the CPU device's CUDA C engine against an independent implementation: each {@link OracleCase} is
 * compiled by nvcc to PTX and run on the CPU device's PTX interpreter, and compiled by the CUDA C engine and run
 * on the same device, with identical copies of its inputs and the same launch; then every buffer is compared
 * (bits for integers and for floating values without an ulp bound, the bound otherwise, NaNs as
 * {@link OracleOptions#nans()} says). Where the two disagree, one of them is wrong. The scheduler module's
 * README (section "Differential oracle") says how to choose ulp bounds.
 *
 * <pre>{@code
 * try (DifferentialOracle oracle = DifferentialOracle.create()) {
 *     List<OracleResult> results = oracle.checkAll(cases);   // one nvcc run for all of them
 * }
 * }</pre>
 *
 * <p>nvcc compiles with {@code -ptx -arch=sm_90 -fmad=false} by default: the engine never contracts a multiply
 * and an add into an fma, so neither may nvcc for the two to round alike.
 *
 * <p>A case that does not finish on a side within {@link OracleOptions#caseTimeout()} is reported as
 * {@link OracleResult.Internal} for that side (a hang is a bug of that side, or of a kernel that never ends).
 * A running kernel cannot be stopped, so the oracle leaves that device to it and goes on with a new one; the
 * hung threads (daemons) keep a core busy until the JVM exits. After {@link #MAX_HUNG_DEVICES} such devices the
 * oracle runs no more cases and reports each as {@link OracleResult.Internal} saying why.
 *
 * <p>Thread-safety: not thread-safe; use one oracle from one thread (each runs both sides of a case at once).
 */
public final class DifferentialOracle implements AutoCloseable {
    /** How many hung devices the oracle leaves behind before it stops running cases. */
    public static final int MAX_HUNG_DEVICES = 4;
    /** The longest one nvcc run may take. */
    private static final Duration NVCC_TIMEOUT = Duration.ofMinutes(10);

    private final OracleOptions options;
    private final NvccAhead nvcc;
    private final ExecutorService sides;
    /** The PTX modules of the current check's units, on the current device. */
    private final Map<PtxBatches.Unit, Module> modules = new IdentityHashMap<>();
    /** The engine's modules of the current check, on the current device. */
    private EngineModules engineModules;
    private CpuDevice device;
    private Stream ptxStream;
    private Stream engineStream;
    private int hungDevices;
    private int nvccRuns;
    private boolean closed;

    private DifferentialOracle(OracleOptions options, Path nvccPath) {
        this.options = options;
        List<String> flags = new ArrayList<>(List.of("-ptx", "-arch=" + options.arch(), "-fmad=" + options.fmad()));
        if (!options.optimized()) {
            flags.add("-G");
        }
        this.nvcc = new NvccAhead(new Nvcc(nvccPath, flags, NVCC_TIMEOUT));
        this.sides = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "polygpu-oracle-side");
            t.setDaemon(true);
            return t;
        });
        openDevice();
    }

    /** Empty when nvcc is found and runs, else why not (for tests to skip with). */
    public static Optional<String> unavailableReason() {
        return Nvcc.unavailableReason();
    }

    /** An oracle with {@link OracleOptions#DEFAULTS}; throws {@link IllegalStateException} without nvcc. */
    public static DifferentialOracle create() {
        return create(OracleOptions.DEFAULTS);
    }

    /** An oracle with {@code options}; throws {@link IllegalStateException} when there is no nvcc to run. */
    public static DifferentialOracle create(OracleOptions options) {
        Path exe = options.nvcc() != null ? options.nvcc() : Nvcc.located();
        return new DifferentialOracle(options, exe);
    }

    /** The options this oracle runs with. */
    public OracleOptions options() {
        return options;
    }

    /** How many times this oracle has run nvcc (for tests and benchmarks of the batching). */
    public int nvccRuns() {
        return nvccRuns;
    }

    /**
     * Starts compiling {@code cases} with nvcc in the background, as {@link #checkAll} of the same list will
     * (its first runs, before any fallback to smaller batches): a caller that checks batch after batch passes the
     * next batch here before checking the current one, so that nvcc and the cases' runs overlap.
     */
    public void prepare(List<OracleCase> cases) {
        if (closed) {
            throw new IllegalStateException("the oracle is closed");
        }
        for (Map.Entry<String, String> run : PtxBatches.firstRuns(cases, options.maxBatch())) {
            nvcc.ahead(run.getKey(), run.getValue());
        }
    }

    /** Runs one case on both sides and compares them. */
    public OracleResult check(OracleCase c) {
        return checkAll(List.of(c)).get(0);
    }

    /**
     * Runs every case on both sides and compares them; the results are in the order of {@code cases}. The
     * sources are compiled by as few nvcc runs as they allow: all at once when they compile together (so
     * file-scope names must differ between cases), else the cases nvcc or the interpreter blames alone and the
     * rest again, or halves; the cases then run one after another.
     */
    public List<OracleResult> checkAll(List<OracleCase> cases) {
        if (closed) {
            throw new IllegalStateException("the oracle is closed");
        }
        PtxBatches batches = new PtxBatches(nvcc, this::load, options.maxBatch());
        try {
            List<PtxBatches.Compiled> compiled = batches.compile(cases);
            List<OracleResult> results = new ArrayList<>(cases.size());
            for (int i = 0; i < cases.size(); i++) {
                results.add(runCase(cases.get(i), compiled.get(i)));
            }
            return results;
        } finally {
            nvccRuns += batches.nvccRuns();
            closeModules();
        }
    }

    /** Closes the device (not those left to hung kernels) and stops the oracle's idle threads. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeModules();
        device.close();
        sides.shutdownNow();
        nvcc.close();
    }

    private void closeModules() {
        for (Module m : modules.values()) {
            m.close();
        }
        modules.clear();
        engineModules.close();
    }

    private void openDevice() {
        device = new CpuDevice(options.concurrentBlocks());
        // Kernels' printf output would mix with the caller's; it is not compared.
        device.setPrintfSink(java.io.OutputStream.nullOutputStream());
        ptxStream = device.createStream();
        engineStream = device.createStream();
        engineModules = new EngineModules(device);
    }

    /**
     * Leaves the current device, and the modules on it, to the kernel that does not end, and starts another.
     */
    private void abandonDevice() {
        hungDevices++;
        modules.clear();
        openDevice();
    }

    /** Loads a unit's PTX on the current device (once); null when it loads, else what went wrong. */
    private SideRun.Outcome load(PtxBatches.Unit unit) {
        if (modules.containsKey(unit)) {
            return null;
        }
        try {
            modules.put(unit, device.load(unit.ptx.getBytes(StandardCharsets.UTF_8), "nvcc.ptx"));
            return null;
        } catch (RuntimeException | Error e) {
            return SideRun.classify(e);
        }
    }

    private OracleResult runCase(OracleCase c, PtxBatches.Compiled compiled) {
        if (hungDevices >= MAX_HUNG_DEVICES) {
            return new OracleResult.Internal(c.name(), Side.PTX, "not run: the oracle stopped after "
                    + hungDevices + " cases hung (their kernels still hold threads); use a new JVM");
        }
        CpuDevice dev = device;
        Future<SideRun.Outcome> ptx;
        if (compiled instanceof PtxBatches.Failed f) {
            ptx = CompletableFuture.completedFuture(f.outcome());
        } else {
            PtxBatches.Unit unit = ((PtxBatches.Ok) compiled).unit();
            SideRun.Outcome problem = load(unit);
            if (problem != null) {
                ptx = CompletableFuture.completedFuture(problem);
            } else {
                Module m = modules.get(unit);
                Stream s = ptxStream;
                ptx = sides.submit(() -> SideRun.run(dev, s, () -> m.function(c.kernel()), c));
            }
        }
        Stream s = engineStream;
        EngineModules built = engineModules;
        Future<SideRun.Outcome> engine = sides.submit(() -> SideRun.run(dev, s, () -> built.function(c), c));
        long deadline = System.nanoTime() + options.caseTimeout().toNanos();
        SideRun.Outcome p = await(ptx, deadline);
        SideRun.Outcome e = await(engine, deadline);
        if (p instanceof SideRun.Hung || e instanceof SideRun.Hung) {
            abandonDevice();
        }
        return combine(c, p, e, options.nans());
    }

    private SideRun.Outcome await(Future<SideRun.Outcome> f, long deadline) {
        try {
            return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return new SideRun.Hung("did not finish within " + options.caseTimeout().toMillis() + " ms");
        } catch (ExecutionException e) {
            return SideRun.classify(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeviceException(CudaError.UNKNOWN, "interrupted while checking a case",
                    e);
        }
    }

    /** The result of a case from what each side did with it. */
    static OracleResult combine(OracleCase c, SideRun.Outcome ptx, SideRun.Outcome engine, NanComparison nans) {
        String name = c.name();
        if (ptx instanceof SideRun.Broke b) {
            return new OracleResult.Internal(name, Side.PTX, b.text());
        }
        if (engine instanceof SideRun.Broke b) {
            return new OracleResult.Internal(name, Side.ENGINE, b.text());
        }
        if (ptx instanceof SideRun.Hung h) {
            return new OracleResult.Internal(name, Side.PTX, engine instanceof SideRun.Hung
                    ? "neither side finished: the PTX side " + h.text() + ", and so did the engine (the kernel"
                            + " itself may never end)"
                    : "the PTX side " + h.text() + "; the engine finished");
        }
        if (engine instanceof SideRun.Hung h) {
            return new OracleResult.Internal(name, Side.ENGINE, "the engine " + h.text()
                    + "; the PTX side finished");
        }
        if (ptx instanceof SideRun.Refused rp) {
            return engine instanceof SideRun.Refused re
                    ? new OracleResult.Rejected(name, Side.PTX, OracleResult.Rejected.BOTH_SIDES + "PTX: "
                            + rp.message() + "\nengine: " + re.message())
                    : new OracleResult.Rejected(name, Side.PTX, rp.message());
        }
        if (engine instanceof SideRun.Refused re) {
            return new OracleResult.Rejected(name, Side.ENGINE, re.message());
        }
        return compare(c, ((SideRun.Ran) ptx).buffers(), ((SideRun.Ran) engine).buffers(), nans);
    }

    /** Equal, or the first element of the first buffer (in parameter order) that differs. */
    static OracleResult compare(OracleCase c, List<byte[]> ptx, List<byte[]> engine, NanComparison nans) {
        int next = 0;
        for (OracleArg a : c.args()) {
            if (a instanceof OracleArg.Buffer b) {
                BufferComparison.Mismatch m = BufferComparison.firstMismatch(b.type(), b.maxUlp(), nans,
                        ptx.get(next), engine.get(next));
                next++;
                if (m != null) {
                    return new OracleResult.Differ(c.name(), c.kernel(), b.name(), m.index(), m.ptxValue(),
                            m.engineValue());
                }
            }
        }
        return new OracleResult.Equal(c.name());
    }
}
