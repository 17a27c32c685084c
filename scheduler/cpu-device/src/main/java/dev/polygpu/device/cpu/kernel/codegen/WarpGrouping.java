package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Barrier;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Cond;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Loop;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Masked;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Node;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.PerWarp;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.Seq;
import dev.polygpu.device.cpu.kernel.codegen.RegionForm.WarpOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts each stretch of a region-form tree between block barriers that holds warp intrinsics into a
 * {@link PerWarp} part, which runs it warp after warp: the parts of a sequence that hold no barrier are gathered,
 * and the loops and {@code if}s that hold barriers are looked into. Only a kernel that prints is grouped so
 * ({@link RegionForm}): run warp by warp, its lines come in the cooperative scheduler's order. Any other kernel
 * runs its regions over the whole block and serves every warp at each warp intrinsic, which is a valid schedule
 * (threads of different warps have no order between barriers) and the faster one: a grid-stride loop before a
 * warp reduction runs iteration-major over the block's threads, whose accesses the processor's prefetchers follow,
 * not over one warp's 32 lanes, each of which jumps a whole grid stride; and each region and intrinsic is one loop
 * for the block, not one per warp.
 */
final class WarpGrouping {
    private WarpGrouping() {
    }

    static Node group(Node n) {
        return switch (n) {
            case Seq s -> {
                List<Node> out = new ArrayList<>();
                List<Node> run = new ArrayList<>();
                for (Node part : s.parts()) {
                    if (hasBarrier(part)) {
                        close(run, out);
                        out.add(group(part));
                    } else {
                        run.add(part);
                    }
                }
                close(run, out);
                yield new Seq(out);
            }
            case Loop l -> new Loop(l.loop(), l.init(), l.condition(), l.update(), group(l.body()), l.testLast());
            case Cond c -> new Cond(c.condition(), group(c.then()), group(c.otherwise()));
            default -> n;
        };
    }

    private static void close(List<Node> run, List<Node> out) {
        if (run.stream().anyMatch(WarpGrouping::hasWarp)) {
            out.add(new PerWarp(new Seq(List.copyOf(run))));
        } else {
            out.addAll(run);
        }
        run.clear();
    }

    private static boolean hasBarrier(Node n) {
        return switch (n) {
            case Barrier b -> true;
            case Seq s -> s.parts().stream().anyMatch(WarpGrouping::hasBarrier);
            case Loop l -> hasBarrier(l.body());
            case Cond c -> hasBarrier(c.then()) || hasBarrier(c.otherwise());
            default -> false;
        };
    }

    private static boolean hasWarp(Node n) {
        return switch (n) {
            case WarpOp w -> true;
            case Masked m -> true;
            case Seq s -> s.parts().stream().anyMatch(WarpGrouping::hasWarp);
            case Loop l -> hasWarp(l.body());
            case Cond c -> hasWarp(c.then()) || hasWarp(c.otherwise());
            default -> false;
        };
    }
}
