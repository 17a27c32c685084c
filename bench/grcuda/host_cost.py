# Host cost of grcuda operations from GraalPy, next to the same loop over a Python list, and the host overhead
# of one computational element: k(1, 1)(arr, n) of an empty kernel in a loop that only submits, then one
# cudaDeviceSynchronize(). Run once per execution policy (the rows name it):
#   ./polygpu --grcuda.ExecutionPolicy=sync bench/grcuda/host_cost.py [N]
#   ./polygpu --grcuda.ExecutionPolicy=async bench/grcuda/host_cost.py [N]
import polyglot
import sys
import time

from access_loops import best_of, loops

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
LAUNCHES = 20_000
cu = polyglot.eval(language="grcuda", string="CU")
POLICY = getattr(cu.getoptions(), "grcuda.ExecutionPolicy")
arr = cu.DeviceArray("float", N)
lst = [0.0] * N
# Another language's array, to show what GraalPy itself costs per element of any foreign array.
foreign = polyglot.eval(language="js", string=f"new Float32Array({N})")

write_arr, read_arr = loops(N)
write_lst, read_lst = loops(N)
write_foreign, read_foreign = loops(N)

for _ in range(15):  # warm-up: let the JIT compile the loops
    write_arr(arr); read_arr(arr); write_lst(lst); read_lst(lst)
assert read_arr(arr) == read_lst(lst), "device array and list disagree"

kernel = cu.buildkernel("__global__ void empty(float *a, int n) { }", "empty(a: inout pointer float, n: sint32)")
launch = kernel(1, 1)
small = cu.DeviceArray("float", 1024)
sync = cu.cudaDeviceSynchronize


BATCH = 1000


def launch_round():
    """Submits LAUNCHES launches in batches of BATCH, synchronizing after each (so the runtime's queue bound
    never throttles the submitting loop); returns (seconds in the launch loops, total seconds)."""
    t0 = time.perf_counter()
    submit = 0.0
    for _ in range(LAUNCHES // BATCH):
        s0 = time.perf_counter()
        for _ in range(BATCH):
            launch(small, 1024)
        submit += time.perf_counter() - s0
        sync()
    return submit, time.perf_counter() - t0


for _ in range(5):  # warm-up
    launch_round()

rows = [
    ["element write", best_of(lambda: write_arr(arr)) / N, best_of(lambda: write_lst(lst)) / N],
    ["element read", best_of(lambda: read_arr(arr)) / N, best_of(lambda: read_lst(lst)) / N],
]
for _ in range(15):  # the foreign array afterwards, so that compiling its loops does not disturb the others
    write_foreign(foreign); read_foreign(foreign)
rows[0].append(best_of(lambda: write_foreign(foreign)) / N)
rows[1].append(best_of(lambda: read_foreign(foreign)) / N)
rounds = [launch_round() for _ in range(5)]
submit, total = min(r[0] for r in rounds), min(r[1] for r in rounds)
print("| language | policy | operation | DeviceArray ns/op | host list ns/op | JS Float32Array ns/op | ratio to list |")
print("|---|---|---|---:|---:|---:|---:|")
for name, dev, host, other in rows:
    print(f"| Python | {POLICY} | {name} | {dev * 1e9:.1f} | {host * 1e9:.1f} | {other * 1e9:.1f} | {dev / host:.2f}x |")
print()
print("| language | policy | empty kernel `k(1,1)(arr, n)` | submit µs/launch | total µs/launch | launches/s |")
print("|---|---|---|---:|---:|---:|")
print(f"| Python | {POLICY} | {LAUNCHES:,} launches in batches of 1,000, best of 5 | {submit / LAUNCHES * 1e6:.2f} | "
      f"{total / LAUNCHES * 1e6:.2f} | {LAUNCHES / total:,.0f} |")
