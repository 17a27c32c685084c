package dev.polygpu.device.cpu.oracle.gen;

/**
 * Turns a valid generated kernel into a source written to hurt the compiler rather than to be wrong: a macro
 * that doubles with each level, nesting (statements, parentheses, operator chains) past the front end's limit or
 * just under it, arrays and structs too large to address, recursive template instantiation, a kernel too large
 * for one JVM method, tens of thousands of locals or kernels, a byte order mark, a {@code const} without value,
 * an anonymous struct at the start of the file. Sizes are drawn on both sides of each limit, so some programs
 * stay valid. The engine must answer each with a compile error at a line and column, or compile it, in bounded
 * time, never with another exception.
 */
public final class HostileMutator {
    private static final int KINDS = 14;

    private HostileMutator() {
    }

    /** One hostile mutation of {@code source}, chosen by {@code seed}. */
    public static InvalidMutator.Mutation mutate(String source, long seed) {
        Rng r = new Rng(seed);
        int kind = r.below(KINDS);
        return switch (kind) {
            case 0 -> doublingMacro(source, r.range(10, 40));
            case 1 -> {
                int d = depth(r);
                yield insert(source, "int hp = " + "(".repeat(d) + "1" + ")".repeat(d) + ";", d + " nested parentheses");
            }
            case 2 -> {
                int d = depth(r);
                yield insert(source, "if (threadIdx.x > 99999u)\n".repeat(d) + ";", d + " nested ifs");
            }
            case 3 -> {
                int d = depth(r);
                yield insert(source, "int hc = 0" + " + 1".repeat(d) + ";", "a chain of " + d + " additions");
            }
            case 4 -> hugeArray(source, r);
            case 5 -> doublingStruct(source, r.range(5, 60));
            case 6 -> recursiveTemplate(source, r.range(50, 400), r.coin());
            case 7 -> new InvalidMutator.Mutation("\uFEFF" + source, "byte order mark");
            case 8 -> insert(source, "const int hk;", "const without initializer");
            case 9 -> new InvalidMutator.Mutation("struct { int a; };\n" + source, "anonymous struct");
            case 10 -> {
                int n = r.range(1000, 20000);
                yield insert(source, "int hv = 0;\n" + "hv += (int) threadIdx.x;\n".repeat(n), n + " statements");
            }
            case 11 -> manyLocals(source, r.range(1000, 70000));
            case 12 -> manyKernels(source, r.range(100, 5000));
            default -> new InvalidMutator.Mutation(source + "template <typename T> __device__ T hf(T x) { return x"
                    + " + ; }\ntemplate <typename T> __global__ void hkt(T* a) { a[0] = hf(a[0]); }\n"
                    + "__global__ void hku(float* a) { a[0] = hf(a[0]); }\n", "template syntax error");
        };
    }

    /** A nesting depth below or above the front end's limit (10,000), up to the 200,000 of the campaign. */
    private static int depth(Rng r) {
        return r.pick(r.range(100, 4000), r.range(9000, 11000), r.range(11000, 200000));
    }

    private static InvalidMutator.Mutation doublingMacro(String source, int levels) {
        StringBuilder defs = new StringBuilder("#define HM0 1\n");
        for (int i = 1; i <= levels; i++) {
            defs.append("#define HM").append(i).append(" (HM").append(i - 1).append(" + HM").append(i - 1)
                    .append(")\n");
        }
        return insertWith(defs.toString(), source, "int hm = HM" + levels + ";", "macro doubling " + levels
                + " times");
    }

    private static InvalidMutator.Mutation doublingStruct(String source, int levels) {
        StringBuilder defs = new StringBuilder("struct HS0 { int x; };\n");
        for (int i = 1; i <= levels; i++) {
            defs.append("struct HS").append(i).append(" { HS").append(i - 1).append(" a; HS").append(i - 1)
                    .append(" b; };\n");
        }
        return insertWith(defs.toString(), source, "int hs = (int) sizeof(HS" + levels + ");", "struct doubling "
                + levels + " times");
    }

    private static InvalidMutator.Mutation recursiveTemplate(String source, int depth, boolean bounded) {
        String def = bounded
                ? "template <int N> __device__ int hr() { if constexpr (N == 0) { return 0; } else { return hr<N - 1>()"
                        + " + 1; } }\n"
                : "template <int N> __device__ int hr() { return hr<N + 1>() + 1; }\n";
        return insertWith(def, source, "int ht = hr<" + depth + ">();", (bounded ? "template recursion " + depth
                + " deep" : "endless template recursion"));
    }

    private static InvalidMutator.Mutation hugeArray(String source, Rng r) {
        String decl = r.pick("__shared__ float hb[0x7fffffff];", "double hb[0x10000000];",
                "float hb[0x7fffffff][2];", "__shared__ char hb[0x60000000]; __shared__ char hb2[0x60000000];",
                "char hb[0x7ffffff0];", "int hb[-1];", "float hb[0x100000000];");
        return insert(source, decl + " hb[threadIdx.x] = 0;", "huge array (" + decl + ")");
    }

    private static InvalidMutator.Mutation manyLocals(String source, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("int hl").append(i).append(" = ").append(i).append(";\n");
        }
        return insert(source, b.toString(), n + " locals");
    }

    private static InvalidMutator.Mutation manyKernels(String source, int n) {
        StringBuilder b = new StringBuilder(source);
        for (int i = 0; i < n; i++) {
            b.append("__global__ void hk").append(i).append("(int* a) { a[").append(i % 7).append("] = ").append(i)
                    .append("; }\n");
        }
        return new InvalidMutator.Mutation(b.toString(), n + " kernels");
    }

    /** {@code stmt} at the start of the first kernel's body. */
    private static InvalidMutator.Mutation insert(String source, String stmt, String kind) {
        return insertWith("", source, stmt, kind);
    }

    /** {@code prefix} before the source and {@code stmt} at the start of the first kernel's body. */
    private static InvalidMutator.Mutation insertWith(String prefix, String source, String stmt, String kind) {
        int open = source.indexOf('{', Math.max(0, source.indexOf("__global__")));
        if (open < 0) {
            return new InvalidMutator.Mutation(prefix + source + "\n" + stmt + "\n", kind);
        }
        return new InvalidMutator.Mutation(prefix + source.substring(0, open + 1) + "\n" + stmt + "\n"
                + source.substring(open + 1), kind);
    }
}
