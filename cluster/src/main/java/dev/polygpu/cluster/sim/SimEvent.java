package dev.polygpu.cluster.sim;

/**
 * One pending event of a simulated run: a kernel's end, a thief's check, a message's arrival or a membership
 * change, at a simulated time; the fields a kind does not use stay 0 or null. Events at one time happen in the
 * order they were scheduled ({@link #seq}).
 */
final class SimEvent {
    /** A task's kernel ends ({@link #task}). */
    static final int END = 0;
    /** A thief looks whether to ask, once its back-off is over. */
    static final int CHECK = 1;
    /** A thief gives its request up if no reply came. */
    static final int EXPIRE = 2;
    /** A steal request arrives. */
    static final int REQUEST = 3;
    /** A reply arrives: work ({@link #items}) or nothing. */
    static final int REPLY = 4;
    /** A stolen task's result arrives home. */
    static final int RESULT = 5;
    /** Tasks come back to their owner unstarted. */
    static final int HANDBACK = 6;
    /** A membership change ({@link #task} indexes the configuration's events). */
    static final int MEMBERSHIP = 7;
    /** The others notice that a member crashed. */
    static final int LOST = 8;
    /** A load report arrives: its surplus in {@link #wanted}, its highest stealable rank in {@link #minRank}. */
    static final int LOAD = 9;

    final long time;
    final long seq;
    final int kind;
    final int member;
    int from;
    int task;
    int thief;
    int hops;
    int wanted;
    int minRank;
    long requestId;
    long bytes;
    int[] items;
    /** A reply's arrays that came with their bytes, and those that came as references. */
    int[] arraysSent;
    int[] arraysReferenced;
    /** A hand-back's reason: an input missed in the thief's cache (else the reply was stale). */
    boolean missingInput;
    /** A result's run time at the thief, as it reports it. */
    long runNanos;
    /** A result's count of the stolen tasks its thief held when it sent it (for pushed continuations). */
    int thiefHolds;
    /** A reply that answers no request: a continuation its owner pushed, or the work of a wake-up. */
    boolean pushed;

    SimEvent(long time, long seq, int kind, int member) {
        this.time = time;
        this.seq = seq;
        this.kind = kind;
        this.member = member;
    }

    /** {@return the name of a kind, for messages and tests} */
    static String kindName(int kind) {
        return switch (kind) {
            case END -> "end";
            case CHECK -> "check";
            case EXPIRE -> "expire";
            case REQUEST -> "request";
            case REPLY -> "reply";
            case RESULT -> "result";
            case HANDBACK -> "handback";
            case MEMBERSHIP -> "membership";
            case LOST -> "lost";
            case LOAD -> "load";
            default -> "kind " + kind;
        };
    }
}
