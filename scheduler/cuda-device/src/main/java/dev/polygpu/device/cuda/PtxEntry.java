package dev.polygpu.device.cuda;

import java.util.List;

/** A kernel ({@code .entry}) of a PTX module: its name as the driver looks it up and its parameters in order. */
record PtxEntry(String name, List<PtxParam> params) {
    PtxEntry {
        params = List.copyOf(params);
    }
}
