package dev.polygpu.cluster.wire;

import static dev.polygpu.cluster.wire.WireCodec.MAX_SOURCE_BYTES;
import static dev.polygpu.cluster.wire.WireCodec.MAX_STRING_BYTES;

import dev.polygpu.device.ElementType;
import dev.polygpu.runtime.AccessMode;
import dev.polygpu.runtime.ElementKind;
import dev.polygpu.runtime.ElementMessage;
import dev.polygpu.runtime.ElementMessage.Arg;
import dev.polygpu.runtime.ElementMessage.ArrayArg;
import dev.polygpu.runtime.ElementMessage.ScalarArg;
import dev.polygpu.runtime.KernelSource;
import java.util.ArrayList;
import java.util.List;

/**
 * The body layout of each message type, written and read in one place so the two cannot drift. The layout is
 * documented on {@link WireCodec}; keep the two in step.
 */
final class MessageLayout {
    private static final int ARG_ARRAY = 1;
    private static final int ARG_SCALAR = 2;

    // Smallest encoded sizes, so a count can be checked against the bytes that remain. A name takes at least
    // its 4-byte length and one character; any other string at least its 4-byte length.
    private static final int MIN_NAME = 4 + 1;
    private static final int MIN_LONG = 8;
    private static final int MIN_ARRAY_DATA = 8 + 8 + 1 + 4;
    private static final int DATA_CONTENTS = 0;
    private static final int DATA_CONTENTS_AND_DIGEST = 1;
    private static final int DATA_REFERENCE = 2;
    private static final int MIN_ARG = 1 + Math.min(8 + 8 + 8 + MIN_NAME, MIN_NAME + 8);
    private static final int MIN_ELEMENT = 8 + MIN_NAME + 4 + 1 + 3 * 4 + 3 * 4 + 8 + 8 + 4;
    private static final int MIN_WORK_ITEM = 8 + 8 + MIN_ELEMENT + 4 + 4 + 8;

    private MessageLayout() {
    }

    static byte typeOf(Message m) {
        return switch (m) {
            case StealRequest _ -> WireCodec.TYPE_STEAL_REQUEST;
            case StealReply _ -> WireCodec.TYPE_STEAL_REPLY;
            case WorkResult _ -> WireCodec.TYPE_WORK_RESULT;
            case Handback _ -> WireCodec.TYPE_HANDBACK;
            case Holding _ -> WireCodec.TYPE_HOLDING;
            case Leaving _ -> WireCodec.TYPE_LEAVING;
            case LoadReport _ -> WireCodec.TYPE_LOAD_REPORT;
        };
    }

    static void write(Message m, BodyWriter w) {
        w.string(m.sender(), MAX_STRING_BYTES, "sender");
        switch (m) {
            case StealRequest r -> {
                w.i64(r.requestId());
                w.string(r.thief(), MAX_STRING_BYTES, "StealRequest.thief");
                w.i32(r.hops());
                w.i32(r.wanted());
                w.i32(r.minRank());
            }
            case StealReply r -> {
                w.i64(r.requestId());
                w.count(r.items().size());
                for (WorkItem item : r.items()) {
                    writeItem(item, w);
                }
                w.bool(r.pushed());
            }
            case WorkResult r -> {
                w.i64(r.stealId());
                w.i64(r.epoch());
                w.bool(r.ok());
                w.nullableString(r.error(), MAX_STRING_BYTES, "WorkResult.error");
                w.i64(r.queueNanos());
                w.i64(r.runNanos());
                writeData(r.outputs(), w);
                w.i32(r.thiefHolds());
            }
            case Handback h -> {
                writeIds(h.stealIds(), w);
                w.name(h.reason(), "Handback.reason");
            }
            case Holding h -> writeIds(h.stealIds(), w);
            case Leaving _ -> {
                // The sender is all it says.
            }
            case LoadReport l -> {
                w.i32(l.surplus());
                w.i32(l.topRank());
            }
        }
    }

    static Message read(int type, FrameReader r) throws WireException {
        if (type < WireCodec.TYPE_STEAL_REQUEST || type > WireCodec.TYPE_LOAD_REPORT) {
            throw r.malformed("unknown message type " + type, WireCodec.HEADER_BYTES - 1);
        }
        String sender = r.string("sender", MAX_STRING_BYTES);
        return switch (type) {
            case WireCodec.TYPE_STEAL_REQUEST -> new StealRequest(sender, r.i64("StealRequest.requestId"),
                    r.string("StealRequest.thief", MAX_STRING_BYTES), r.i32("StealRequest.hops"),
                    r.i32("StealRequest.wanted"), r.i32("StealRequest.minRank"));
            case WireCodec.TYPE_STEAL_REPLY -> {
                long requestId = r.i64("StealReply.requestId");
                int n = r.count("StealReply.items", MIN_WORK_ITEM);
                List<WorkItem> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(readItem(r));
                }
                yield new StealReply(sender, requestId, items, r.bool("StealReply.pushed"));
            }
            case WireCodec.TYPE_WORK_RESULT -> new WorkResult(sender, r.i64("WorkResult.stealId"),
                    r.i64("WorkResult.epoch"), r.bool("WorkResult.ok"),
                    r.nullableString("WorkResult.error", MAX_STRING_BYTES), r.i64("WorkResult.queueNanos"),
                    r.i64("WorkResult.runNanos"), readData(r, "WorkResult.outputs"), r.i32("WorkResult.thiefHolds"));
            case WireCodec.TYPE_HANDBACK -> new Handback(sender, readIds(r, "Handback.stealIds"),
                    r.name(HandbackReason.class, "Handback.reason"));
            case WireCodec.TYPE_HOLDING -> new Holding(sender, readIds(r, "Holding.stealIds"));
            case WireCodec.TYPE_LEAVING -> new Leaving(sender);
            case WireCodec.TYPE_LOAD_REPORT -> new LoadReport(sender, r.i32("LoadReport.surplus"),
                    r.i32("LoadReport.topRank"));
            default -> throw new IllegalStateException("type " + type + " passed the range check");
        };
    }

    private static void writeItem(WorkItem item, BodyWriter w) {
        w.i64(item.stealId());
        w.i64(item.epoch());
        writeElement(item.element(), w);
        writeData(item.inputs(), w);
        w.i32(item.rank());
        w.i64(item.expectedNanos());
    }

    private static WorkItem readItem(FrameReader r) throws WireException {
        return new WorkItem(r.i64("WorkItem.stealId"), r.i64("WorkItem.epoch"), readElement(r),
                readData(r, "WorkItem.inputs"), r.i32("WorkItem.rank"), r.i64("WorkItem.expectedNanos"));
    }

    private static void writeElement(ElementMessage e, BodyWriter w) {
        w.i64(e.elementId());
        w.name(e.kind(), "ElementMessage.kind");
        w.string(e.label(), MAX_STRING_BYTES, "ElementMessage.label");
        KernelSource s = e.source();
        w.bool(s != null);
        if (s != null) {
            w.string(s.source(), MAX_SOURCE_BYTES, "KernelSource.source");
            w.string(s.name(), MAX_STRING_BYTES, "KernelSource.name");
            w.string(s.signature(), MAX_STRING_BYTES, "KernelSource.signature");
        }
        for (int d : e.grid()) {
            w.i32(d);
        }
        for (int d : e.block()) {
            w.i32(d);
        }
        w.i64(e.sharedBytes());
        w.i64(e.rangeBytes());
        w.count(e.args().size());
        for (Arg a : e.args()) {
            switch (a) {
                case ArrayArg x -> {
                    w.i8(ARG_ARRAY);
                    w.i64(x.arrayId());
                    w.i64(x.arrayBytes());
                    w.i64(x.byteOffset());
                    w.name(x.mode(), "ArrayArg.mode");
                }
                case ScalarArg x -> {
                    w.i8(ARG_SCALAR);
                    w.name(x.type(), "ScalarArg.type");
                    w.i64(x.bits());
                }
            }
        }
    }

    private static ElementMessage readElement(FrameReader r) throws WireException {
        long id = r.i64("ElementMessage.elementId");
        ElementKind kind = r.name(ElementKind.class, "ElementMessage.kind");
        String label = r.string("ElementMessage.label", MAX_STRING_BYTES);
        KernelSource source = null;
        if (r.bool("ElementMessage.hasSource")) {
            source = new KernelSource(r.string("KernelSource.source", MAX_SOURCE_BYTES),
                    r.string("KernelSource.name", MAX_STRING_BYTES),
                    r.string("KernelSource.signature", MAX_STRING_BYTES));
        }
        int[] grid = {r.i32("ElementMessage.grid"), r.i32("ElementMessage.grid"), r.i32("ElementMessage.grid")};
        int[] block = {r.i32("ElementMessage.block"), r.i32("ElementMessage.block"), r.i32("ElementMessage.block")};
        long sharedBytes = r.i64("ElementMessage.sharedBytes");
        long rangeBytes = r.i64("ElementMessage.rangeBytes");
        int n = r.count("ElementMessage.args", MIN_ARG);
        List<Arg> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int at = r.offset();
            int tag = r.i8("ElementMessage.args tag");
            args.add(switch (tag) {
                case ARG_ARRAY -> new ArrayArg(r.i64("ArrayArg.arrayId"), r.i64("ArrayArg.arrayBytes"),
                        r.i64("ArrayArg.byteOffset"), r.name(AccessMode.class, "ArrayArg.mode"));
                case ARG_SCALAR ->
                        new ScalarArg(r.name(ElementType.class, "ScalarArg.type"), r.i64("ScalarArg.bits"));
                default -> throw r.malformed("unknown argument tag " + tag, at);
            });
        }
        return new ElementMessage(id, kind, label, source, grid, block, sharedBytes, rangeBytes, args);
    }

    private static void writeData(List<ArrayData> data, BodyWriter w) {
        w.count(data.size());
        for (ArrayData d : data) {
            w.i64(d.arrayId());
            w.i64(d.byteOffset());
            w.i8(d.isReference() ? DATA_REFERENCE : d.digest() == null ? DATA_CONTENTS : DATA_CONTENTS_AND_DIGEST);
            if (d.digest() != null) {
                w.i64(d.digest().hi());
                w.i64(d.digest().lo());
            }
            if (!d.isReference()) {
                w.bytes(d.bytes());
            }
        }
    }

    private static List<ArrayData> readData(FrameReader r, String field) throws WireException {
        int n = r.count(field, MIN_ARRAY_DATA);
        List<ArrayData> data = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long arrayId = r.i64("ArrayData.arrayId");
            long offset = r.i64("ArrayData.byteOffset");
            int at = r.offset();
            int form = r.i8("ArrayData.form");
            if (form != DATA_CONTENTS && form != DATA_CONTENTS_AND_DIGEST && form != DATA_REFERENCE) {
                throw r.malformed("unknown ArrayData form " + form + " (0 contents, 1 contents and digest, "
                        + "2 reference)", at);
            }
            Digest digest = form == DATA_CONTENTS ? null
                    : new Digest(r.i64("ArrayData.digest"), r.i64("ArrayData.digest"));
            byte[] bytes = form == DATA_REFERENCE ? null : r.bytes("ArrayData.bytes");
            data.add(new ArrayData(arrayId, offset, bytes, digest));
        }
        return data;
    }

    private static void writeIds(List<Long> ids, BodyWriter w) {
        w.count(ids.size());
        for (long id : ids) {
            w.i64(id);
        }
    }

    private static List<Long> readIds(FrameReader r, String field) throws WireException {
        int n = r.count(field, MIN_LONG);
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(r.i64(field));
        }
        return ids;
    }
}
