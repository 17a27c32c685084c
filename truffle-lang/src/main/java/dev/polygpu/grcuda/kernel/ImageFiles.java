package dev.polygpu.grcuda.kernel;

import com.oracle.truffle.api.TruffleFile;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import java.io.IOException;

/**
 * Reads the files {@code bindkernel} and {@code bindall} are given (PTX, cubins, NIDL files) through the
 * context's file system, so the context's IO permissions hold; a relative path is relative to the current
 * working directory. Every failure is a guest error naming the function, the file and what to do.
 */
public final class ImageFiles {
    /** Larger files are refused rather than read into memory (a cubin or PTX file is kilobytes to megabytes). */
    static final long MAX_BYTES = 1L << 30;

    private ImageFiles() {
    }

    public static byte[] read(GrContext context, String path, String who) {
        if (path == null || path.isBlank()) {
            throw GrError.of(who + " needs a file name, got " + (path == null ? "null" : "'" + path + "'"));
        }
        TruffleFile file;
        try {
            file = context.env().getPublicTruffleFile(path);
        } catch (RuntimeException e) {
            throw GrError.of(who + ": '" + path + "' is not a valid file name: " + e.getMessage());
        }
        String absolute = file.getAbsoluteFile().normalize().getPath();
        try {
            if (!file.exists()) {
                throw GrError.of(who + ": there is no file " + path + (absolute.equals(path) ? "" : " (looked at "
                        + absolute + ")"));
            }
            if (file.isDirectory()) {
                throw GrError.of(who + ": " + absolute + " is a directory, not a file");
            }
            if (!file.isRegularFile()) {
                // a device (/dev/zero), pipe or socket has no size to check and may never end
                throw GrError.of(who + ": " + absolute + " is not a regular file (a device, pipe or socket); give the"
                        + " path of a PTX, cubin or NIDL file");
            }
            long size = file.size();
            if (size > MAX_BYTES) {
                throw GrError.of(who + ": " + absolute + " has " + size + " bytes, more than the " + MAX_BYTES
                        + " a PTX, cubin or NIDL file may have");
            }
            return file.readAllBytes();
        } catch (IOException e) {
            throw GrError.of(who + " cannot read " + absolute + ": " + e.getMessage());
        } catch (SecurityException e) {
            throw GrError.of(who + " cannot read " + absolute + ": this context may not read files (allowIO): "
                    + e.getMessage());
        }
    }
}
