# The start-up cache's training run (StartupTraining): what a short polygpu program does, so that the classes
# it loads are in the cache. Its output is discarded.
import polyglot
print("hi")
cu = polyglot.eval(language="grcuda", string="CU")
x = cu.DeviceArray("float", 64)
for i in range(len(x)):
    x[i] = i
scale = cu.buildkernel("""
__global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}""", "scale(x: inout pointer float, a: float, n: sint32)")
scale(2, 32)(x, 2.0, len(x))
if x[63] != 126.0:
    raise SystemExit("training kernel gave %s, not 126.0" % x[63])
