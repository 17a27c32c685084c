package dev.polygpu.grcuda.builtins;

import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.kernel.GrDevice;
import dev.polygpu.grcuda.objects.GrNone;

/**
 * The CUDA runtime's peer-access functions: {@code cudaDeviceCanAccessPeer(device, peer)} is 1 for two different
 * devices of the context (CPU devices standing in for GPUs copy between each other's memories; the scheduler
 * moves arrays between them itself) and 0 for a device and itself; {@code cudaDeviceEnablePeerAccess(peer[,
 * flags])} and {@code cudaDeviceDisablePeerAccess(peer)} accept another device and fail as CUDA does for the
 * current device, which is not its own peer, after checking the ids.
 */
final class GrPeerAccessBuiltins extends GrDeviceBuiltin {
    private enum Kind { CAN_ACCESS, ENABLE, DISABLE }

    private final Kind kind;

    private GrPeerAccessBuiltins(String name, GrContext context, Kind kind) {
        super(name, context);
        this.kind = kind;
    }

    static GrPeerAccessBuiltins canAccessPeer(GrContext context) {
        return new GrPeerAccessBuiltins("cudaDeviceCanAccessPeer", context, Kind.CAN_ACCESS);
    }

    static GrPeerAccessBuiltins enablePeerAccess(GrContext context) {
        return new GrPeerAccessBuiltins("cudaDeviceEnablePeerAccess", context, Kind.ENABLE);
    }

    static GrPeerAccessBuiltins disablePeerAccess(GrContext context) {
        return new GrPeerAccessBuiltins("cudaDeviceDisablePeerAccess", context, Kind.DISABLE);
    }

    @Override
    protected Object run(Object[] args) throws ArityException, UnsupportedTypeException {
        if (kind == Kind.CAN_ACCESS) {
            Args.arity(args, 2, 2);
            int device = GrDevice.check(context, Args.integer(args, 0, name(), "device"), name());
            int peer = GrDevice.check(context, Args.integer(args, 1, name(), "peer device"), name());
            return device == peer ? 0 : 1;
        }
        Args.arity(args, 1, kind == Kind.ENABLE ? 2 : 1);
        int peer = GrDevice.check(context, Args.integer(args, 0, name(), "peer device"), name());
        if (args.length == 2 && Args.integer(args, 1, name(), "flags") != 0) {
            throw GrError.of(name() + ": argument 2 (flags) must be 0, got " + Args.display(args[1]));
        }
        int count = GrDevice.count(context);
        if (peer != context.currentDevice()) {
            return GrNone.INSTANCE;
        }
        throw GrError.of(name() + ": device " + peer + " is the current device, and a device is not its own peer;"
                + " this context runs on " + count + " device" + (count == 1 ? "" : "s")
                + ", so there is no peer access to " + (kind == Kind.ENABLE ? "enable" : "disable")
                + " (cudaDeviceCanAccessPeer says 0)");
    }
}
