package dev.polygpu.grcuda.parser;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import com.oracle.truffle.api.frame.VirtualFrame;
import com.oracle.truffle.api.interop.ArityException;
import com.oracle.truffle.api.interop.InteropLibrary;
import com.oracle.truffle.api.interop.UnsupportedMessageException;
import com.oracle.truffle.api.interop.UnsupportedTypeException;
import com.oracle.truffle.api.nodes.RootNode;
import dev.polygpu.grcuda.GrCUDALanguage;
import dev.polygpu.grcuda.GrContext;
import dev.polygpu.grcuda.GrError;
import dev.polygpu.grcuda.objects.GrNamespace;
import java.util.List;

/** Evaluates a parsed grcuda expression against the context's root namespace. */
public final class GrRootNode extends RootNode {
    private final GrExpression expression;

    public GrRootNode(GrCUDALanguage language, GrExpression expression) {
        super(language);
        this.expression = expression;
    }

    @Override
    public Object execute(VirtualFrame frame) {
        return evaluate(GrContext.get(this));
    }

    @TruffleBoundary
    private Object evaluate(GrContext context) {
        // Python code usually reaches grcuda first here (polyglot.eval(language="grcuda", string="CU")).
        context.pythonArrayDisplay().registerIfCalledFromPython();
        InteropLibrary interop = InteropLibrary.getUncached();
        try {
            return switch (expression) {
                case GrExpression.Name n -> resolve(context, n);
                case GrExpression.ArrayExpr a -> {
                    Object[] args = new Object[1 + a.dimensions().size()];
                    args[0] = a.elementType();
                    for (int i = 0; i < a.dimensions().size(); i++) {
                        args[i + 1] = a.dimensions().get(i);
                    }
                    yield interop.execute(resolve(context, new GrExpression.Name(List.of("DeviceArray"))), args);
                }
                case GrExpression.Call c -> {
                    Object f = resolve(context, c.function());
                    Object[] args = new Object[c.args().size()];
                    for (int i = 0; i < args.length; i++) {
                        Object a = c.args().get(i);
                        args[i] = a instanceof GrExpression.Name n ? resolve(context, n) : a;
                    }
                    yield interop.execute(f, args);
                }
            };
        } catch (UnsupportedMessageException | ArityException | UnsupportedTypeException e) {
            throw GrError.of(e.getMessage() == null ? e.toString() : e.getMessage(), this);
        }
    }

    private Object resolve(GrContext context, GrExpression.Name name) {
        GrNamespace root = context.root();
        List<String> path = name.path();
        if (path.size() == 1 && path.get(0).equals(root.name())) {
            return root;
        }
        Object current = root;
        StringBuilder seen = new StringBuilder();
        for (String part : path) {
            Object next = current instanceof GrNamespace ns ? ns.lookup(part) : null;
            if (next == null) {
                throw GrError.of("grcuda has no name '" + (seen.isEmpty() ? "" : seen + "::") + part + "'"
                        + (current instanceof GrNamespace ns ? "; " + ns.name() + " has " + memberNames(ns) : ""), this);
            }
            seen.append(seen.isEmpty() ? "" : "::").append(part);
            current = next;
        }
        return current;
    }

    private static String memberNames(GrNamespace ns) {
        InteropLibrary interop = InteropLibrary.getUncached();
        try {
            Object members = interop.getMembers(ns);
            StringBuilder sb = new StringBuilder();
            for (long i = 0; i < interop.getArraySize(members); i++) {
                sb.append(i == 0 ? "" : ", ").append(interop.asString(interop.readArrayElement(members, i)));
            }
            return sb.toString();
        } catch (Exception e) {
            return "(unknown)";
        }
    }
}
