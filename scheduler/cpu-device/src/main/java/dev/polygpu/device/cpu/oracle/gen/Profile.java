package dev.polygpu.device.cpu.oracle.gen;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The weights of the {@link Construct}s (0: never) and the size of the kernels a generator makes. Immutable.
 *
 * <p>A spec such as {@code "default"}, {@code "int,size=40"} or {@code "default,+volatile-shared,-printf,shfl=5"}
 * names a base profile and then changes it: {@code +name} turns a construct on (its default weight, at least
 * 2), {@code -name} off, {@code name=w} sets a weight, {@code size=n} the statement budget of a kernel. The
 * bases are listed in {@link #BASES}.
 */
public final class Profile {
    /** The named base profiles and what they are for. */
    public static final Map<String, String> BASES = Map.of(
            "default", "every construct both sides are expected to run (the known engine bugs and gaps off)",
            "all", "every construct, those off by default included (known bugs and gaps show up)",
            "int", "integer-only kernels",
            "float", "floating-point heavy kernels",
            "control", "loops, branches, switches and barriers weighted up",
            "warp", "warp intrinsics, shared memory and atomics weighted up",
            "known-bugs", "the default profile plus the constructs of the engine bugs being fixed");

    /** The statement budget of a kernel unless a spec says otherwise. */
    public static final int DEFAULT_SIZE = 24;

    private final EnumMap<Construct, Integer> weights;
    private final int size;
    private final String spec;

    private Profile(EnumMap<Construct, Integer> weights, int size, String spec) {
        this.weights = weights;
        this.size = size;
        this.spec = spec;
    }

    public static Profile defaults() {
        return parse("default");
    }

    /** The profile a spec describes; IllegalArgumentException naming the bad part. */
    public static Profile parse(String spec) {
        String[] parts = spec.split(",");
        String base = parts[0].trim();
        int first = 1;
        if (!BASES.containsKey(base)) {
            base = "default";
            first = 0;
        }
        EnumMap<Construct, Integer> w = base(base);
        int size = DEFAULT_SIZE;
        for (int i = first; i < parts.length; i++) {
            String p = parts[i].trim();
            if (p.isEmpty()) {
                continue;
            }
            if (p.startsWith("size=")) {
                size = number(p, p.substring(5), 1, 400);
            } else if (p.startsWith("+") || p.startsWith("-")) {
                Construct c = construct(p.substring(1), p);
                w.put(c, p.startsWith("+") ? Math.max(2, c.defaultWeight) : 0);
            } else if (p.contains("=")) {
                int eq = p.indexOf('=');
                w.put(construct(p.substring(0, eq), p), number(p, p.substring(eq + 1), 0, 1000));
            } else {
                throw new IllegalArgumentException("profile part '" + p + "' is neither a base profile "
                        + BASES.keySet() + " (which must come first) nor +name, -name, name=weight or size=n");
            }
        }
        return new Profile(w, size, spec);
    }

    private static EnumMap<Construct, Integer> base(String name) {
        EnumMap<Construct, Integer> w = new EnumMap<>(Construct.class);
        for (Construct c : Construct.values()) {
            w.put(c, c.defaultWeight);
        }
        switch (name) {
            case "all" -> {
                for (Construct c : Construct.values()) {
                    w.put(c, Math.max(1, c.defaultWeight));
                }
            }
            case "int" -> {
                for (Construct c : List.of(Construct.TYPE_FLOAT, Construct.TYPE_DOUBLE, Construct.TYPE_HALF,
                        Construct.FLOAT_ARITH, Construct.EXACT_MATH, Construct.ROUNDED_INTRINSICS,
                        Construct.MATH_FUNCTIONS, Construct.FLOAT_TO_INT, Construct.BIT_CAST,
                        Construct.ATOMIC_FLOAT_EXACT, Construct.DIRECTED_ROUNDING)) {
                    w.put(c, 0);
                }
            }
            case "float" -> {
                scale(w, 3, Construct.TYPE_FLOAT, Construct.TYPE_DOUBLE, Construct.FLOAT_ARITH, Construct.EXACT_MATH,
                        Construct.ROUNDED_INTRINSICS, Construct.MATH_FUNCTIONS, Construct.FLOAT_TO_INT);
            }
            case "control" -> {
                scale(w, 3, Construct.IF, Construct.SWITCH, Construct.FOR, Construct.FOR_MULTI_DECL,
                        Construct.WHILE, Construct.DO_WHILE, Construct.BREAK, Construct.CONTINUE,
                        Construct.NESTED_LOOP, Construct.BARRIER, Construct.SHARED_EXCHANGE, Construct.BLOCK_SCOPE);
            }
            case "warp" -> {
                scale(w, 4, Construct.SHFL, Construct.SHFL_UP, Construct.SHFL_DOWN, Construct.SHFL_XOR,
                        Construct.BALLOT, Construct.VOTE, Construct.ACTIVEMASK, Construct.REDUCE_SYNC,
                        Construct.WARP_BRANCH,
                        Construct.SYNCWARP_EXCHANGE, Construct.SHARED_EXCHANGE, Construct.ATOMIC_GLOBAL,
                        Construct.ATOMIC_SHARED, Construct.BARRIER);
            }
            case "known-bugs" -> {
                for (Construct c : List.of(Construct.FOR_MULTI_DECL_BARRIER, Construct.VALUE_INIT,
                        Construct.FUNCTIONAL_CAST, Construct.VOLATILE_SHARED)) {
                    w.put(c, 3);
                }
            }
            default -> {
                // "default": the construct's own weights.
            }
        }
        return w;
    }

    private static void scale(EnumMap<Construct, Integer> w, int k, Construct... cs) {
        for (Construct c : cs) {
            w.put(c, w.get(c) * k);
        }
    }

    private static Construct construct(String name, String part) {
        Construct c = Construct.byFlagName(name);
        if (c == null) {
            List<String> names = new ArrayList<>();
            for (Construct k : Construct.values()) {
                names.add(k.flagName());
            }
            throw new IllegalArgumentException("profile part '" + part + "': no construct named '" + name
                    + "'; the constructs are " + String.join(", ", names));
        }
        return c;
    }

    private static int number(String part, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below, with the part.
        }
        throw new IllegalArgumentException("profile part '" + part + "' needs an integer from " + min + " to " + max);
    }

    /**
     * This profile for a kernel of barrier regions, with the same spec: the warp collectives off
     * ({@link Construct#WARP_COLLECTIVES}), so that its only collectives are block barriers, which the engine runs
     * in barrier regions, and strided loops, which run iteration-major there (scheduler/README.md, "Barrier
     * regions"), {@code REGION_STRIDED_SCALE} times as likely.
     */
    Profile forBarrierRegions() {
        EnumMap<Construct, Integer> w = new EnumMap<>(weights);
        for (Construct c : Construct.WARP_COLLECTIVES) {
            w.put(c, 0);
        }
        w.put(Construct.STRIDED_LOOP, w.get(Construct.STRIDED_LOOP) * REGION_STRIDED_SCALE);
        return new Profile(w, size, spec);
    }

    /** How much likelier strided loops are in a kernel of barrier regions ({@link #forBarrierRegions}). */
    static final int REGION_STRIDED_SCALE = 4;

    public int weight(Construct c) {
        return weights.get(c);
    }

    public boolean on(Construct c) {
        return weights.get(c) > 0;
    }

    /** The statement budget of a kernel. */
    public int size() {
        return size;
    }

    /** The spec this profile was parsed from (what a replay passes back to {@link #parse}). */
    public String spec() {
        return spec;
    }

    @Override
    public String toString() {
        return spec;
    }
}
