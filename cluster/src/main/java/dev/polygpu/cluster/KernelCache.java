package dev.polygpu.cluster;

import dev.polygpu.device.Device;
import dev.polygpu.device.KernelFunction;
import dev.polygpu.device.Module;
import dev.polygpu.runtime.KernelSource;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The kernels a thief built from stolen elements, by the SHA-256 of their source, name and signature: each is
 * compiled once per member, however many elements of it arrive, and two elements of one new kernel arriving
 * together wait for one compilation. Bounded: past {@link #CAPACITY} kernels the least recently used is
 * forgotten (and compiled again if it comes back).
 */
final class KernelCache {
    static final int CAPACITY = 256;

    private final Device device;
    /** Builds a kernel compiled on {@link #device} for the other devices of the member's scheduler too. */
    private final BiConsumer<KernelFunction, KernelSource> alsoBuild;
    private final Map<String, CompletableFuture<KernelFunction>> byHash = new LinkedHashMap<>(16, 0.75f, true);
    private int compilations;

    KernelCache(Device device) {
        this(device, (function, source) -> { });
    }

    /**
     * A cache that compiles on {@code device} and then hands each kernel to {@code alsoBuild} (a scheduler's
     * {@link dev.polygpu.runtime.Scheduler#buildEverywhere}), so that a kernel counts as compiled only once its
     * other devices have it too; a compile error there is the kernel's.
     */
    KernelCache(Device device, BiConsumer<KernelFunction, KernelSource> alsoBuild) {
        this.device = device;
        this.alsoBuild = alsoBuild;
    }

    /** The kernel of {@code source}, compiled on first use; throws the device's compile error. */
    KernelFunction get(KernelSource source) {
        String key = hash(source);
        CompletableFuture<KernelFunction> f;
        boolean mine = false;
        synchronized (this) {
            f = byHash.get(key);
            if (f == null) {
                f = new CompletableFuture<>();
                byHash.put(key, f);
                mine = true;
                evict();
            }
        }
        if (mine) {
            try {
                KernelFunction function = build(device, source);
                alsoBuild.accept(function, source);
                f.complete(function);
                synchronized (this) {
                    compilations++;
                }
            } catch (RuntimeException e) {
                synchronized (this) {
                    byHash.remove(key, f);
                }
                f.completeExceptionally(e);
                throw e;
            }
        }
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * The kernel of {@code source} if it is compiled here already, else null (not compiled, compiling, or failed
     * to compile): a message handler may then run the element on the thread that received it.
     */
    KernelFunction compiled(KernelSource source) {
        String key = hash(source);
        synchronized (this) {
            CompletableFuture<KernelFunction> f = byHash.get(key);
            return f != null && f.isDone() && !f.isCompletedExceptionally() ? f.join() : null;
        }
    }

    /** Compiles {@code source} on {@code device}, caching nothing; throws the device's compile error. */
    static KernelFunction build(Device device, KernelSource source) {
        String name = source.name();
        int template = name.indexOf('<');
        String file = (template < 0 ? name : name.substring(0, template).strip()) + ".cu";
        Module module = device.compile(source.source(), file);
        return module.function(name);
    }

    /** How many kernels this cache compiled. */
    synchronized int compilations() {
        return compilations;
    }

    private void evict() {
        var it = byHash.entrySet().iterator();
        while (byHash.size() > CAPACITY && it.hasNext()) {
            // Not closed: elements launched from it may still be running; the device frees it when it closes.
            it.next();
            it.remove();
        }
    }

    static String hash(KernelSource source) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (String part : new String[] {source.source(), source.name(), source.signature()}) {
                d.update(part.getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
