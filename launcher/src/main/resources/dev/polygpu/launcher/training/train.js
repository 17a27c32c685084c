// The start-up cache's training run (StartupTraining): what a short polygpu program does, so that the classes
// it loads are in the cache. Its output is discarded.
console.log("hi");
const cu = Polyglot.eval("grcuda", "CU");
const x = cu.DeviceArray("float", 64);
for (let i = 0; i < x.length; i++) x[i] = i;
const add = cu.buildkernel(`
__global__ void add(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] + a;
}`, "add(x: inout pointer float, a: float, n: sint32)");
add(2, 32)(x, 1.0, x.length);
if (x[63] !== 64) throw new Error("training kernel gave " + x[63] + ", not 64");
