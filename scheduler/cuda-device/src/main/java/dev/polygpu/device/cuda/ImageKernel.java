package dev.polygpu.device.cuda;

import dev.polygpu.device.ImageParam;
import java.util.List;

/** A kernel of precompiled code: its entry name (mangled for C++) and its parameters as the image declares them. */
record ImageKernel(String name, List<ImageParam> params) {
    ImageKernel {
        params = List.copyOf(params);
    }
}
