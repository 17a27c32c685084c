package dev.polygpu.launcher.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The daemon's side of one client's connection while its program runs: the program's standard streams as frames.
 * Output goes out as {@link Frames#OUT}/{@link Frames#ERR} frames as it is written (the guest language buffers as
 * it would on a terminal or pipe); standard input is asked for only when the program reads it, so that a client
 * whose input is a terminal or a large file sends nothing the program does not read.
 *
 * <p>Thread-safety: frames are written under one lock (the program's threads, its subprocesses' pumps and the
 * session all write); the input buffer is guarded by this object's monitor, filled by the session's reader
 * thread and drained by the program's.
 */
final class ClientLink {
    private final SocketChannel channel;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Set when the client is gone: output is dropped, input ends. */
    private volatile boolean gone;

    private final ArrayDeque<byte[]> input = new ArrayDeque<>();
    /** The first unread byte of {@code input.peek()}. */
    private int inputOffset;
    private boolean inputEnded;
    private boolean inputAsked;

    ClientLink(SocketChannel channel) {
        this.channel = channel;
    }

    final OutputStream out = new FrameOutput(Frames.OUT);
    final OutputStream err = new FrameOutput(Frames.ERR);
    final InputStream in = new Input();

    /** Sends a frame; false (and the client counted as gone) when it cannot be sent. */
    boolean send(byte type, byte[] payload, int offset, int length) {
        if (gone) {
            return false;
        }
        writeLock.lock();
        try {
            Frames.write(channel, type, payload, offset, length);
            return true;
        } catch (IOException e) {
            clientGone();
            return false;
        } finally {
            writeLock.unlock();
        }
    }

    boolean send(byte type, byte[] payload) {
        return send(type, payload, 0, payload.length);
    }

    /** Standard input from the client: an {@link Frames#INPUT} frame's bytes, empty at the end. */
    synchronized void received(byte[] bytes) {
        if (bytes.length == 0) {
            inputEnded = true;
        } else {
            input.add(bytes);
        }
        inputAsked = false;
        notifyAll();
    }

    /** The client went away: input ends, output is dropped from now on. */
    void clientGone() {
        gone = true;
        synchronized (this) {
            inputEnded = true;
            notifyAll();
        }
    }

    boolean isGone() {
        return gone;
    }

    private final class FrameOutput extends OutputStream {
        /** Large writes go out in pieces, so that one frame never needs a buffer of its size on the client. */
        private static final int CHUNK = 64 << 10;
        private final byte type;

        FrameOutput(byte type) {
            this.type = type;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            for (int at = off; at < off + len; at += CHUNK) {
                if (!send(type, b, at, Math.min(CHUNK, off + len - at))) {
                    // the client is gone and its program is being cancelled: what it prints goes nowhere
                    return;
                }
            }
        }
    }

    private final class Input extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            synchronized (ClientLink.this) {
                while (input.isEmpty() && !inputEnded) {
                    if (!inputAsked) {
                        inputAsked = true;
                        // asked under the monitor: the answer is taken in received(), which waits for it
                        if (!send(Frames.READ, Frames.intPayload(len))) {
                            return -1;
                        }
                    }
                    try {
                        ClientLink.this.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new InterruptedIOException("interrupted while waiting for standard input");
                    }
                }
                if (input.isEmpty()) {
                    return -1;
                }
                byte[] head = input.peek();
                int n = Math.min(len, head.length - inputOffset);
                System.arraycopy(head, inputOffset, b, off, n);
                inputOffset += n;
                if (inputOffset == head.length) {
                    input.poll();
                    inputOffset = 0;
                }
                return n;
            }
        }

        @Override
        public int available() {
            synchronized (ClientLink.this) {
                byte[] head = input.peek();
                return head == null ? 0 : head.length - inputOffset;
            }
        }
    }
}
