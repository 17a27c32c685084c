package dev.polygpu.device.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("slow")
class PtxCacheTest {
    @TempDir
    Path tmp;

    private Path cacheDir;

    @BeforeEach
    void setUp() {
        cacheDir = tmp.resolve("cache");
    }

    private static final PtxCache.Entry ENTRY = new PtxCache.Entry(
            ".version 8.0\n.target sm_75\n.visible .entry _Z1kIfEvPT_(\n\t.param .u64 p\n)\n{\n\tret;\n}\n",
            Map.of("k<float>", "_Z1kIfEvPT_"));

    private static String key(String source) {
        return PtxCache.key(source, List.of("k<float>"), List.of("-ptx", "-arch=compute_75"), "compute_75", "nvcc 13");
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(cacheDir)) {
            return s.toList();
        }
    }

    @Test
    void storeThenLoadAndNothingElseIsLeftInTheFolder() throws IOException {
        PtxCache c = new PtxCache(cacheDir);
        assertNull(c.get(key("a")));
        c.put(key("a"), ENTRY);
        assertEquals(ENTRY, c.get(key("a")));
        assertEquals(ENTRY, new PtxCache(cacheDir).get(key("a")));
        assertNull(c.get(key("b")));
        assertEquals(List.of(cacheDir.resolve(key("a") + ".ptx")), files());
        c.put(key("a"), new PtxCache.Entry("other", Map.of()));
        assertEquals(new PtxCache.Entry("other", Map.of()), c.get(key("a")));
        assertEquals(1, files().size());
    }

    @Test
    void everyPartOfTheKeyMatters() {
        List<String> n = List.of("k<float>");
        List<String> o = List.of("-ptx");
        String base = PtxCache.key("src", n, o, "compute_75", "nvcc 13.0");
        assertEquals(64, base.length());
        assertEquals(base, PtxCache.key("src", List.of("k<float>"), List.of("-ptx"), "compute_75", "nvcc 13.0"));
        assertNotEquals(base, PtxCache.key("src ", n, o, "compute_75", "nvcc 13.0"));
        assertNotEquals(base, PtxCache.key("src", List.of("k<double>"), o, "compute_75", "nvcc 13.0"));
        assertNotEquals(base, PtxCache.key("src", List.of(), o, "compute_75", "nvcc 13.0"));
        assertNotEquals(base, PtxCache.key("src", n, List.of("-ptx", "-lineinfo"), "compute_75", "nvcc 13.0"));
        assertNotEquals(base, PtxCache.key("src", n, o, "compute_90", "nvcc 13.0"));
        assertNotEquals(base, PtxCache.key("src", n, o, "compute_75", "nvcc 12.6"));
        // Fields are delimited: moving text from one field to the next gives another key.
        assertNotEquals(PtxCache.key("ab", List.of(), o, "x", "y"), PtxCache.key("a", List.of("b"), o, "x", "y"));
        assertNotEquals(PtxCache.key("s", List.of("a", "b"), o, "x", "y"), PtxCache.key("s", List.of("ab"), o, "x",
                "y"));
    }

    @Test
    void damagedOrUnreadableEntriesAreMisses() throws IOException {
        PtxCache c = new PtxCache(cacheDir);
        c.put(key("a"), ENTRY);
        Path f = c.file(key("a"));
        String whole = Files.readString(f);
        Files.writeString(f, whole.substring(0, whole.length() - 5)); // truncated
        assertNull(c.get(key("a")));
        Files.writeString(f, whole + "extra"); // appended to
        assertNull(c.get(key("a")));
        Files.writeString(f, "garbage");
        assertNull(c.get(key("a")));
        Files.write(f, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertNull(c.get(key("a")));
        Files.writeString(f, whole.replace(key("a"), key("b"))); // another key's entry under this name
        assertNull(c.get(key("a")));
        Files.writeString(f, whole.replace("lowered 1", "lowered x"));
        assertNull(c.get(key("a")));
        Files.delete(f);
        Files.createDirectory(f); // cannot be read as a file
        assertNull(c.get(key("a")));
        Files.delete(f);
        c.put(key("a"), ENTRY); // a damaged entry is replaced by the next store
        assertEquals(ENTRY, c.get(key("a")));
    }

    @Test
    void anUnwritableFolderTurnsCachingOff() throws IOException {
        Path notADir = Files.writeString(tmp.resolve("file"), "x");
        PtxCache c = new PtxCache(notADir.resolve("ptx"));
        assertTrue(c.enabled());
        c.put(key("a"), ENTRY);
        assertFalse(c.enabled());
        assertNull(c.get(key("a")));
        c.put(key("a"), ENTRY); // no second attempt, no exception
        assertEquals("x", Files.readString(notADir));
    }

    @Test
    void defaultFolder() {
        assertEquals(Path.of("/c/own"), PtxCache.defaultDir(Map.of("POLYGPU_CACHE_DIR", "/c/own",
                "XDG_CACHE_HOME", "/x"), "/home/u"));
        assertEquals(Path.of("/x/polygpu/ptx"), PtxCache.defaultDir(Map.of("XDG_CACHE_HOME", "/x"), "/home/u"));
        // The XDG spec says a relative XDG_CACHE_HOME is to be ignored.
        assertEquals(Path.of("/home/u/.cache/polygpu/ptx"), PtxCache.defaultDir(Map.of("XDG_CACHE_HOME", "rel"),
                "/home/u"));
        assertEquals(Path.of("/home/u/.cache/polygpu/ptx"), PtxCache.defaultDir(Map.of(), "/home/u"));
        assertNull(PtxCache.defaultDir(Map.of("POLYGPU_CACHE_DIR", "off"), "/home/u"));
        PtxCache off = new PtxCache(null);
        assertFalse(off.enabled());
        off.put(key("a"), ENTRY);
        assertNull(off.get(key("a")));
    }

    // Through the compiler, with an nvcc wrapper that logs each -ptx run and then runs the real nvcc.

    private Path log;
    private PtxCompiler counted() throws IOException {
        log = tmp.resolve("runs.log");
        Path bin = tmp.resolve("bin");
        if (!Files.exists(bin)) {
            Files.createDirectory(bin);
        }
        return PtxCompiler.nvcc(NvccTool.countingWrapper(bin, log, 0), new PtxCache(cacheDir), Duration.ofSeconds(120));
    }

    private int runs() throws IOException {
        return NvccTool.runs(log).size();
    }

    @Test
    void aSecondCompileIsAHitAndDoesNotRunNvcc() throws Exception {
        String src = PtxCompilerTest.CXX;
        List<String> names = List.of("square", "scale<float>");
        PtxCompiler.Ptx first = counted().compile(src, "cxx.cu", 7, 5, names);
        assertFalse(first.fromCache());
        assertEquals(1, runs());
        PtxCompiler.Ptx second = counted().compile(src, "cxx.cu", 7, 5, names); // a new compiler, same folder
        assertTrue(second.fromCache());
        assertEquals(1, runs());
        assertEquals(first.text(), second.text());
        assertEquals(first.entries(), second.entries());
        assertEquals(Map.of("square", "_Z6squarePfi", "scale<float>", "_Z5scaleIfEvPT_S0_i"), second.loweredNames());
        // The file name is not part of the key: the PTX does not depend on it.
        assertTrue(counted().compile(src, "other.cu", 7, 5, names).fromCache());
        assertEquals(1, runs());
    }

    @Test
    void changingTheSourceTheArchitectureOrTheNamesIsAMiss() throws Exception {
        PtxCompiler c = counted();
        String src = PtxCompilerTest.CXX;
        c.compile(src, "cxx.cu", 7, 5, List.of());
        PtxCompiler.Ptx edited = c.compile(src + "// edited\n", "cxx.cu", 7, 5, List.of());
        assertFalse(edited.fromCache());
        assertEquals(2, runs());
        PtxCompiler.Ptx hopper = c.compile(src, "cxx.cu", 9, 0, List.of());
        assertFalse(hopper.fromCache());
        assertTrue(hopper.text().contains(".target sm_90"));
        assertEquals(3, runs());
        PtxCompiler.Ptx named = c.compile(src, "cxx.cu", 7, 5, List.of("scale<double>"));
        assertFalse(named.fromCache());
        assertEquals(List.of("_Z6squarePfi", "_Z5scaleIdEvPT_S0_i"), named.entries().stream().map(PtxEntry::name)
                .toList());
        assertEquals(4, runs());
        // Each of them is now a hit.
        assertTrue(c.compile(src, "cxx.cu", 7, 5, List.of()).fromCache());
        assertTrue(c.compile(src + "// edited\n", "cxx.cu", 7, 5, List.of()).fromCache());
        assertTrue(c.compile(src, "cxx.cu", 9, 0, List.of()).fromCache());
        assertTrue(c.compile(src, "cxx.cu", 7, 5, List.of("scale<double>")).fromCache());
        assertEquals(4, runs());
        assertEquals(4, files().size());
    }

    @Test
    void aCorruptEntryIsRecompiledAndReplaced() throws Exception {
        PtxCompiler c = counted();
        String src = PtxCompilerTest.CXX;
        PtxCompiler.Ptx first = c.compile(src, "cxx.cu", 7, 5, List.of());
        Path entry = files().get(0);
        Files.writeString(entry, "not a cache entry");
        PtxCompiler.Ptx again = c.compile(src, "cxx.cu", 7, 5, List.of());
        assertFalse(again.fromCache());
        assertEquals(first.text(), again.text());
        assertEquals(2, runs());
        assertTrue(c.compile(src, "cxx.cu", 7, 5, List.of()).fromCache());
        assertEquals(2, runs());
    }

    @Test
    void compileErrorsAreNotCached() throws Exception {
        PtxCompiler c = counted();
        for (int i = 0; i < 2; i++) {
            org.junit.jupiter.api.Assertions.assertThrows(dev.polygpu.device.CompileException.class,
                    () -> c.compile("__global__ void k() { int x = ; }", "bad.cu", 7, 5, List.of()));
        }
        assertEquals(2, runs());
        assertFalse(Files.exists(cacheDir) && !files().isEmpty());
    }

    @Test
    void withAnUnwritableFolderCompilingStillWorks() throws Exception {
        Path notADir = Files.writeString(tmp.resolve("file"), "x");
        log = tmp.resolve("runs.log");
        PtxCompiler c = PtxCompiler.nvcc(NvccTool.countingWrapper(Files.createDirectory(tmp.resolve("bin")), log, 0),
                new PtxCache(notADir.resolve("ptx")), Duration.ofSeconds(120));
        assertFalse(c.compile(PtxCompilerTest.CXX, "cxx.cu", 7, 5, List.of()).fromCache());
        assertFalse(c.compile(PtxCompilerTest.CXX, "cxx.cu", 7, 5, List.of()).fromCache());
        assertEquals(2, runs());
        assertFalse(c.cache().enabled());
    }
}
