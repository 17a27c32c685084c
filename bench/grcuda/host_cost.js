// Host cost of grcuda operations from GraalJS, next to the same loop over a JS array, and the host overhead of
// one computational element: k(1, 1)(arr, n) of an empty kernel in a loop that only submits, then one
// cudaDeviceSynchronize(). Run once per execution policy (the rows name it):
//   ./polygpu --grcuda.ExecutionPolicy=sync bench/grcuda/host_cost.js [N]
//   ./polygpu --grcuda.ExecutionPolicy=async bench/grcuda/host_cost.js [N]
const N = arguments.length > 0 ? parseInt(arguments[0]) : 1000000;
const LAUNCHES = 20000;
const cu = Polyglot.eval("grcuda", "CU");
const POLICY = cu.getoptions()["grcuda.ExecutionPolicy"];
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

const kernel = cu.buildkernel("__global__ void empty(float *a, int n) { }", "empty(a: inout pointer float, n: sint32)");
const launch = kernel(1, 1);
const small = cu.DeviceArray("float", 1024);
const sync = cu.cudaDeviceSynchronize;
// Submits LAUNCHES launches in batches of BATCH, synchronizing after each batch (so the runtime's queue bound
// never throttles the submitting loop); returns [seconds in the launch loops, total seconds].
const BATCH = 1000;
function launchRound() {
  const t0 = process_time();
  let submit = 0;
  for (let b = 0; b < LAUNCHES / BATCH; b++) {
    const s0 = process_time();
    for (let i = 0; i < BATCH; i++) { launch(small, 1024); }
    submit += process_time() - s0;
    sync();
  }
  return [submit, process_time() - t0];
}
for (let r = 0; r < 5; r++) { launchRound(); }

const rows = [
  ["element write", bestOf(() => writeArr(arr, N)) / N, bestOf(() => writeTyped(host, N)) / N, bestOf(() => writeList(list, N)) / N],
  ["element read", bestOf(() => readArr(arr, N)) / N, bestOf(() => readTyped(host, N)) / N, bestOf(() => readList(list, N)) / N],
];
const rounds = [];
for (let r = 0; r < 5; r++) { rounds.push(launchRound()); }
const submit = Math.min(...rounds.map(r => r[0]));
const total = Math.min(...rounds.map(r => r[1]));
console.log("| language | policy | operation | DeviceArray ns/op | Float32Array ns/op | Array ns/op | ratio to Float32Array |");
console.log("|---|---|---|---:|---:|---:|---:|");
for (const [name, dev, typed, plain] of rows) {
  console.log(`| JavaScript | ${POLICY} | ${name} | ${(dev * 1e9).toFixed(1)} | ${(typed * 1e9).toFixed(1)} | ${(plain * 1e9).toFixed(1)} | ${(dev / typed).toFixed(2)}x |`);
}
console.log("");
console.log("| language | policy | empty kernel `k(1,1)(arr, n)` | submit µs/launch | total µs/launch | launches/s |");
console.log("|---|---|---|---:|---:|---:|");
console.log(`| JavaScript | ${POLICY} | ${LAUNCHES.toLocaleString("en-US")} launches in batches of 1,000, best of 5 | ${(submit / LAUNCHES * 1e6).toFixed(2)} | ${(total / LAUNCHES * 1e6).toFixed(2)} | ${Math.round(LAUNCHES / total).toLocaleString("en-US")} |`);
