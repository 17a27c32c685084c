# Device arrays allocated and dropped without free(): the process's resident memory over COUNT arrays of SIZE
# floats, printed every tenth of the way (VmRSS from /proc/self/status, read through Java). Released arrays keep it flat; without
# release it grows by COUNT * SIZE * 4 bytes and more.
#   ./polygpu bench/grcuda/drop_arrays.py [COUNT] [SIZE]
import polyglot
import sys

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
cu = polyglot.eval(language="grcuda", string="CU")


import java

# Through Java: GraalPy's own file system does not show the process's /proc/self.
Files = java.type("java.nio.file.Files")
Path = java.type("java.nio.file.Path")
Runtime = java.type("java.lang.Runtime")


def rss_mb():
    for line in Files.readAllLines(Path.of("/proc/self/status")):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
    return -1


def heap_mb():
    return Runtime.getRuntime().totalMemory() // (1 << 20)


print(f"| arrays | RSS (MB) | Java heap committed (MB) |  (python, {SIZE} floats each)")
print("|---:|---:|---:|")
print(f"| 0 | {rss_mb()} | {heap_mb()} |")
for i in range(1, COUNT + 1):
    a = cu.DeviceArray("float", SIZE)
    a[i % SIZE] = i
    if i % (COUNT // 10) == 0:
        print(f"| {i} | {rss_mb()} | {heap_mb()} |")
