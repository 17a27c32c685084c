# Element access from GraalPy on other languages' arrays (a JavaScript Float32Array and Array), timed before and
# after the program's first evaluation of grcuda source, which sets up Python's display of device arrays:
#   ./polygpu bench/grcuda/foreign_access.py grcuda     evaluates grcuda between the two rounds
#   ./polygpu bench/grcuda/foreign_access.py none       the same rounds without it (the control)
# Compare the second rounds of the two runs; the first rounds of both are the same program.
import polyglot
import sys

from access_loops import best_of, loops

N = 1_000_000
ARRAYS = {
    "Float32Array": polyglot.eval(language="js", string=f"new Float32Array({N})"),
    "JS Array": polyglot.eval(language="js", string=f"Array.from({{length: {N}}}, () => 0.0)"),
}


def round_(label):
    for name, a in ARRAYS.items():
        write, read = loops(N)
        for _ in range(15):  # warm-up: let the JIT compile the loops
            write(a)
            read(a)
        w = best_of(lambda: write(a)) / N * 1e9
        r = best_of(lambda: read(a)) / N * 1e9
        print(f"| {label} | {name} | {w:.1f} | {r:.1f} |", flush=True)


print("| round | array | write ns/op | read ns/op |")
print("|---|---|---:|---:|")
round_("first")
if sys.argv[1:] == ["grcuda"]:
    polyglot.eval(language="grcuda", string="CU")
round_("second, after grcuda" if sys.argv[1:] == ["grcuda"] else "second")
