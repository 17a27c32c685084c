package dev.polygpu.device.cpu.kernel;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * Loops whose body, condition, init or update holds a yield point (a barrier, a warp intrinsic, a step of
 * lock-step warp code), in every loop form: for-init with several declarators, comma updates, do-while and while,
 * continue and break, nested loops, locals declared before and inside the loop, shadowed names, an inlined
 * helper. Each kernel runs as one block of {@link #THREADS} threads and writes {@code words} ints per thread;
 * {@link Case#model} gives what CUDA C says thread {@code t} writes, worked out by hand in the comments.
 */
final class LoopYieldCases {
    static final int THREADS = 64;

    private LoopYieldCases() {
    }

    /** What thread {@code t} writes, given the kernel's parameter {@code n}. */
    interface Model {
        int[] of(int t, int n);
    }

    /**
     * A kernel named {@code name} taking {@code (int *out, int n)}, launched with {@code n}; {@code noOracle} says
     * why nvcc's PTX run on the PTX interpreter cannot check it, or is null where it can.
     */
    record Case(String name, String source, int n, int words, Model model, String noOracle) {
        Case(String name, String source, int n, int words, Model model) {
            this(name, source, n, words, model, null);
        }

        Case withoutOracle(String why) {
            return new Case(name, source, n, words, model, why);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Threads of the block for which {@code p} holds. */
    static int count(IntPredicate p) {
        int c = 0;
        for (int t = 0; t < THREADS; t++) {
            c += p.test(t) ? 1 : 0;
        }
        return c;
    }

    static int right(int t, int k) {
        return (t + k) % THREADS;
    }

    static List<Case> all() {
        return List.of(MULTI_DECL_INIT, COMMA_INIT_OUTER_VARS, POINTER_DECLARATOR, BARRIER_IN_CONDITION,
                SHUFFLE_IN_UPDATE, DO_WHILE_CONTINUE_BREAK, VOTE_IN_DO_WHILE_CONDITION, WHILE_DECLS_IN_BODY,
                NESTED_SHUFFLE, SHADOWED_NAMES, INLINED_HELPER, YIELD_IN_INIT, SWITCH_IN_LOOP, VOLATILE_STEPS,
                LONG_AND_FLOAT, VECTOR_DECLARATORS, COUNT_IN_WHILE_CONDITION);
    }

    // n = 4: (a, b) takes (0, 0) and (4, 8), so 2 iterations; thread t reads u = t + 1's a + b + u.
    static final Case MULTI_DECL_INIT = new Case("multi_decl_init", """
            extern "C" __global__ void multi_decl_init(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, iters = 0, acc = 0;
                for (int a = 0, b = 0; a <= n; a += 4, b += 8) {
                    s[t] = a + b + t;
                    __syncthreads();
                    acc += s[(t + 1) % 64];
                    __syncthreads();
                    if (++iters > 100) break;
                }
                out[2 * t] = iters;
                out[2 * t + 1] = acc;
            }""", 4, 2, (t, n) -> new int[] {2, 0 + (4 + 8) + 2 * right(t, 1)});

    // n = 3: b = 0, 1, 2 and a = t + 2b; thread t reads thread 63 - t's a, weighted b + 1:
    // sum (63 - t + 2b)(b + 1) = 6(63 - t) + 2(0 + 2 + 6). After the loop a = t + 6, b = 3.
    static final Case COMMA_INIT_OUTER_VARS = new Case("comma_init_outer_vars", """
            extern "C" __global__ void comma_init_outer_vars(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, a, b, acc = 0;
                for (a = t, b = 0; b < n; a += 2, b++) {
                    s[t] = a;
                    __syncthreads();
                    acc += s[63 - t] * (b + 1);
                    __syncthreads();
                }
                out[2 * t] = acc;
                out[2 * t + 1] = a * 16 + b;
            }""", 3, 2, (t, n) -> new int[] {6 * (63 - t) + 16, (t + 6) * 16 + 3});

    // Round i writes out[2t + i] = (thread t + 7's value t' * (i + 1)) + 100 i through the pointer declarator.
    static final Case POINTER_DECLARATOR = new Case("pointer_declarator", """
            extern "C" __global__ void pointer_declarator(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x;
                for (int i = 0, *p = out + 2 * t; i < n; i++, p++) {
                    s[t] = t * (i + 1);
                    __syncthreads();
                    *p = s[(t + 7) % 64] + 100 * i;
                    __syncthreads();
                }
            }""", 2, 2, (t, n) -> new int[] {right(t, 7), 2 * right(t, 7) + 100});

    // left = t % 5 - i; the loop runs while some thread has left > 0: i = 0..3, as the largest t % 5 is 4.
    // The counts are the threads with t % 5 > i (51, 38, 25, 12); acc = sum (t % 5 - i) = 4 (t % 5) - 6.
    static final Case BARRIER_IN_CONDITION = new Case("barrier_in_condition", """
            extern "C" __global__ void barrier_in_condition(int *out, int n) {
                int t = threadIdx.x, rounds = 0, acc = 0, counts = 0, c;
                for (int i = 0, left = t % 5; (c = __syncthreads_count(left > 0)) > 0; i++, left--) {
                    rounds = i + 1;
                    acc += left;
                    counts += c;
                }
                out[3 * t] = rounds;
                out[3 * t + 1] = acc;
                out[3 * t + 2] = counts;
            }""", 0, 3, (t, n) -> new int[] {4, 4 * (t % 5) - 6,
                count(x -> x % 5 > 0) + count(x -> x % 5 > 1) + count(x -> x % 5 > 2) + count(x -> x % 5 > 3)});

    // The update increments i first, so the shuffles use masks 2, 4, 8. Round 0 sees v = t; round 1 continues
    // (the update still runs): v = t + (t ^ 2); round 2 sees v(t) + v(t ^ 4) of that; the last update's shuffle
    // runs too but its result is not used.
    static final Case SHUFFLE_IN_UPDATE = new Case("shuffle_in_update", """
            extern "C" __global__ void shuffle_in_update(int *out, int n) {
                int t = threadIdx.x, acc = 0;
                for (int i = 0, v = t; i < n; i++, v += __shfl_xor_sync(0xffffffff, v, 1 << i)) {
                    if (i == 1) continue;
                    acc = acc * 1000 + v;
                }
                out[t] = acc;
            }""", 3, 1, (t, n) -> {
                int u = t ^ 4;
                int v2 = t + (t ^ 2) + u + (u ^ 2);
                return new int[] {t * 1000 + v2};
            });

    // i = 1..5; i == 2 skips the exchange (every thread does), i == 5 breaks. Thread t reads t + 5's
    // i * 100 + (t + 5): (100 + 300 + 400 + 500) + 4 (t + 5).
    static final Case DO_WHILE_CONTINUE_BREAK = new Case("do_while_continue_break", """
            extern "C" __global__ void do_while_continue_break(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, i = 0, acc = 0;
                do {
                    i++;
                    if (i == 2) continue;
                    s[t] = i * 100 + t;
                    __syncthreads();
                    acc += s[(t + 5) % 64];
                    __syncthreads();
                    if (i >= 5) break;
                } while (i < n);
                out[2 * t] = acc;
                out[2 * t + 1] = i;
            }""", 10, 2, (t, n) -> new int[] {1300 + 4 * right(t, 5), 5});

    // Each warp has a lane with t % 8 == 7, so every lane loops until k == 7; k == 2 continues to the
    // condition. acc = (1 + 3 + 4 + 5 + 6 + 7)(t % 3).
    static final Case VOTE_IN_DO_WHILE_CONDITION = new Case("vote_in_do_while_condition", """
            extern "C" __global__ void vote_in_do_while_condition(int *out, int n) {
                int t = threadIdx.x, k = 0, acc = 0;
                do {
                    k++;
                    if (k == 2) continue;
                    acc += k * (t % 3);
                } while (__any_sync(0xffffffff, k < t % 8));
                out[2 * t] = acc;
                out[2 * t + 1] = k;
            }""", 0, 2, (t, n) -> new int[] {26 * (t % 3), 7});

    // Four rounds (the condition, a functional cast, always holds); each adds thread t + 1's 3 (t + 1) + k minus
    // its own 3 t + k.
    static final Case WHILE_DECLS_IN_BODY = new Case("while_decls_in_body", """
            extern "C" __global__ void while_decls_in_body(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, k = 0, acc = 0;
                while (int(k) >= 0) {
                    int mine = t * 3 + k, other;
                    s[t] = mine;
                    __syncthreads();
                    other = s[(t + 1) % 64];
                    __syncthreads();
                    acc += other - mine;
                    if (++k == n) break;
                }
                out[2 * t] = acc;
                out[2 * t + 1] = k;
            }""", 4, 2, (t, n) -> new int[] {12 * (right(t, 1) - t), 4});

    // Lane l gets lane l + 1's t + o i (lane 31 keeps its own): src = t + 1, or t for lane 31.
    // acc = sum over o of 10^o (2 src + o) = 222 src + 210.
    static final Case NESTED_SHUFFLE = new Case("nested_shuffle", """
            extern "C" __global__ void nested_shuffle(int *out, int n) {
                int t = threadIdx.x, acc = 0;
                for (int o = 0, w = 1; o < n; o++, w *= 10) {
                    for (int i = 0, j = 2; i < j; i++) {
                        int v = __shfl_down_sync(0xffffffff, t + o * i, 1);
                        acc += v * w;
                    }
                }
                out[t] = acc;
            }""", 3, 1, (t, n) -> new int[] {222 * (t % 32 == 31 ? t : t + 1) + 210});

    // The outer i is untouched; the body's t is 2i and its inner i 50: acc = sum (2i + (t + 1) + 50).
    static final Case SHADOWED_NAMES = new Case("shadowed_names", """
            extern "C" __global__ void shadowed_names(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, i = 1000 + t, acc = 0;
                for (int i = 0, u = t; i < n; i++) {
                    int t = i * 2;
                    s[u] = t + u;
                    __syncthreads();
                    { int i = 50; acc += s[(u + 1) % 64] + i; }
                    __syncthreads();
                }
                out[2 * t] = i;
                out[2 * t + 1] = acc;
            }""", 3, 2, (t, n) -> new int[] {1000 + t, 6 + 3 * right(t, 1) + 150});

    // rotate_sum(n) = sum over k < n of 10 ((t + 2^k) % 64) + k.
    static final Case INLINED_HELPER = new Case("inlined_helper", """
            __device__ int rotate_sum(int *s, int t, int n) {
                int acc = 0;
                for (int k = 0, off = 1; k < n; k++, off *= 2) {
                    s[t] = t * 10 + k;
                    __syncthreads();
                    acc += s[(t + off) % 64];
                    __syncthreads();
                }
                return acc;
            }
            extern "C" __global__ void inlined_helper(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x;
                int first = rotate_sum(s, t, n);
                out[2 * t] = first;
                out[2 * t + 1] = rotate_sum(s, t, n - 1) + first;
            }""", 4, 2, (t, n) -> {
                int[] sums = new int[n + 1];
                for (int k = 0; k < n; k++) {
                    sums[k + 1] = sums[k] + 10 * right(t, 1 << k) + k;
                }
                return new int[] {sums[n], sums[n - 1] + sums[n]};
            });

    // a starts at the warp's first thread, 3 rounds; thread t reads u = t + 1's a + u: 3 (base(u) + u) + 3.
    static final Case YIELD_IN_INIT = new Case("yield_in_init", """
            extern "C" __global__ void yield_in_init(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, acc = 0;
                for (int a = __shfl_sync(0xffffffff, t, 0), b = a + n; a < b; a++) {
                    s[t] = a + t;
                    __syncthreads();
                    acc += s[(t + 1) % 64];
                    __syncthreads();
                }
                out[t] = acc;
            }""", 3, 1, (t, n) -> new int[] {3 * ((right(t, 1) & ~31) + right(t, 1)) + 3});

    // Rounds 0 and 2 add thread 63 - t's 3 (63 - t) + r minus 3 t + r; rounds 1 and 3 add 1000 r.
    static final Case SWITCH_IN_LOOP = new Case("switch_in_loop", """
            extern "C" __global__ void switch_in_loop(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, acc = 0;
                for (int r = 0, m = 3; r < n; r++) {
                    switch (r % 2) {
                    case 0: {
                        int q = t * m + r;
                        s[t] = q;
                        __syncthreads();
                        acc += s[63 - t] - q;
                        __syncthreads();
                        break;
                    }
                    default:
                        acc += r * 1000;
                    }
                }
                out[t] = acc;
            }""", 4, 1, (t, n) -> new int[] {6 * (63 - 2 * t) + 4000});

    // Lock step: all lanes store t + r, then all read t ^ sh's before any writes: v = t + (t ^ sh) + 2r.
    static final Case VOLATILE_STEPS = new Case("volatile_steps", """
            extern "C" __global__ void volatile_steps(int *out, int n) {
                volatile __shared__ int v[64];
                int t = threadIdx.x, acc = 0;
                for (int r = 0, sh = 1; r < n; r++, sh <<= 1) {
                    v[t] = t + r;
                    v[t] += v[t ^ sh];
                    acc += v[t];
                }
                out[t] = acc;
            }""", 3, 1, (t, n) -> new int[] {3 * t + (t ^ 1) + (t ^ 2) + (t ^ 4) + 6})
            .withoutOracle("lock-step warp code through volatile memory races in CUDA's memory model, and the PTX"
                    + " interpreter runs a warp's lanes one after another between barriers");

    // a = 1, 2^10, 2^20, 2^30 and b = t, then b + a after each update: acc = 4t + 3 * 2^10 + 2 * 2^20 + 2^30.
    // x = 0.5, 1, 2.5 (y = 2, 2.5, 3): f = 4, exact in float.
    static final Case LONG_AND_FLOAT = new Case("long_and_float", """
            extern "C" __global__ void long_and_float(int *out, int n) {
                int t = threadIdx.x;
                long long acc = 0;
                for (long long a = 1, b = t; a < (1LL << 40); a <<= 10, b += a) {
                    __syncthreads();
                    acc += b;
                }
                float f = 0.0f;
                for (float x = 0.5f, y = 2.0f; x < 4.0f; x *= y, y += 0.5f) {
                    __syncwarp();
                    f += x;
                }
                out[2 * t] = (int) (acc % 1000003);
                out[2 * t + 1] = (int) (f * 4.0f);
            }""", 0, 2, (t, n) -> new int[] {(int) ((4L * t + 3 * (1L << 10) + 2 * (1L << 20) + (1L << 30)) % 1000003),
                16});

    // p.x = t, t + 1, t + 3 in rounds p.y = 0, 1, 2 (q.x = 1, 2, 4 is added after each); thread t reads
    // u = t + 1's p.x: 3u + 4. In the last round, last = 100 (t + 3) + 4.
    static final Case VECTOR_DECLARATORS = new Case("vector_declarators", """
            extern "C" __global__ void vector_declarators(int *out, int n) {
                __shared__ int s[64];
                int t = threadIdx.x, acc = 0, last = 0;
                for (int2 p = make_int2(t, 0), q = make_int2(1, 2); p.y < n; p.x += q.x, p.y++, q.x *= q.y) {
                    s[t] = p.x;
                    __syncthreads();
                    acc += s[(t + 1) % 64];
                    __syncthreads();
                    last = p.x * 100 + q.x;
                }
                out[2 * t] = acc;
                out[2 * t + 1] = last;
            }""", 3, 2, (t, n) -> new int[] {3 * right(t, 1) + 4, 100 * (t + 3) + 4});

    // Rounds k = 0, 1, 2 (some thread has k < t % 4 until k = 3); counts 48, 32, 16; round 1 continues.
    static final Case COUNT_IN_WHILE_CONDITION = new Case("count_in_while_condition", """
            extern "C" __global__ void count_in_while_condition(int *out, int n) {
                int t = threadIdx.x, k = 0, acc = 0, total = 0, c;
                while ((c = __syncthreads_count(k < t % 4)) > 0) {
                    int a = k, b = 2 * k;
                    k++;
                    total += c;
                    if (a == 1) continue;
                    acc += (a + b) * (t % 4);
                }
                out[3 * t] = acc;
                out[3 * t + 1] = k;
                out[3 * t + 2] = total;
            }""", 0, 3, (t, n) -> new int[] {6 * (t % 4), 3,
                count(x -> x % 4 > 0) + count(x -> x % 4 > 1) + count(x -> x % 4 > 2)});
}
