package dev.polygpu.cluster;

import dev.polygpu.cluster.wire.ArrayData;
import dev.polygpu.cluster.wire.Digest;
import dev.polygpu.cluster.wire.Message;
import dev.polygpu.cluster.wire.SharedSecret;
import dev.polygpu.cluster.wire.StealReply;
import dev.polygpu.cluster.wire.WireCodec;
import dev.polygpu.cluster.wire.WireException;
import dev.polygpu.cluster.wire.WorkItem;
import dev.polygpu.cluster.wire.WorkResult;
import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ElementType;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import dev.polygpu.runtime.Scheduler;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * What a member does before it asks for work ({@link ClusterConfig#warmUp()}): one stolen element's whole path,
 * on itself. A test kernel and its inputs travel as a steal reply (encoded and decoded with the cluster's key),
 * are compiled and run on the member's device through its scheduler ({@link StolenElements}, as a stolen element
 * is), and the bytes it wrote travel back as a work result; they must equal the same computation done in Java.
 *
 * <p>Two reasons. A fresh JVM runs all of that path for the first time when its first stolen element arrives:
 * class loading, the device's compiler running interpreted, the first launch. Measured on the cluster benchmark,
 * that put 0.4–0.9 s between a late worker's first reply and its first kernel starting; done while Hazelcast
 * starts, it costs the join nothing. And a device that computes a wrong result (a broken toolchain, a faulty
 * GPU) would hand wrong results to every program it steals from: such a member does not join.
 */
final class Warmup {
    /** The test kernel's name; the cost model does not learn from it. */
    static final String KERNEL = "polygpu_warm_up";
    /** Elements, deliberately not a multiple of the block: the last block has threads past the end. */
    static final int N = 200;
    static final int BLOCK = 64;
    static final float SCALE = 0.75f;
    /** How long the test kernel may take (a CUDA device's first compile may run nvcc). */
    static final long TIMEOUT_SECONDS = 120;

    /**
     * Loops, an indirect read, float math, shared memory with a barrier, bounds checks and an integer atomic:
     * what most kernels use, and nothing a device may lack ({@code __nanosleep} and double atomics need newer
     * GPUs). The count is exact; the floats may differ from Java's in the last bits where a GPU contracts
     * {@code v += a * b} into a fused multiply-add.
     */
    static final String SOURCE = """
            extern "C" __global__ void polygpu_warm_up(const float* x, const int* shift, float* y, int* odd,
                                                       int n, float scale) {
                __shared__ float tile[64];
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                float v = 0.0f;
                if (i < n) {
                    for (int k = 0; k < 4; k++) {
                        v += x[(i + k * shift[i]) % n] * scale;
                    }
                    v = sqrtf(fabsf(v));
                }
                tile[threadIdx.x] = v;
                __syncthreads();
                if (i < n) {
                    y[i] = tile[threadIdx.x] - tile[(threadIdx.x + 1) % blockDim.x];
                    if ((shift[i] & 1) != 0) {
                        atomicAdd(odd, 1);
                    }
                }
            }
            """;
    static final String SIGNATURE = "x: in pointer float, shift: in pointer sint32, y: out pointer float, "
            + "odd: inout pointer sint32, n: sint32, scale: float";

    private static final long X = 1;
    private static final long SHIFT = 2;
    private static final long Y = 3;
    private static final long ODD = 4;

    private Warmup() {
    }

    /** Why a member did not join: its device failed the warm-up. */
    static final class Failed extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Runs the test element on {@code scheduler}'s device, its kernel compiled by {@code compiler}; returns how
     * long it took, in nanoseconds. Throws {@link Failed} saying what went wrong: a compile or launch error, a
     * timeout, a message that did not survive the codec, or a wrong result.
     */
    static long run(Scheduler scheduler, Function<KernelSource, KernelFunction> compiler, SharedSecret key,
            int maxFrameBytes) {
        long start = System.nanoTime();
        float[] x = new float[N];
        int[] shift = new int[N];
        for (int i = 0; i < N; i++) {
            x[i] = ((i * 37) % 101 - 50) / 8.0f;
            shift[i] = 1 + (i * 7) % 5;
        }
        byte[] xBytes = floats(x);
        byte[] shiftBytes = ints(shift);
        ElementMessage m = new ElementMessage(1, ElementKind.KERNEL, KERNEL, new KernelSource(SOURCE, KERNEL,
                SIGNATURE), new int[] {(N + BLOCK - 1) / BLOCK, 1, 1}, new int[] {BLOCK, 1, 1}, 0, 0, List.of(
                new ElementMessage.ArrayArg(X, xBytes.length, 0, AccessMode.READ),
                new ElementMessage.ArrayArg(SHIFT, shiftBytes.length, 0, AccessMode.READ),
                new ElementMessage.ArrayArg(Y, 4L * N, 0, AccessMode.WRITE),
                new ElementMessage.ArrayArg(ODD, 4, 0, AccessMode.READ_WRITE),
                new ElementMessage.ScalarArg(ElementType.INT32, N),
                new ElementMessage.ScalarArg(ElementType.FLOAT, Float.floatToRawIntBits(SCALE))));
        StealReply sent = new StealReply("warm-up", 1, List.of(new WorkItem(1, 1, m, List.of(
                new ArrayData(X, 0, xBytes, Digest.of(xBytes)), new ArrayData(SHIFT, 0, shiftBytes,
                Digest.of(shiftBytes)), new ArrayData(ODD, 0, new byte[4], Digest.of(new byte[4]))), 0)));
        StealReply reply = (StealReply) roundTrip(sent, key, maxFrameBytes, "steal reply");
        WorkItem item = reply.items().getFirst();
        Map<Long, byte[]> inputs = new HashMap<>();
        for (ArrayData d : item.inputs()) {
            inputs.put(d.arrayId(), d.bytes());
        }
        List<ArrayData> outputs;
        StolenElements.Prepared p;
        try {
            KernelFunction function = compiler.apply(item.element().source());
            p = StolenElements.prepare(scheduler, function, "the warm-up", item.element(), inputs);
        } catch (RuntimeException e) {
            throw new Failed("the test kernel could not be built on this device: " + e.getMessage(),
                    e);
        }
        CompletableFuture<DeviceException> done = new CompletableFuture<>();
        try {
            scheduler.submitHere(p.element(), done::complete);
        } catch (RuntimeException e) {
            StolenElements.release(scheduler, p.arrays());
            throw new Failed("the scheduler refused the test kernel: " + e.getMessage(), e);
        }
        DeviceException error;
        try {
            error = done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | InterruptedException e) {
            // The kernel may still be running on its arrays: they are left to the device's close, not freed here.
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new Failed(e instanceof TimeoutException ? "the test kernel did not finish within "
                    + TIMEOUT_SECONDS + " s" : "interrupted while the test kernel ran", e);
        } catch (ExecutionException e) {
            StolenElements.release(scheduler, p.arrays());
            throw new Failed("the test kernel failed: " + e.getCause(), e.getCause());
        }
        try {
            if (error != null) {
                throw new Failed("the test kernel failed on this device: " + error.getMessage(), error);
            }
            outputs = StolenElements.outputs(scheduler, item.element(), p.arrays());
        } finally {
            StolenElements.release(scheduler, p.arrays());
        }
        WorkResult result = (WorkResult) roundTrip(new WorkResult("warm-up", 1, 1, true, null, 0,
                System.nanoTime() - start, outputs), key, maxFrameBytes, "work result");
        String wrong = check(x, shift, result.outputs());
        if (wrong != null) {
            throw new Failed("the test kernel computed a wrong result on this device: " + wrong, null);
        }
        return System.nanoTime() - start;
    }

    /**
     * Null if {@code outputs} hold what the test kernel must write for inputs {@code x} and {@code shift}: each
     * {@code y} within 1e-5 relative (a fused multiply-add may round differently), the count of odd shifts
     * exactly; else the first difference.
     */
    static String check(float[] x, int[] shift, List<ArrayData> outputs) {
        float[] v = new float[N];
        int odd = 0;
        for (int i = 0; i < N; i++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++) {
                s += x[(i + k * shift[i]) % N] * SCALE;
            }
            v[i] = (float) Math.sqrt(Math.abs(s));
            odd += shift[i] & 1;
        }
        Map<Long, byte[]> byId = new HashMap<>();
        for (ArrayData d : outputs) {
            byId.put(d.arrayId(), d.bytes());
        }
        byte[] y = byId.get(Y);
        byte[] count = byId.get(ODD);
        if (y == null || y.length != 4 * N || count == null || count.length != 4) {
            return "the work result carries " + byId.keySet() + " instead of the arrays it writes (" + Y + ", " + ODD
                    + ") at their sizes";
        }
        ByteBuffer yb = ByteBuffer.wrap(y).order(ByteOrder.nativeOrder());
        for (int i = 0; i < N; i++) {
            int t = i % BLOCK;
            int next = i - t + (t + 1) % BLOCK;
            float expected = v[i] - (next < N ? v[next] : 0.0f);
            float got = yb.getFloat(4 * i);
            if (!(Math.abs(got - expected) <= 1e-5f * Math.max(1.0f, Math.abs(expected)))) {
                return "y[" + i + "] is " + got + ", expected " + expected;
            }
        }
        int gotOdd = ByteBuffer.wrap(count).order(ByteOrder.nativeOrder()).getInt(0);
        if (gotOdd != odd) {
            return "the atomic count is " + gotOdd + ", expected " + odd;
        }
        return null;
    }

    private static Message roundTrip(Message m, SharedSecret key, int maxFrameBytes, String what) {
        try {
            Message back = WireCodec.decode(WireCodec.encode(m, key), key, maxFrameBytes);
            if (!back.equals(m)) {
                throw new Failed("a " + what + " changed on its way through the message codec", null);
            }
            return back;
        } catch (WireException e) {
            throw new Failed("a " + what + " did not survive the message codec: " + e.getMessage(), e);
        }
    }

    private static byte[] floats(float[] a) {
        ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.nativeOrder());
        for (float f : a) {
            b.putFloat(f);
        }
        return b.array();
    }

    private static byte[] ints(int[] a) {
        ByteBuffer b = ByteBuffer.allocate(4 * a.length).order(ByteOrder.nativeOrder());
        for (int i : a) {
            b.putInt(i);
        }
        return b.array();
    }
}
