package dev.polygpu.device.cuda;

import dev.polygpu.device.CudaError;
import dev.polygpu.device.DeviceException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the kernels of a PTX module: every {@code .entry} (visible or not) with its parameters.
 *
 * <p>A parameter is {@code .param [.align N] .TYPE [.ptr [.SPACE] [.align N]] NAME [[COUNT]]}; its size is the
 * type's width times COUNT (1 without an array). Comments are removed first, so a commented-out entry is not
 * seen.
 */
final class PtxEntries {
    private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+([A-Za-z_$%][\\w$%.]*)\\s*\\(([^)]*)\\)");
    private static final Pattern PARAM = Pattern.compile(
            "\\.param\\s+(?:\\.align\\s+\\d+\\s+)?(\\.[a-z]+(\\d+))"
                    + "(?:\\s+\\.ptr(?:\\s+\\.(?:global|shared|const|local))?(?:\\s+\\.align\\s+\\d+)?)?"
                    + "\\s+[A-Za-z_$%][\\w$%.]*\\s*(?:\\[\\s*(\\d+)\\s*])?");

    private PtxEntries() {
    }

    static List<PtxEntry> parse(String ptx) {
        String text = stripComments(ptx);
        List<PtxEntry> entries = new ArrayList<>();
        Matcher m = ENTRY.matcher(text);
        while (m.find()) {
            List<PtxParam> params = new ArrayList<>();
            String list = m.group(2).strip();
            if (!list.isEmpty()) {
                for (String p : list.split(",")) {
                    params.add(param(m.group(1), p.strip()));
                }
            }
            entries.add(new PtxEntry(m.group(1), params));
        }
        return entries;
    }

    private static PtxParam param(String entry, String decl) {
        Matcher p = PARAM.matcher(decl);
        if (!p.matches()) {
            throw new DeviceException(CudaError.INVALID_PTX,
                    "cannot read parameter '" + decl + "' of PTX entry '" + entry + "'");
        }
        int bits = Integer.parseInt(p.group(2));
        int count = p.group(3) == null ? 1 : Integer.parseInt(p.group(3));
        return new PtxParam(p.group(1), Math.max(1, bits / 8) * count);
    }

    /** PTX with its {@code //} and {@code /* … *}{@code /} comments replaced by spaces (PTX has no string literals). */
    private static String stripComments(String ptx) {
        StringBuilder sb = new StringBuilder(ptx.length());
        int i = 0;
        int n = ptx.length();
        while (i < n) {
            char c = ptx.charAt(i);
            if (c == '/' && i + 1 < n && ptx.charAt(i + 1) == '/') {
                while (i < n && ptx.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && ptx.charAt(i + 1) == '*') {
                int end = ptx.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                sb.append(' ');
            } else {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }
}
