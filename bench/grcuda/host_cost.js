// Host cost of grcuda operations from GraalJS, next to the same loop over a JS array.
// Run: ./polygpu --grcuda.ExecutionPolicy=sync bench/grcuda/host_cost.js [N]
const N = arguments.length > 0 ? parseInt(arguments[0]) : 1000000;
const LAUNCHES = 20000;
const cu = Polyglot.eval("grcuda", "CU");
const arr = cu.DeviceArray("float", N);
const host = new Float32Array(N);
const list = new Array(N).fill(0.0);

// Each collection gets loops of its own (new Function compiles a separate copy), as in a real program, so
// the JIT specializes them for that one kind instead of all of them.
function loops() {
  return [new Function("a", "N", "for (let i = 0; i < N; i++) { a[i] = i * 0.5; }"),
          new Function("a", "N", "let s = 0.0; for (let i = 0; i < N; i++) { s += a[i]; } return s;")];
}
const [writeArr, readArr] = loops();
const [writeTyped, readTyped] = loops();
const [writeList, readList] = loops();
function bestOf(f, reps = 7) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = process_time();
    f();
    best = Math.min(best, process_time() - t0);
  }
  return best;
}
const System = Java.type("java.lang.System");
function process_time() { return System.nanoTime() / 1e9; }

for (let w = 0; w < 15; w++) {
  writeArr(arr, N); readArr(arr, N); writeTyped(host, N); readTyped(host, N); writeList(list, N); readList(list, N);
}
if (readArr(arr, N) !== readTyped(host, N)) { throw new Error("device array and Float32Array disagree"); }

const kernel = cu.buildkernel("__global__ void empty(int n) { }", "empty(n: sint32)");
const launch = kernel(1, 1);
for (let i = 0; i < 2000; i++) { launch(0); }
function launches() { for (let i = 0; i < LAUNCHES; i++) { launch(0); } }

const rows = [
  ["element write", bestOf(() => writeArr(arr, N)) / N, bestOf(() => writeTyped(host, N)) / N, bestOf(() => writeList(list, N)) / N],
  ["element read", bestOf(() => readArr(arr, N)) / N, bestOf(() => readTyped(host, N)) / N, bestOf(() => readList(list, N)) / N],
];
console.log("| language | operation | DeviceArray ns/op | Float32Array ns/op | Array ns/op | ratio to Float32Array |");
console.log("|---|---|---:|---:|---:|---:|");
for (const [name, dev, typed, plain] of rows) {
  console.log(`| JavaScript | ${name} | ${(dev * 1e9).toFixed(1)} | ${(typed * 1e9).toFixed(1)} | ${(plain * 1e9).toFixed(1)} | ${(dev / typed).toFixed(2)}x |`);
}
console.log(`| JavaScript | empty kernel launch (1 block, 1 thread) | ${(bestOf(launches, 3) / LAUNCHES * 1e6).toFixed(1)} us | | | |`);
