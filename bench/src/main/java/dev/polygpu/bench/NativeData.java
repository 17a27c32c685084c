package dev.polygpu.bench;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The values a case passes to a native side of {@code bench/run} (the C loops, the pocl host program) and the
 * outputs it reads back, in the little-endian file format of {@code bench/native/pgbench.h}: "PGB1", the int
 * parameters, the double parameters, then arrays of float32 or float64.
 *
 * @param ints    the case's integer parameters (sizes)
 * @param doubles the case's floating-point parameters
 * @param arrays  each a {@code float[]} or a {@code double[]}
 */
record NativeData(int[] ints, double[] doubles, List<Object> arrays) {

    private static final byte[] MAGIC = {'P', 'G', 'B', '1'};

    NativeData {
        for (Object a : arrays) {
            if (!(a instanceof float[]) && !(a instanceof double[])) {
                throw new IllegalArgumentException("a native array is a float[] or a double[], got " + a);
            }
        }
    }

    float[] floats(int index) {
        return (float[]) array(index, float[].class);
    }

    double[] doubles(int index) {
        return (double[]) array(index, double[].class);
    }

    private Object array(int index, Class<?> type) {
        if (index >= arrays.size() || !type.isInstance(arrays.get(index))) {
            throw new AssertionError("native output " + index + " is missing or not a " + type.getSimpleName()
                    + " (" + arrays.size() + " arrays)");
        }
        return arrays.get(index);
    }

    void write(Path path) throws IOException {
        try (OutputStream out = Files.newOutputStream(path)) {
            ByteBuffer head = little(12 + 4 * ints.length + 8 * doubles.length);
            head.put(MAGIC).putInt(ints.length);
            for (int v : ints) {
                head.putInt(v);
            }
            head.putInt(doubles.length);
            for (double v : doubles) {
                head.putDouble(v);
            }
            out.write(head.array());
            out.write(little(4).putInt(arrays.size()).array());
            for (Object a : arrays) {
                writeArray(out, a);
            }
        }
    }

    private static void writeArray(OutputStream out, Object a) throws IOException {
        boolean f = a instanceof float[];
        int length = f ? ((float[]) a).length : ((double[]) a).length;
        int elem = f ? 4 : 8;
        out.write(little(12).putInt(elem).putLong(length).array());
        ByteBuffer b = little(length * elem);
        if (f) {
            b.asFloatBuffer().put((float[]) a);
        } else {
            b.asDoubleBuffer().put((double[]) a);
        }
        out.write(b.array());
    }

    static NativeData read(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            DataInputStream data = new DataInputStream(in);
            byte[] magic = data.readNBytes(4);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new IOException(path + " is not a PGB1 data file");
            }
            int[] ints = new int[count(data, path)];
            for (int i = 0; i < ints.length; i++) {
                ints[i] = readLittle(data, 4).getInt();
            }
            double[] doubles = new double[count(data, path)];
            for (int i = 0; i < doubles.length; i++) {
                doubles[i] = readLittle(data, 8).getDouble();
            }
            int n = count(data, path);
            List<Object> arrays = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                arrays.add(readArray(data, path));
            }
            return new NativeData(ints, doubles, arrays);
        }
    }

    private static Object readArray(DataInputStream data, Path path) throws IOException {
        ByteBuffer h = readLittle(data, 12);
        int elem = h.getInt();
        long length = h.getLong();
        if ((elem != 4 && elem != 8) || length < 0 || length * elem > Integer.MAX_VALUE) {
            throw new IOException(path + ": bad array header (element size " + elem + ", length " + length + ")");
        }
        ByteBuffer b = readLittle(data, (int) length * elem);
        if (elem == 4) {
            float[] v = new float[(int) length];
            b.asFloatBuffer().get(v);
            return v;
        }
        double[] v = new double[(int) length];
        b.asDoubleBuffer().get(v);
        return v;
    }

    private static int count(DataInputStream data, Path path) throws IOException {
        int c = readLittle(data, 4).getInt();
        if (c < 0 || c > 8) {
            throw new IOException(path + ": bad count " + c);
        }
        return c;
    }

    private static ByteBuffer readLittle(DataInputStream data, int bytes) throws IOException {
        byte[] b = new byte[bytes];
        data.readFully(b);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer little(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
