// Device arrays allocated and dropped without free(): the process's resident memory over COUNT arrays of SIZE
// floats, printed every tenth of the way (VmRSS from /proc/self/status, read through Java). Released arrays keep
// it flat; without release it grows by COUNT * SIZE * 4 bytes.
//   ./polygpu bench/grcuda/drop_arrays.js [COUNT] [SIZE]
const COUNT = arguments.length > 0 ? parseInt(arguments[0]) : 100000;
const SIZE = arguments.length > 1 ? parseInt(arguments[1]) : 1000;
const cu = Polyglot.eval("grcuda", "CU");
const Files = Java.type("java.nio.file.Files");
const Path = Java.type("java.nio.file.Path");
const Runtime = Java.type("java.lang.Runtime");

function heapMb() {
  return Math.floor(Runtime.getRuntime().totalMemory() / (1 << 20));
}

function rssMb() {
  for (const line of Files.readAllLines(Path.of("/proc/self/status"))) {
    if (line.startsWith("VmRSS:")) {
      return Math.floor(parseInt(line.split(/\s+/)[1]) / 1024);
    }
  }
  return -1;
}

console.log(`| arrays | RSS (MB) | Java heap committed (MB) |  (js, ${SIZE} floats each)`);
console.log("|---:|---:|---:|");
console.log(`| 0 | ${rssMb()} | ${heapMb()} |`);
for (let i = 1; i <= COUNT; i++) {
  const a = cu.DeviceArray("float", SIZE);
  a[i % SIZE] = i;
  if (i % (COUNT / 10) === 0) {
    console.log(`| ${i} | ${rssMb()} | ${heapMb()} |`);
  }
}
