package dev.polygpu.launcher.daemon;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The daemon's protocol on its Unix-domain socket: frames of a type byte, a length (4 bytes, big-endian) and that
 * many bytes. The client opens with {@link #RUN} (or {@link #STATUS} or {@link #STOP}); the daemon answers a run
 * with the program's output ({@link #OUT}, {@link #ERR}), asks for standard input when the program reads it
 * ({@link #READ}; the client sends one {@link #INPUT} back, empty at end of input) and ends with {@link #EXIT}
 * or {@link #OWN_PROCESS}. A client that goes away (its socket closes) cancels its program.
 *
 * <p>Reads and writes go straight to the channel, not through {@code Channels.newInputStream}, whose streams
 * lock the channel for a whole blocking read and so would stop the other side's writes.
 */
final class Frames {
    /** Changes whenever a frame's layout does: a daemon and a client of different versions do not talk. */
    static final int VERSION = 1;
    /** The most bytes one frame may carry: a larger length is a broken or foreign peer, not a frame. */
    static final int MAX_PAYLOAD = 16 << 20;

    /** Client: run a command; payload {@link Run}. */
    static final byte RUN = 'R';
    /** Client: standard input the daemon asked for; empty at its end. */
    static final byte INPUT = 'I';
    /** Client: describe the daemon ({@link #INFO} back). */
    static final byte STATUS = 'Q';
    /** Client: stop the daemon once its running programs end ({@link #INFO} back). */
    static final byte STOP = 'S';
    /** Daemon: bytes of the program's standard output. */
    static final byte OUT = 'O';
    /** Daemon: bytes of the program's standard error. */
    static final byte ERR = 'E';
    /** Daemon: the program waits for standard input; payload the most bytes it wants (4 bytes). */
    static final byte READ = 'r';
    /** Daemon: the program ended; payload its exit status (4 bytes). */
    static final byte EXIT = 'X';
    /** Daemon: this command needs a JVM of its own (engine options); payload why. Nothing has run. */
    static final byte OWN_PROCESS = 'P';
    /** Daemon: a line of text about itself, the answer to {@link #STATUS} and {@link #STOP}. */
    static final byte INFO = 'i';

    private Frames() {
    }

    /** One frame as read. */
    record Frame(byte type, byte[] payload) {
        int asInt() {
            return ByteBuffer.wrap(payload).getInt();
        }

        String asText() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    /** What a client asks the daemon to run: {@code polygpu args…} in {@code cwd} with {@code environment}. */
    record Run(String cwd, Map<String, String> environment, List<String> args) {
        byte[] encode() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream d = new DataOutputStream(bytes)) {
                d.writeInt(VERSION);
                writeString(d, cwd);
                d.writeInt(environment.size());
                for (Map.Entry<String, String> e : environment.entrySet()) {
                    writeString(d, e.getKey());
                    writeString(d, e.getValue());
                }
                d.writeInt(args.size());
                for (String a : args) {
                    writeString(d, a);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        /** Decodes a {@link #RUN} payload; an {@link IOException} says what is wrong with it. */
        static Run decode(byte[] payload) throws IOException {
            DataInputStream d = new DataInputStream(new ByteArrayInputStream(payload));
            int version = d.readInt();
            if (version != VERSION) {
                throw new IOException("the client speaks version " + version + " of the daemon protocol, this daemon "
                        + VERSION);
            }
            String cwd = readString(d);
            int n = count(d);
            Map<String, String> environment = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                environment.put(readString(d), readString(d));
            }
            int m = count(d);
            List<String> args = new ArrayList<>(m);
            for (int i = 0; i < m; i++) {
                args.add(readString(d));
            }
            return new Run(cwd, environment, args);
        }
    }

    static byte[] intPayload(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }

    static byte[] textPayload(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Writes one frame; callers that share a channel between threads hold its write lock around this. */
    static void write(SocketChannel channel, byte type, byte[] payload, int offset, int length) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(5).put(type).putInt(length).flip();
        ByteBuffer body = ByteBuffer.wrap(payload, offset, length);
        while (head.hasRemaining() || body.hasRemaining()) {
            channel.write(new ByteBuffer[] {head, body});
        }
    }

    static void write(SocketChannel channel, byte type, byte[] payload) throws IOException {
        write(channel, type, payload, 0, payload.length);
    }

    /** Reads one frame, or returns null when the peer closed the channel between frames. */
    static Frame read(SocketChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(5);
        if (!fill(channel, head, true)) {
            return null;
        }
        head.flip();
        byte type = head.get();
        int length = head.getInt();
        if (length < 0 || length > MAX_PAYLOAD) {
            throw new IOException("a frame of " + length + " bytes (the most is " + MAX_PAYLOAD + "): not a polygpu "
                    + "daemon peer, or a broken one");
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        fill(channel, body, false);
        return new Frame(type, body.array());
    }

    /** Fills {@code buffer}; false when the channel ended before its first byte and {@code mayEnd}. */
    private static boolean fill(SocketChannel channel, ByteBuffer buffer, boolean mayEnd) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                if (mayEnd && buffer.position() == 0) {
                    return false;
                }
                throw new EOFException("the peer closed the connection in the middle of a frame");
            }
        }
        return true;
    }

    private static void writeString(DataOutputStream d, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        d.writeInt(b.length);
        d.write(b);
    }

    private static String readString(DataInputStream d) throws IOException {
        int n = count(d);
        byte[] b = d.readNBytes(n);
        if (b.length != n) {
            throw new EOFException("a run request that ends in the middle of a string");
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    private static int count(DataInputStream d) throws IOException {
        int n = d.readInt();
        if (n < 0 || n > MAX_PAYLOAD) {
            throw new IOException("a count of " + n + " in a run request");
        }
        return n;
    }
}
