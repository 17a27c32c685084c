package dev.polygpu.cluster.sim;
import java.util.random.RandomGenerator;
public class ScratchPerf {
    public static void main(String[] a) {
        int owners = Integer.parseInt(a[0]); int n = Integer.parseInt(a[1]);
        RandomGenerator r = RandomGenerator.of("L64X128MixRandom");
        Workload.Builder b = Workload.builder("scratch");
        int k = b.kernel("gemm");
        int arr = b.array(256 * 1024);
        double[] w = new double[owners]; double sum = 0;
        for (int i = 0; i < owners; i++) { w[i] = Math.pow(1 - r.nextDouble(), -1 / 1.5); sum += w[i]; }
        int[] chain = new int[owners]; java.util.Arrays.fill(chain, -1);
        for (int t = 0; t < n; t++) {
            double x = r.nextDouble() * sum; int o = 0; double acc = w[0];
            while (acc < x && o < owners - 1) { o++; acc += w[o]; }
            long d = (long) (1_000_000 * (0.5 + r.nextDouble()));
            b.task(o, k, d, 256 * 1024, new int[] {arr});
        }
        Workload wl = b.build();
        long t0 = System.nanoTime();
        SimResult res = new Simulator(wl, SimConfig.of(owners, 2, 4, Network.flat(5_000, 10e9, 2_000), 1)).run();
        System.out.println(res);
        System.out.printf("eff %.4f wall %.1f s%n", res.efficiency(), (System.nanoTime() - t0) / 1e9);
    }
}
