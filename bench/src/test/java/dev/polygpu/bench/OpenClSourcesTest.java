package dev.polygpu.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The OpenCL C kernels of {@code bench/native/opencl} are the CUDA C ones of {@link Kernels} line for line: the
 * CUDA source with CUDA's built-ins replaced by OpenCL's must give the OpenCL file, once address-space qualifiers
 * of parameters, the pragmas at the top of the OpenCL file, the dynamic shared array (a parameter in OpenCL C) and
 * the {@code TILE} definition (a build option there) are set aside, and spaces at line ends and starts ignored.
 */
class OpenClSourcesTest {

    private static final Map<String, String> CUDA_TO_OPENCL = Map.ofEntries(
            Map.entry("extern \"C\" __global__ void", "__kernel void"),
            Map.entry("__device__ ", ""),
            Map.entry("__syncthreads()", "barrier(CLK_LOCAL_MEM_FENCE)"),
            Map.entry("__shared__", "__local"),
            Map.entry("threadIdx.x", "get_local_id(0)"),
            Map.entry("threadIdx.y", "get_local_id(1)"),
            Map.entry("blockIdx.x", "get_group_id(0)"),
            Map.entry("blockIdx.y", "get_group_id(1)"),
            Map.entry("blockDim.x", "get_local_size(0)"),
            Map.entry("gridDim.x", "get_num_groups(0)"));

    @ParameterizedTest
    @CsvSource({"saxpy", "saxpy_gs", "reduce_gs", "reduce", "blackscholes", "sgemm"})
    void openClKernelIsTheCudaOneLineForLine(String name) throws IOException {
        String cuda = switch (name) {
            case "saxpy" -> Kernels.SAXPY;
            case "saxpy_gs" -> Kernels.SAXPY_GRID_STRIDE;
            case "reduce_gs" -> Kernels.REDUCE_GRID_STRIDE;
            case "reduce" -> Kernels.REDUCE;
            case "blackscholes" -> Kernels.BLACK_SCHOLES;
            default -> Kernels.sgemm(16);
        };
        String openCl = Files.readString(NativeTool.defaultSourceDir().resolve("opencl").resolve(name + ".cl"));
        assertEquals(normalize(translate(cuda), false), normalize(openCl, true), name);
    }

    private static String translate(String cuda) {
        String s = cuda;
        for (Map.Entry<String, String> e : CUDA_TO_OPENCL.entrySet()) {
            s = s.replace(e.getKey(), e.getValue());
        }
        return s;
    }

    /** Lines stripped of surrounding spaces, the set-aside lines and parameter qualifiers removed. */
    private static String normalize(String source, boolean openCl) {
        List<String> lines = source.lines()
                .map(String::strip)
                .filter(l -> !l.startsWith("#define TILE") && !l.startsWith("extern __local"))
                .filter(l -> !(openCl && l.startsWith("#pragma OPENCL")))
                .map(l -> l.replace("__global ", "").replace(", __local float *sdata)", ")"))
                .toList();
        return String.join("\n", lines).strip();
    }
}
