package dev.polygpu.cluster.wire;

import dev.polygpu.device.ElementType;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.KernelSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random messages of every type for the wire tests: lists are sometimes empty, sources and errors
 * sometimes null, strings mix ASCII, Latin-1, CJK and characters outside the BMP (surrogate pairs).
 */
final class RandomMessages {
    private static final String[] PIECES = {"a", "Z", "_", " ", "0", "é", "ß", "Ω", "ж", "中", "文", "€", "😀", "𝛼",
        "\u0000", "\n", "k<float>"};

    private final Random random;

    RandomMessages(long seed) {
        this.random = new Random(seed);
    }

    Random random() {
        return random;
    }

    /** A message of the given type code. */
    Message of(int type) {
        return switch (type) {
            case WireCodec.TYPE_STEAL_REQUEST -> new StealRequest(string(20), random.nextLong(), string(20),
                    random.nextInt(Integer.MAX_VALUE), 1 + random.nextInt(Integer.MAX_VALUE), rank());
            case WireCodec.TYPE_STEAL_REPLY -> {
                List<WorkItem> items = items();
                yield !items.isEmpty() && random.nextInt(4) == 0 ? StealReply.pushed(string(20), items)
                        : new StealReply(string(20), random.nextLong(), items);
            }
            case WireCodec.TYPE_WORK_RESULT -> {
                boolean ok = random.nextBoolean();
                yield new WorkResult(string(20), random.nextLong(), random.nextLong(), ok,
                        ok && random.nextBoolean() ? null : string(200), random.nextLong(), random.nextLong(),
                        data(4, 300), random.nextInt(Integer.MAX_VALUE));
            }
            case WireCodec.TYPE_HANDBACK -> new Handback(string(20), ids(),
                    HandbackReason.values()[random.nextInt(HandbackReason.values().length)]);
            case WireCodec.TYPE_HOLDING -> new Holding(string(20), ids());
            case WireCodec.TYPE_LEAVING -> new Leaving(string(20));
            case WireCodec.TYPE_LOAD_REPORT -> new LoadReport(string(20), random.nextInt(Integer.MAX_VALUE), rank());
            default -> throw new IllegalArgumentException("no message type " + type);
        };
    }

    /** Any message. */
    Message any() {
        return of(1 + random.nextInt(WireCodec.TYPE_LOAD_REPORT));
    }

    String string(int maxPieces) {
        StringBuilder b = new StringBuilder();
        int n = random.nextInt(maxPieces + 1);
        for (int i = 0; i < n; i++) {
            b.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return b.toString();
    }

    List<WorkItem> items() {
        int n = random.nextInt(4);
        List<WorkItem> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            items.add(new WorkItem(random.nextLong(), random.nextLong(), element(), data(3, 500), rank(),
                    random.nextInt(3) == 0 ? 0 : random.nextLong() & Long.MAX_VALUE));
        }
        return items;
    }

    ElementMessage element() {
        ElementKind kind = ElementKind.values()[random.nextInt(ElementKind.values().length)];
        KernelSource source = kind == ElementKind.KERNEL
                ? new KernelSource(string(400), string(5), string(30))
                : null;
        List<ElementMessage.Arg> args = new ArrayList<>();
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            if (random.nextBoolean()) {
                args.add(new ElementMessage.ArrayArg(random.nextLong(), random.nextLong(), random.nextLong(),
                        AccessMode.values()[random.nextInt(AccessMode.values().length)]));
            } else {
                args.add(new ElementMessage.ScalarArg(ElementType.values()[random.nextInt(ElementType.values().length)],
                        random.nextLong()));
            }
        }
        return new ElementMessage(random.nextLong(), kind, string(8), source, dim3(), dim3(), random.nextLong(),
                random.nextLong(), args);
    }

    List<ArrayData> data(int maxCount, int maxBytes) {
        int n = random.nextInt(maxCount + 1);
        List<ArrayData> data = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            data.add(anyArrayData(random.nextInt(maxBytes + 1)));
        }
        return data;
    }

    /** Contents of {@code bytes} random bytes, with or without a digest. */
    ArrayData arrayData(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        long id = random.nextLong();
        long offset = random.nextLong() & Long.MAX_VALUE;
        return random.nextBoolean() ? new ArrayData(id, offset, b)
                : new ArrayData(id, offset, b, new Digest(random.nextLong(), random.nextLong()));
    }

    /** Any of the three forms: contents, contents and digest, or a reference. */
    ArrayData anyArrayData(int bytes) {
        if (random.nextInt(3) > 0) {
            return arrayData(bytes);
        }
        return ArrayData.reference(random.nextLong(), random.nextLong() & Long.MAX_VALUE,
                new Digest(random.nextLong(), random.nextLong()));
    }

    List<Long> ids() {
        int n = random.nextInt(8);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(random.nextLong());
        }
        return ids;
    }

    /** A rank: 0 (unknown, or any for a request) a third of the time, small or anything up to the maximum. */
    int rank() {
        return switch (random.nextInt(3)) {
            case 0 -> 0;
            case 1 -> 1 + random.nextInt(100);
            default -> random.nextInt(Integer.MAX_VALUE) + 1;
        };
    }

    private int[] dim3() {
        return new int[] {random.nextInt(), random.nextInt(), random.nextInt()};
    }
}
