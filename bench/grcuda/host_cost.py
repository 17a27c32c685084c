# Host cost of grcuda operations from GraalPy, next to the same loop over a Python list.
# Run: ./polygpu --grcuda.ExecutionPolicy=sync bench/grcuda/host_cost.py [N]
import polyglot
import sys
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
LAUNCHES = 20_000
cu = polyglot.eval(language="grcuda", string="CU")
arr = cu.DeviceArray("float", N)
lst = [0.0] * N
# Another language's array, to show what GraalPy itself costs per element of any foreign array.
foreign = polyglot.eval(language="js", string=f"new Float32Array({N})")


LOOPS = """
def write(a):
    for i in range(N):
        a[i] = i * 0.5

def read(a):
    s = 0.0
    for i in range(N):
        s += a[i]
    return s
"""


def loops():
    """A fresh copy of the loops: each collection gets code of its own, as in a real program, so the JIT
    specializes it for that one kind instead of all of them."""
    scope = {"N": N}
    exec(LOOPS, scope)
    return scope["write"], scope["read"]


write_arr, read_arr = loops()
write_lst, read_lst = loops()
write_foreign, read_foreign = loops()


def best_of(f, reps=7):
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


for _ in range(15):  # warm-up: let the JIT compile the loops
    write_arr(arr); read_arr(arr); write_lst(lst); read_lst(lst)
assert read_arr(arr) == read_lst(lst), "device array and list disagree"

kernel = cu.buildkernel("__global__ void empty(int n) { }", "empty(n: sint32)")
launch = kernel(1, 1)
for _ in range(2000):
    launch(0)


def launches():
    for _ in range(LAUNCHES):
        launch(0)


rows = [
    ["element write", best_of(lambda: write_arr(arr)) / N, best_of(lambda: write_lst(lst)) / N],
    ["element read", best_of(lambda: read_arr(arr)) / N, best_of(lambda: read_lst(lst)) / N],
]
for _ in range(15):  # the foreign array afterwards, so that compiling its loops does not disturb the others
    write_foreign(foreign); read_foreign(foreign)
rows[0].append(best_of(lambda: write_foreign(foreign)) / N)
rows[1].append(best_of(lambda: read_foreign(foreign)) / N)
print("| language | operation | DeviceArray ns/op | host list ns/op | JS Float32Array ns/op | ratio to list |")
print("|---|---|---:|---:|---:|---:|")
for name, dev, host, other in rows:
    print(f"| Python | {name} | {dev * 1e9:.1f} | {host * 1e9:.1f} | {other * 1e9:.1f} | {dev / host:.2f}x |")
print(f"| Python | empty kernel launch (1 block, 1 thread) | {best_of(launches, 3) / LAUNCHES * 1e6:.1f} us | | | |")
