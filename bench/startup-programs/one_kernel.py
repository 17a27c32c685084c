# One tiny kernel: what a short script or a CI job pays before its first result.
import polyglot
cu = polyglot.eval(language="grcuda", string="CU")
x = cu.DeviceArray("float", 16)
for i in range(16):
    x[i] = i
square = cu.buildkernel("""
__global__ void square(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= x[i];
}""", "square(x: inout pointer float, n: sint32)")
square(1, 16)(x, 16)
print(x[3])
