# The element-access loops and the timer that host_cost.py and foreign_access.py share (imported from the
# script's folder, which ./polygpu puts on Python's path).
import time

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


def loops(n):
    """A fresh copy of the write and read loops over n elements: each collection (or round) gets code of its own,
    as in a real program, so the JIT specializes it for that one kind instead of all of them."""
    scope = {"N": n}
    exec(LOOPS, scope)
    return scope["write"], scope["read"]


def best_of(f, reps=7):
    """The shortest of reps timed calls of f, in seconds."""
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best
