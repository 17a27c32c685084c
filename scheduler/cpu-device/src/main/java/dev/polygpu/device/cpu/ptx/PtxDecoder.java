package dev.polygpu.device.cpu.ptx;

import dev.polygpu.device.DeviceException;
import dev.polygpu.device.ImageParam;
import dev.polygpu.device.cpu.ptx.Insn.Step;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Close;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Decl;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Function;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Instr;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Label;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Name;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Open;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Operand;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Param;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Paren;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Stmt;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Token;
import dev.polygpu.device.cpu.ptx.PtxSyntax.Var;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a parsed PTX module and decodes it into {@link PtxFunction}s the {@link PtxBlockRunner} interprets:
 * lays out module variables (global and constant ones in off-heap memory with their initial values, shared ones
 * at offsets of the block's shared memory), gives every register, and every constant an instruction reads, a slot
 * in the function's register file, and turns each instruction into an {@link Insn}. Every instruction, modifier,
 * operand form or directive it does not know is refused here, at load time, with the file and line.
 *
 * <p>Implementation notes: one decoder per load, used by one thread. Names are scoped as PTX scopes them
 * ({@code { }} blocks inside a body, so every call sequence may declare its own {@code param0}); labels are
 * function-wide and branches are patched once the body is read; calls are linked to their callees once every
 * function is decoded. Instruction semantics live in {@link PtxOps}.
 */
final class PtxDecoder {
    final String file;
    private final PtxSyntax.Module module;
    private final Arena arena;
    /** Module-scope variables by name. */
    private final Map<String, Sym> moduleSyms = new HashMap<>();
    final List<GlobalMemory.Region> regions = new ArrayList<>();
    /** Bytes of module-scope {@code .shared} variables. */
    long moduleSharedBytes;
    /** Where dynamic shared memory ({@code .extern .shared}) begins: after every entry's static variables. */
    long dynamicSharedBase;
    /** True if a function calls {@code vprintf} or {@code __assertfail} ({@link PtxPrintf}). */
    boolean prints;
    final Map<String, PtxFunction> functions = new LinkedHashMap<>();
    private final Map<String, Function> syntaxByName = new HashMap<>();

    PtxDecoder(PtxSyntax.Module module, Arena arena) {
        this.file = module.fileName();
        this.module = module;
        this.arena = arena;
    }

    /** What a name denotes. */
    record Sym(int kind, int reg, int size, long value, String name) {
        static final int REG = 0;
        /** An entry's formal parameter: {@code value} is its offset in the launch's parameter block. */
        static final int KPARAM = 1;
        /** A parameter of the frame's parameter area. */
        static final int FPARAM = 2;
        /** A {@code .local} variable: {@code value} is its offset from the frame's local base. */
        static final int LOCAL = 3;
        /** A shared variable: {@code value} is its shared-space address. */
        static final int SHARED = 4;
        /** A global or constant variable: {@code value} is its address. */
        static final int GLOBAL = 5;
        static final int FUNC = 6;
    }

    void decode() {
        checkHeader();
        layoutModuleVariables();
        long maxOwnShared = 0;
        for (Function f : module.functions()) {
            if (f.body() == null) {
                if (PtxPrintf.builtin(f.name()) != 0) {
                    // .extern .func vprintf / __assertfail: the interpreter implements them (link()).
                    moduleSyms.putIfAbsent(f.name(), new Sym(Sym.FUNC, -1, 0, 0, f.name()));
                }
                continue;
            }
            if (syntaxByName.put(f.name(), f) != null) {
                throw PtxSyntax.invalid(file, f.line(), "function " + f.name() + " is defined twice");
            }
            moduleSyms.putIfAbsent(f.name(), new Sym(Sym.FUNC, -1, 0, 0, f.name()));
            if (f.entry()) {
                maxOwnShared = Math.max(maxOwnShared, ownShared(f));
            }
        }
        dynamicSharedBase = align(moduleSharedBytes + maxOwnShared, 16);
        for (Function f : module.functions()) {
            if (f.body() != null) {
                functions.put(f.name(), new FnDecoder(f).decode());
            } else if (f.entry()) {
                throw PtxSyntax.invalid(file, f.line(), "kernel " + f.name() + " is declared without a body");
            }
        }
        link();
    }

    private void checkHeader() {
        String v = module.version();
        int major;
        try {
            major = Integer.parseInt(v.substring(0, v.indexOf('.') < 0 ? v.length() : v.indexOf('.')));
        } catch (NumberFormatException e) {
            throw PtxSyntax.invalid(file, 1, ".version " + v + " is not a version number");
        }
        if (major < 6 || major > 9) {
            throw new DeviceException(dev.polygpu.device.CudaError.UNSUPPORTED_PTX_VERSION, file + ": PTX .version "
                    + v + " is outside what the CPU device reads (6.0 to 9.x); regenerate it with nvcc -ptx");
        }
        String t = module.target();
        if (!t.matches("sm_\\d+[af]?")) {
            throw PtxSyntax.unsupported(file, 1, ".target " + t);
        }
    }

    private void layoutModuleVariables() {
        for (Var v : module.variables()) {
            if (moduleSyms.containsKey(v.name())) {
                throw PtxSyntax.invalid(file, v.line(), "variable " + v.name() + " is declared twice");
            }
            switch (v.space()) {
                case "shared" -> {
                    if (v.unsized()) {
                        // dynamic shared memory: its address is the dynamic base, known once entries are laid out
                        moduleSyms.put(v.name(), new Sym(Sym.SHARED, -1, 0, -1, v.name()));
                        continue;
                    }
                    moduleSharedBytes = align(moduleSharedBytes, v.align());
                    moduleSyms.put(v.name(), new Sym(Sym.SHARED, -1, 0, moduleSharedBytes, v.name()));
                    moduleSharedBytes += v.bytes();
                }
                case "global", "const" -> {
                    if (v.unsized()) {
                        throw PtxSyntax.unsupported(file, v.line(), "." + v.space() + " array " + v.name()
                                + " without a size");
                    }
                    long bytes = Math.max(1, v.bytes());
                    MemorySegment s = arena.allocate(bytes, Math.max(v.align(), 8));
                    if (v.init() != null) {
                        int sz = PtxTypes.size(v.type());
                        if (v.init().length > v.count()) {
                            throw PtxSyntax.invalid(file, v.line(), v.name() + " has " + v.init().length
                                    + " initial values for " + v.count() + " elements");
                        }
                        for (int i = 0; i < v.init().length; i++) {
                            store(s, (long) i * sz, sz, v.init()[i]);
                        }
                    }
                    regions.add(new GlobalMemory.Region(s.address(), s, "." + v.space() + " variable " + v.name()
                            + " (" + bytes + " bytes)"));
                    moduleSyms.put(v.name(), new Sym(Sym.GLOBAL, -1, 0, s.address(), v.name()));
                }
                default -> throw PtxSyntax.unsupported(file, v.line(), "." + v.space() + " variable");
            }
        }
    }

    private static void store(MemorySegment s, long off, int size, long bits) {
        switch (size) {
            case 1 -> s.set(ValueLayout.JAVA_BYTE, off, (byte) bits);
            case 2 -> s.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) bits);
            case 4 -> s.set(ValueLayout.JAVA_INT_UNALIGNED, off, (int) bits);
            default -> s.set(ValueLayout.JAVA_LONG_UNALIGNED, off, bits);
        }
    }

    /** Bytes of the {@code .shared} variables declared in an entry's body. */
    private long ownShared(Function f) {
        long bytes = 0;
        for (Stmt s : f.body()) {
            if (s instanceof Decl d && d.tokens().get(0).is(".shared")) {
                Var v = bodyVariable(d, "shared");
                bytes = align(bytes, v.align()) + v.bytes();
            }
        }
        return bytes;
    }

    private Var bodyVariable(Decl d, String space) {
        List<Token> t = d.tokens();
        int align = 0;
        String type = null;
        int i = 1;
        for (; i < t.size() && t.get(i).text().startsWith("."); i++) {
            String m = t.get(i).text().substring(1);
            if (m.equals("align")) {
                align = (int) PtxNumbers.integer(file, d.line(), t.get(++i).text());
            } else if (PtxTypes.isType(m)) {
                type = m;
            } else {
                throw PtxSyntax.unsupported(file, d.line(), "." + space + " qualifier ." + m);
            }
        }
        if (type == null || i >= t.size()) {
            throw PtxSyntax.invalid(file, d.line(), "." + space + " declaration without a type or a name");
        }
        String name = t.get(i++).text();
        long count = 1;
        while (i < t.size() && t.get(i).is("[")) {
            count *= PtxNumbers.integer(file, d.line(), t.get(i + 1).text());
            i += 3;
        }
        if (i < t.size()) {
            throw PtxSyntax.unsupported(file, d.line(), "'" + t.get(i) + "' in a ." + space + " declaration"
                    + " (initializers of body variables)");
        }
        return new Var(space, name, type, align == 0 ? PtxTypes.size(type) : align, count, false, null, d.line());
    }

    private void link() {
        for (PtxFunction f : functions.values()) {
            for (Insn in : f.code) {
                if (in.kind == Insn.CALL) {
                    PtxFunction callee = functions.get(in.call.callee);
                    if (callee == null && PtxPrintf.builtin(in.call.callee) != 0) {
                        PtxPrintf.link(file, in);
                        prints = true;
                        continue;
                    }
                    if (callee == null || callee.entry) {
                        throw PtxSyntax.unsupported(file, in.line, "call of " + in.call.callee + (callee == null
                                ? ", which the module declares without a body (an external function)"
                                : ", a kernel (dynamic parallelism)"));
                    }
                    if (callee.paramOffsets.length != in.call.argOffsets.length
                            || callee.returnOffsets.length != in.call.retOffsets.length) {
                        throw PtxSyntax.invalid(file, in.line, "call of " + callee.name + " with "
                                + in.call.argOffsets.length + " arguments and " + in.call.retOffsets.length
                                + " results; it has " + callee.paramOffsets.length + " and "
                                + callee.returnOffsets.length);
                    }
                    in.call.function = callee;
                }
            }
        }
        // cooperative (lockstep) if any function reachable from an entry has barriers or collectives (volatile
        // accesses)
        boolean changed = true;
        while (changed) {
            changed = false;
            for (PtxFunction f : functions.values()) {
                for (Insn in : f.code) {
                    if (in.kind != Insn.CALL || in.call.builtin != 0) {
                        continue;
                    }
                    PtxFunction callee = in.call.function;
                    if (callee.cooperative && !f.cooperative || callee.lockstep && !f.lockstep) {
                        f.cooperative |= callee.cooperative;
                        f.lockstep |= callee.lockstep;
                        changed = true;
                    }
                }
            }
        }
    }

    /** The local bytes one thread needs for {@code f} and its deepest call chain; -1 when it recurses. */
    long stackNeed(PtxFunction f, Set<PtxFunction> active) {
        if (!active.add(f)) {
            return -1;
        }
        long deepest = 0;
        for (Insn in : f.code) {
            if (in.kind == Insn.CALL && in.call.builtin == 0) {
                long n = stackNeed(in.call.function, active);
                if (n < 0) {
                    active.remove(f);
                    return -1;
                }
                deepest = Math.max(deepest, n);
            }
        }
        active.remove(f);
        return f.localBytes + deepest;
    }

    static long align(long v, long a) {
        return a <= 1 ? v : (v + a - 1) / a * a;
    }

    /** Decodes one function body. */
    final class FnDecoder {
        private final Function f;
        private final Deque<Map<String, Sym>> scopes = new ArrayDeque<>();
        private final List<Long> template = new ArrayList<>();
        private final Map<Long, Integer> constants = new HashMap<>();
        private final List<Insn> code = new ArrayList<>();
        private final Map<String, Integer> labels = new HashMap<>();
        private final List<Object[]> branches = new ArrayList<>();
        private int paramBytes;
        private long localBytes;
        private long ownShared;
        private boolean cooperative;
        private boolean lockstep;
        final PtxOps ops;

        FnDecoder(Function f) {
            this.f = f;
            this.ops = new PtxOps(this);
        }

        PtxFunction decode() {
            scopes.push(new HashMap<>());
            int kparamBytes = 0;
            List<ImageParam> image = new ArrayList<>();
            int[] pOff = new int[f.params().size()];
            int[] pSize = new int[f.params().size()];
            for (int i = 0; i < f.params().size(); i++) {
                Param p = f.params().get(i);
                if (f.entry()) {
                    kparamBytes = (int) align(kparamBytes, p.align());
                    declare(p.name(), new Sym(Sym.KPARAM, -1, p.bytes(), kparamBytes, p.name()), f.line());
                    image.add(new ImageParam(p.name(), p.bytes(), p.align(), p.declaredAs()));
                    kparamBytes += p.bytes();
                } else {
                    pOff[i] = frameParam(p.name(), p.bytes(), p.align(), f.line());
                    pSize[i] = p.bytes();
                }
            }
            int[] rOff = new int[f.returns().size()];
            int[] rSize = new int[f.returns().size()];
            for (int i = 0; i < f.returns().size(); i++) {
                Param p = f.returns().get(i);
                rOff[i] = frameParam(p.name(), p.bytes(), p.align(), f.line());
                rSize[i] = p.bytes();
            }
            for (Stmt s : f.body()) {
                switch (s) {
                    case Open o -> scopes.push(new HashMap<>());
                    case Close c -> scopes.pop();
                    case Label l -> {
                        if (labels.put(l.name(), code.size()) != null) {
                            throw PtxSyntax.invalid(file, l.line(), "label " + l.name() + " is defined twice");
                        }
                    }
                    case Decl d -> declaration(d);
                    case Instr in -> instruction(in);
                }
            }
            code.add(new Insn(Insn.RET, null, -1, false, f.line(), "(end of " + f.name() + ")"));
            for (Object[] b : branches) {
                Insn in = (Insn) b[0];
                Integer target = labels.get((String) b[1]);
                if (target == null) {
                    throw PtxSyntax.invalid(file, in.line, "branch to " + b[1] + ", which is not a label of "
                            + f.name());
                }
                in.target = target;
            }
            long[] regs = new long[template.size()];
            for (int i = 0; i < regs.length; i++) {
                regs[i] = template.get(i);
            }
            return new PtxFunction(f.name(), f.entry(), code.toArray(Insn[]::new), regs, paramBytes, pOff, pSize,
                    rOff, rSize, (int) align(localBytes, 16), List.copyOf(image), kparamBytes, (int) ownShared,
                    cooperative, lockstep);
        }

        private int frameParam(String name, int bytes, int align, int line) {
            paramBytes = (int) align(paramBytes, Math.max(align, 1));
            int off = paramBytes;
            declare(name, new Sym(Sym.FPARAM, -1, bytes, off, name), line);
            paramBytes += bytes;
            return off;
        }

        private void declare(String name, Sym s, int line) {
            if (scopes.peek().put(name, s) != null) {
                throw PtxSyntax.invalid(file, line, name + " is declared twice in the same scope");
            }
        }

        Sym lookup(String name, int line) {
            for (Map<String, Sym> m : scopes) {
                Sym s = m.get(name);
                if (s != null) {
                    return s;
                }
            }
            Sym s = moduleSyms.get(name);
            if (s == null) {
                throw PtxSyntax.invalid(file, line, name + " is not declared");
            }
            if (s.kind() == Sym.SHARED && s.value() < 0) {
                return new Sym(Sym.SHARED, -1, 0, dynamicSharedBase, name);
            }
            return s;
        }

        private void declaration(Decl d) {
            String kind = d.tokens().get(0).text();
            switch (kind) {
                case ".reg" -> registers(d);
                case ".local" -> {
                    Var v = bodyVariable(d, "local");
                    localBytes = align(localBytes, v.align());
                    declare(v.name(), new Sym(Sym.LOCAL, -1, 0, localBytes, v.name()), d.line());
                    localBytes += v.bytes();
                }
                case ".shared" -> {
                    if (!f.entry()) {
                        throw PtxSyntax.unsupported(file, d.line(), ".shared variable inside a .func");
                    }
                    Var v = bodyVariable(d, "shared");
                    ownShared = align(ownShared, v.align());
                    declare(v.name(), new Sym(Sym.SHARED, -1, 0, moduleSharedBytes + ownShared, v.name()),
                            d.line());
                    ownShared += v.bytes();
                }
                case ".param" -> {
                    Var v = bodyVariable(d, "param");
                    frameParam(v.name(), (int) v.bytes(), v.align(), d.line());
                }
                default -> throw PtxSyntax.unsupported(file, d.line(), "directive " + kind + " in a function body");
            }
        }

        private void registers(Decl d) {
            List<Token> t = d.tokens();
            int i = 1;
            String type = null;
            for (; i < t.size() && t.get(i).text().startsWith("."); i++) {
                String m = t.get(i).text().substring(1);
                if (PtxTypes.isType(m)) {
                    type = m;
                } else if (m.equals("v2") || m.equals("v4")) {
                    throw PtxSyntax.unsupported(file, d.line(), "vector register .reg ." + m);
                } else {
                    throw PtxSyntax.unsupported(file, d.line(), ".reg qualifier ." + m);
                }
            }
            if (type == null) {
                throw PtxSyntax.invalid(file, d.line(), ".reg without a type");
            }
            int size = PtxTypes.size(type);
            while (i < t.size()) {
                String name = t.get(i++).text();
                if (i < t.size() && t.get(i).is("<")) {
                    int n = (int) PtxNumbers.integer(file, d.line(), t.get(i + 1).text());
                    if (!t.get(i + 2).is(">")) {
                        throw PtxSyntax.invalid(file, d.line(), "expected '>' in a register range");
                    }
                    i += 3;
                    for (int k = 0; k < n; k++) {
                        declare(name + k, new Sym(Sym.REG, newRegister(0), size, 0, name + k), d.line());
                    }
                } else {
                    declare(name, new Sym(Sym.REG, newRegister(0), size, 0, name), d.line());
                }
                if (i < t.size()) {
                    if (!t.get(i).is(",")) {
                        throw PtxSyntax.invalid(file, d.line(), "unexpected '" + t.get(i) + "' in .reg");
                    }
                    i++;
                }
            }
        }

        private int newRegister(long initial) {
            template.add(initial);
            return template.size() - 1;
        }

        /** A register holding {@code bits} from the start (constants are registers nobody writes). */
        int constant(long bits) {
            return constants.computeIfAbsent(bits, b -> newRegister(b));
        }

        /** A register nobody reads: where a sink ({@code _}) result goes. */
        int scratch() {
            return newRegister(0);
        }

        String fileName() {
            return file;
        }

        boolean isEntry() {
            return f.entry();
        }

        void markCooperative() {
            cooperative = true;
        }

        /** The function accesses volatile memory other lanes may share: its warps run in lock step. */
        void markLockstep() {
            cooperative = true;
            lockstep = true;
        }

        /** Adds an instruction; returns it. */
        Insn emit(Instr in, int kind, Step step) {
            int guard = -1;
            if (in.guard() != null) {
                Sym g = lookup(in.guard(), in.line());
                if (g.kind() != Sym.REG || g.size() != 1) {
                    throw PtxSyntax.invalid(file, in.line(), "guard " + in.guard() + " is not a predicate register");
                }
                guard = g.reg();
            }
            Insn insn = new Insn(kind, step, guard, in.negated(), in.line(), in.text());
            code.add(insn);
            return insn;
        }

        void branch(Instr in, String label) {
            Insn insn = emit(in, Insn.BRA, null);
            branches.add(new Object[] {insn, label});
        }

        /** A call: {@code call (ret…), func, (arg…);}. */
        void call(Instr in, List<Operand> ops) {
            List<Operand> rest = new ArrayList<>(ops);
            List<Operand> rets = List.of();
            if (!rest.isEmpty() && rest.get(0) instanceof Paren p) {
                rets = p.elements();
                rest.remove(0);
            }
            if (rest.isEmpty() || !(rest.get(0) instanceof Name callee)) {
                throw PtxSyntax.invalid(file, in.line(), "call without a function name");
            }
            Sym target = lookup(callee.name(), in.line());
            if (target.kind() != Sym.FUNC) {
                throw PtxSyntax.unsupported(file, in.line(), "indirect call through " + callee.name());
            }
            List<Operand> args = rest.size() > 1 && rest.get(1) instanceof Paren p ? p.elements() : List.of();
            if (rest.size() > 2 || (rest.size() == 2 && !(rest.get(1) instanceof Paren))) {
                throw PtxSyntax.unsupported(file, in.line(), "call with a prototype (indirect call)");
            }
            int[] argOffsets = new int[args.size()];
            for (int i = 0; i < args.size(); i++) {
                argOffsets[i] = paramSlot(args.get(i), in);
            }
            int[] retOffsets = new int[rets.size()];
            for (int i = 0; i < rets.size(); i++) {
                retOffsets[i] = paramSlot(rets.get(i), in);
            }
            Insn insn = emit(in, Insn.CALL, null);
            insn.call = new Insn.CallSite(callee.name(), argOffsets, retOffsets);
        }

        private int paramSlot(Operand o, Instr in) {
            if (o instanceof Name n) {
                Sym s = lookup(n.name(), in.line());
                if (s.kind() == Sym.FPARAM) {
                    return (int) s.value();
                }
            }
            throw PtxSyntax.unsupported(file, in.line(), "call argument " + o + " (only .param variables)");
        }

        private void instruction(Instr in) {
            ops.decode(in);
        }
    }
}
