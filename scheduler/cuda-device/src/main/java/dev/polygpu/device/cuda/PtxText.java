package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Facts about PTX text that loading it needs before the driver sees it: whether bytes are PTX at all, and the
 * architecture its {@code .target} directive names. Pure: no driver.
 */
final class PtxText {
    private static final Pattern TARGET = Pattern.compile("\\.target\\s+([^\\n;]*)");
    private static final Pattern SM = Pattern.compile("sm_(\\d{2,3})([af]?)");

    /**
     * The architecture of {@code .target sm_90a}: {@code sm} 90 and {@code suffix} 'a' (code for exactly that
     * architecture), 'f' (for its family: the same major version, this minor or a later one) or '\0' (for it and
     * every later one).
     */
    record Target(int sm, char suffix) {
        @Override
        public String toString() {
            return "sm_" + sm + (suffix == 0 ? "" : String.valueOf(suffix));
        }

        /** Whether a device of compute capability {@code major}.{@code minor} can run PTX for this target. */
        boolean runsOn(int major, int minor) {
            return switch (suffix) {
                case 'a' -> sm == major * 10 + minor;
                case 'f' -> sm / 10 == major && sm % 10 <= minor;
                default -> sm <= major * 10 + minor;
            };
        }
    }

    private PtxText() {
    }

    /** Whether {@code bytes} are PTX: after white space and comments, the first directive is {@code .version}. */
    static boolean isPtx(byte[] bytes) {
        int i = 0;
        int n = bytes.length;
        while (i < n) {
            byte c = bytes[i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                i++;
            } else if (c == '/' && i + 1 < n && bytes[i + 1] == '/') {
                while (i < n && bytes[i] != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && bytes[i + 1] == '*') {
                i += 2;
                while (i + 1 < n && !(bytes[i] == '*' && bytes[i + 1] == '/')) {
                    i++;
                }
                i += 2;
            } else {
                break;
            }
        }
        byte[] version = ".version".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        if (n - i < version.length + 1) {
            return false;
        }
        for (int k = 0; k < version.length; k++) {
            if (bytes[i + k] != version[k]) {
                return false;
            }
        }
        return Character.isWhitespace(bytes[i + version.length]);
    }

    /**
     * The architecture the {@code .target} directive of {@code ptx} names.
     *
     * @throws DeviceException INVALID_PTX, naming {@code fileName}, when there is no {@code .target sm_XY}
     */
    static Target target(String ptx, String fileName) {
        Matcher m = TARGET.matcher(PtxEntries.stripComments(ptx));
        if (!m.find()) {
            throw new DeviceException(CudaError.INVALID_PTX, "PTX " + fileName + " has no .target directive;"
                    + " nvcc -ptx writes one (.target sm_75)");
        }
        for (String option : m.group(1).split(",")) {
            Matcher sm = SM.matcher(option.strip());
            if (sm.matches()) {
                return new Target(Integer.parseInt(sm.group(1)), sm.group(2).isEmpty() ? 0 : sm.group(2).charAt(0));
            }
        }
        throw new DeviceException(CudaError.INVALID_PTX, "PTX " + fileName + " has '.target " + m.group(1).strip()
                + "', which names no GPU architecture (sm_XY)");
    }

    /** {@code text} followed by the NUL the driver reads PTX up to (unchanged when it already ends with one). */
    static byte[] nulTerminated(byte[] text) {
        if (text.length > 0 && text[text.length - 1] == 0) {
            return text;
        }
        return Arrays.copyOf(text, text.length + 1);
    }
}
