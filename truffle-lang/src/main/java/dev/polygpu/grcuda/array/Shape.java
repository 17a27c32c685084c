package dev.polygpu.grcuda.array;

/**
 * The dimensions of a multi-dimensional array and its strides in elements: row-major ("C", the last index
 * varies fastest) or column-major ("F", the first index varies fastest).
 */
record Shape(long[] dims, long[] strides, boolean columnMajor) {

    static Shape of(long[] dims, boolean columnMajor) {
        int rank = dims.length;
        long[] strides = new long[rank];
        if (columnMajor) {
            strides[0] = 1;
            for (int k = 1; k < rank; k++) {
                strides[k] = strides[k - 1] * dims[k - 1];
            }
        } else {
            strides[rank - 1] = 1;
            for (int k = rank - 2; k >= 0; k--) {
                strides[k] = strides[k + 1] * dims[k + 1];
            }
        }
        return new Shape(dims, strides, columnMajor);
    }

    int rank() {
        return dims.length;
    }

    /** Number of elements addressed from dimension {@code level} on. */
    long count(int level) {
        long n = 1;
        for (int k = level; k < dims.length; k++) {
            n *= dims[k];
        }
        return n;
    }
}
