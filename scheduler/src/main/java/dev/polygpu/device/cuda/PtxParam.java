package dev.polygpu.device.cuda;

/**
 * One parameter of a PTX {@code .entry}: its PTX type ({@code .u64}, {@code .f32}, {@code .b8} …) and its size in
 * bytes. An aggregate passed by value ({@code .param .align 8 .b8 p[16]}) has the element type and the whole size.
 */
record PtxParam(String ptxType, int bytes) {
}
