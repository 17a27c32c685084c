package dev.polygpu.device.cuda;

import dev.polygpu.device.ImageParam;

/**
 * One parameter of a PTX {@code .entry}: its PTX type ({@code .u64}, {@code .f32}, {@code .b8} …), its size and
 * alignment in bytes, and its name (null where unknown). An aggregate passed by value ({@code .param .align 8 .b8
 * p[16]}) has the element type and the whole size; without {@code .align} a parameter is aligned to its element.
 */
record PtxParam(String ptxType, int bytes, int align, String name) {

    /** A parameter without a name, aligned to its element type. */
    PtxParam(String ptxType, int bytes) {
        this(ptxType, bytes, elementBytes(ptxType), null);
    }

    /** The bytes of one element of {@code ptxType} ({@code .b8} 1, {@code .f64} 8; 1 for {@code .pred}). */
    static int elementBytes(String ptxType) {
        int i = ptxType.length();
        while (i > 0 && Character.isDigit(ptxType.charAt(i - 1))) {
            i--;
        }
        return i == ptxType.length() ? 1 : Math.max(1, Integer.parseInt(ptxType.substring(i)) / 8);
    }

    /** As the device SPI describes image parameters: {@code .u64}, or {@code .align 8 .b8[16]} for an aggregate. */
    ImageParam image() {
        int element = elementBytes(ptxType);
        String declared = bytes == element && align == element ? ptxType
                : ".align " + align + " " + ptxType + (bytes == element ? "" : "[" + bytes / element + "]");
        return new ImageParam(name, bytes, align, declared);
    }
}
