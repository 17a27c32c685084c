package dev.polygpu.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nvcc search order and the notes on what was tried, with a fake environment and fake nvcc files. */
class NvccLocatorTest {
    @TempDir
    Path tmp;

    private static final NvccLocator.Probe ANY = nvcc -> null;

    /** An executable file named nvcc in a new folder {@code dir} under tmp. */
    private Path fakeNvcc(String dir) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(dir));
        Path exe = Files.writeString(d.resolve("nvcc"), "#!/bin/sh\nexit 0\n");
        assertTrue(exe.toFile().setExecutable(true), "cannot make " + exe + " executable");
        return exe;
    }

    private static String pathOf(Path... dirs) {
        List<String> parts = new ArrayList<>();
        for (Path d : dirs) {
            parts.add(d.toString());
        }
        return String.join(File.pathSeparator, parts);
    }

    @Test
    void polygpuNvccComesFirst() throws IOException {
        Path own = fakeNvcc("own");
        Path onPath = fakeNvcc("path");
        NvccLocator.Result r = NvccLocator.locate(Map.of("POLYGPU_NVCC", own.toString(), "PATH",
                pathOf(onPath.getParent())), List.of(), ANY);
        assertEquals(own, r.path());
        assertEquals(List.of(), r.tried());
        assertNull(r.problem());
    }

    @Test
    void thePathIsSearchedInOrderPassingOverFoldersWithoutAnExecutableNvcc() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path notExecutable = Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(notExecutable.resolve("nvcc"), "not a program");
        Path second = fakeNvcc("second");
        Path third = fakeNvcc("third");
        NvccLocator.Result r = NvccLocator.locate(Map.of("PATH", pathOf(empty, notExecutable, second.getParent(), third.getParent())),
                List.of(), ANY);
        assertEquals(second, r.path());
        assertEquals(List.of("POLYGPU_NVCC is not set"), r.tried());
    }

    @Test
    void cudaHomeComesAfterThePathAndTheFixedPlacesLast() throws IOException {
        Path home = fakeNvcc("cuda/bin").getParent().getParent();
        Path place = fakeNvcc("fixed");
        NvccLocator.Result viaHome = NvccLocator.locate(Map.of("CUDA_HOME", home.toString(), "PATH",
                tmp.resolve("nothing").toString()), List.of(place), ANY);
        assertEquals(home.resolve("bin/nvcc"), viaHome.path());
        assertEquals(List.of("POLYGPU_NVCC is not set", "no nvcc on PATH"), viaHome.tried());

        NvccLocator.Result viaPlace = NvccLocator.locate(Map.of(), List.of(tmp.resolve("missing/nvcc"), place),
                ANY);
        assertEquals(place, viaPlace.path());
        assertEquals(List.of("POLYGPU_NVCC is not set", "no nvcc on PATH", "CUDA_HOME is not set",
                tmp.resolve("missing/nvcc") + " is not an executable file"), viaPlace.tried());
    }

    @Test
    void aCandidateTheProbeRefusesIsPassedOverWithItsReason() throws IOException {
        Path broken = fakeNvcc("broken");
        Path good = fakeNvcc("good");
        NvccLocator.Probe probe = nvcc -> nvcc.equals(broken) ? nvcc + " --version failed (exit 1)" : null;
        NvccLocator.Result r = NvccLocator.locate(Map.of("POLYGPU_NVCC", broken.toString(), "PATH",
                pathOf(broken.getParent(), good.getParent())), List.of(), probe);
        assertEquals(good, r.path());
        assertEquals(List.of(broken + " --version failed (exit 1)"), r.tried(),
                "the same file, named by POLYGPU_NVCC and on the PATH, is probed once");
    }

    @Test
    void withNothingFoundTheProblemListsEverySourceInTheOrderSearched() {
        Path own = tmp.resolve("nowhere/nvcc");
        Path home = tmp.resolve("cuda");
        Path place = tmp.resolve("fixed/nvcc");
        NvccLocator.Result r = NvccLocator.locate(Map.of("POLYGPU_NVCC", own.toString(), "PATH",
                tmp.toString(), "CUDA_HOME", home.toString()), List.of(place), ANY);
        assertFalse(r.found());
        assertNull(r.path());
        assertEquals("no working nvcc. Tried: " + own + " (POLYGPU_NVCC) is not an executable file; no nvcc on PATH; "
                + home.resolve("bin/nvcc") + " (CUDA_HOME) is not an executable file; " + place
                + " is not an executable file. Install the CUDA toolkit, or set POLYGPU_NVCC to the path of nvcc.",
                r.problem());
    }

    @Test
    void theDefaultSearchEndsAtTheToolkitsInstallFolder() {
        assertEquals(List.of(Path.of("/usr/local/cuda/bin/nvcc")), NvccLocator.DEFAULT_PLACES);
        NvccLocator.Result r = NvccLocator.locate(Map.of("PATH", tmp.toString()));
        if (!r.found()) {
            assertEquals("/usr/local/cuda/bin/nvcc is not an executable file", r.tried().getLast());
        } else {
            assertEquals(Path.of("/usr/local/cuda/bin/nvcc"), r.path());
        }
    }
}
