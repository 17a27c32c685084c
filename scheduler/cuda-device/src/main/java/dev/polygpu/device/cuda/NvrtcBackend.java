package dev.polygpu.device.cuda;

import dev.polygpu.device.CompileException;
import dev.polygpu.device.CompileException.Diagnostic;
import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jcuda.nvrtc.JNvrtc;
import jcuda.nvrtc.nvrtcProgram;
import jcuda.nvrtc.nvrtcResult;

/**
 * NVRTC, the CUDA runtime compiler, through JCuda's {@code JNvrtc} (which needs {@code libnvrtc.so.12}).
 *
 * <p>Name expressions go to {@code nvrtcAddNameExpression} and come back as lowered names. Options:
 * {@code --gpu-architecture=compute_XY} only (no line info, as for nvcc). Not run on the development machines,
 * which have no libnvrtc.
 */
final class NvrtcBackend implements PtxCompiler.Backend {
    private final String version;
    private final List<Integer> architectures;

    private NvrtcBackend(String version, List<Integer> architectures) {
        this.version = version;
        this.architectures = architectures;
    }

    /** NVRTC if JCuda can load it; throws (anything, from the class initializer too) when it cannot. */
    static NvrtcBackend probe() {
        int[] major = new int[1];
        int[] minor = new int[1];
        check(JNvrtc.nvrtcVersion(major, minor), "nvrtcVersion");
        List<Integer> archs = new ArrayList<>();
        try {
            int[] n = new int[1];
            if (JNvrtc.nvrtcGetNumSupportedArchs(n) == nvrtcResult.NVRTC_SUCCESS && n[0] > 0) {
                int[] list = new int[n[0]];
                if (JNvrtc.nvrtcGetSupportedArchs(list) == nvrtcResult.NVRTC_SUCCESS) {
                    for (int a : list) {
                        archs.add(a);
                    }
                }
            }
        } catch (UnsatisfiedLinkError e) {
            // an NVRTC older than 11.2 cannot list them; nvrtcCompileProgram reports the option instead
        }
        return new NvrtcBackend(major[0] + "." + minor[0], List.copyOf(archs));
    }

    @Override
    public String describe() {
        return "NVRTC " + version;
    }

    @Override
    public String identity() {
        return "nvrtc " + version;
    }

    @Override
    public List<String> options(String arch) {
        return List.of("--gpu-architecture=" + arch);
    }

    @Override
    public List<Integer> capabilities() {
        return architectures.stream().sorted().toList();
    }

    @Override
    public void checkArchitecture(String arch, int ccMajor, int ccMinor) {
        if (!architectures.isEmpty() && !architectures.contains(ccMajor * 10 + ccMinor)) {
            throw new DeviceException(CudaError.NOT_SUPPORTED, describe() + " cannot compile for compute capability "
                    + ccMajor + "." + ccMinor + " (" + arch + "); it supports " + architectures.stream()
                            .map(a -> "compute_" + a).toList()
                    + ". Install a libnvrtc that supports this GPU, or use nvcc (POLYGPU_NVCC).");
        }
    }

    @Override
    public PtxCompiler.Result compile(String source, String fileName, String arch, int ccMajor, int ccMinor,
            List<String> nameExpressions) {
        nvrtcProgram prog = new nvrtcProgram();
        check(JNvrtc.nvrtcCreateProgram(prog, source, fileName, 0, null, null), "nvrtcCreateProgram");
        try {
            for (String e : nameExpressions) {
                check(JNvrtc.nvrtcAddNameExpression(prog, e), "nvrtcAddNameExpression('" + e + "')");
            }
            List<String> opts = options(arch);
            int r = JNvrtc.nvrtcCompileProgram(prog, opts.size(), opts.toArray(String[]::new));
            if (r == nvrtcResult.NVRTC_ERROR_COMPILATION) {
                String[] log = new String[1];
                JNvrtc.nvrtcGetProgramLog(prog, log);
                String text = log[0] == null ? "" : log[0];
                List<Diagnostic> errors = new CompilerLog(fileName, fileName, source, List.of()).errors(text);
                if (errors.isEmpty()) {
                    errors = List.of(new Diagnostic(fileName, 0, 0, "NVRTC: " + text.strip(), null));
                }
                throw new CompileException(errors);
            }
            if (r == nvrtcResult.NVRTC_ERROR_INVALID_OPTION) {
                throw new DeviceException(CudaError.NOT_SUPPORTED, describe() + " does not accept " + opts
                        + " (compute capability " + ccMajor + "." + ccMinor + ")");
            }
            check(r, "nvrtcCompileProgram");
            String[] ptx = new String[1];
            check(JNvrtc.nvrtcGetPTX(prog, ptx), "nvrtcGetPTX");
            Map<String, String> lowered = new LinkedHashMap<>();
            for (String e : nameExpressions) {
                String[] name = new String[1];
                if (JNvrtc.nvrtcGetLoweredName(prog, e, name) == nvrtcResult.NVRTC_SUCCESS && name[0] != null) {
                    lowered.put(e, name[0]);
                }
            }
            String text = ptx[0] == null ? "" : ptx[0];
            int end = text.indexOf('\0');
            return new PtxCompiler.Result(end < 0 ? text : text.substring(0, end), lowered);
        } finally {
            JNvrtc.nvrtcDestroyProgram(prog);
        }
    }

    private static void check(int result, String what) {
        if (result != nvrtcResult.NVRTC_SUCCESS) {
            throw new DeviceException(CudaError.UNKNOWN, what + " failed: " + nvrtcResult.stringFor(result));
        }
    }
}
