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
 * type's width times COUNT (1 without an array), its alignment the first N (the type's width without it).
 * Comments are removed first, so a commented-out entry is not seen.
 */
final class PtxEntries {
    private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+([A-Za-z_$%][\\w$%.]*)\\s*\\(([^)]*)\\)");
    private static final Pattern PARAM = Pattern.compile(
            "\\.param\\s+(?:\\.align\\s+(\\d+)\\s+)?(\\.[a-z]+(\\d+))"
                    + "(?:\\s+\\.ptr(?:\\s+\\.(?:global|shared|const|local))?(?:\\s+\\.align\\s+\\d+)?)?"
                    + "\\s+([A-Za-z_$%][\\w$%.]*)\\s*(?:\\[\\s*(\\d+)\\s*])?");

    /** More than any kernel's parameters can hold (CUDA allows 32,764 bytes of parameters in all). */
    private static final int MAX_PARAM_BYTES = 1 << 20;

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
        int element = Math.max(1, number(entry, decl, p.group(3)) / 8);
        int count = p.group(5) == null ? 1 : number(entry, decl, p.group(5));
        // .align states the parameter's own alignment; the one after .ptr is the pointee's and is not kept.
        int align = p.group(1) == null ? element : number(entry, decl, p.group(1));
        if (count == 0 || Integer.bitCount(align) != 1 || (long) element * count > MAX_PARAM_BYTES) {
            throw new DeviceException(CudaError.INVALID_PTX, "parameter '" + decl + "' of PTX entry '" + entry
                    + "' has " + (count == 0 ? "no elements" : Integer.bitCount(align) != 1
                            ? "an alignment that is not a power of two" : "more than " + MAX_PARAM_BYTES + " bytes"));
        }
        return new PtxParam(p.group(2), element * count, align, p.group(4));
    }

    private static int number(String entry, String decl, String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new DeviceException(CudaError.INVALID_PTX, "parameter '" + decl + "' of PTX entry '" + entry
                    + "' has a number out of range: " + digits);
        }
    }

    /** PTX with its {@code //} and {@code /* … *}{@code /} comments replaced by spaces (PTX has no string literals). */
    static String stripComments(String ptx) {
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
