package dev.polygpu.device.cpu.oracle.gen;

import java.util.List;

/**
 * Prints a {@link Program} as CUDA C. Every file-scope name is written with the case prefix in place of
 * {@code @}, so cases printed with different prefixes can share one translation unit.
 */
public final class Printer {
    private static final String INDENT = "    ";
    private final StringBuilder out = new StringBuilder();

    private Printer() {
    }

    /** The source of {@code p} with {@code prefix} before every file-scope name; the kernel is {@code prefix + "kernel"}. */
    public static String print(Program p, String prefix) {
        Printer pr = new Printer();
        pr.program(p);
        return pr.out.toString().replace("@", prefix);
    }

    /** The printed text of one expression, with {@code @} left in. */
    static String expr(Expr e) {
        return switch (e.kind()) {
            case LIT, VAR -> e.text();
            case OP -> expand(e.text(), e.args());
        };
    }

    /** {@code template} with {@code $i} replaced by the printed argument {@code i}. */
    static String expand(String template, List<Expr> args) {
        StringBuilder sb = new StringBuilder(template.length() + 32);
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '$' && i + 1 < template.length() && Character.isDigit(template.charAt(i + 1))) {
                int j = i + 1;
                while (j < template.length() && Character.isDigit(template.charAt(j))) {
                    j++;
                }
                int k = Integer.parseInt(template.substring(i + 1, j));
                if (k >= args.size()) {
                    throw new IllegalStateException("template '" + template + "' uses $" + k + " but has "
                            + args.size() + " arguments");
                }
                sb.append(expr(args.get(k)));
                i = j - 1;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private void program(Program p) {
        for (Program.Item it : p.items()) {
            if (it.body() == null) {
                out.append(it.text()).append('\n');
            } else {
                out.append(it.text()).append(" {\n");
                block(it.body(), 1);
                out.append("}\n");
            }
        }
        out.append("extern \"C\" __global__ void @kernel(");
        for (int i = 0; i < p.params().size(); i++) {
            Var v = p.params().get(i).var();
            out.append(i == 0 ? "" : ", ").append(Ty.declare(v.type, v.name));
        }
        out.append(") {\n");
        block(p.body(), 1);
        out.append("}\n");
    }

    private void block(Stmt.Block b, int depth) {
        for (Stmt s : b.stmts()) {
            stmt(s, depth);
        }
    }

    private void line(int depth, String text) {
        for (String l : text.split("\n", -1)) {
            out.append(INDENT.repeat(depth)).append(l).append('\n');
        }
    }

    private void stmt(Stmt s, int depth) {
        switch (s) {
            case Stmt.Decl d -> line(depth, decl(d));
            case Stmt.Simple x -> line(depth, expand(x.template(), x.args()));
            case Stmt.If f -> {
                line(depth, "if (" + expr(f.cond()) + ") {");
                block(f.then(), depth + 1);
                if (f.els() != null) {
                    line(depth, "} else {");
                    block(f.els(), depth + 1);
                }
                line(depth, "}");
            }
            case Stmt.Loop l -> {
                String header = expand(l.header(), l.args());
                if (l.kind() == Stmt.LoopKind.DO) {
                    line(depth, "do {");
                    block(l.body(), depth + 1);
                    line(depth, "} " + header);
                } else {
                    line(depth, header + " {");
                    block(l.body(), depth + 1);
                    line(depth, "}");
                }
            }
            case Stmt.Switch w -> {
                line(depth, "switch (" + expr(w.sel()) + ") {");
                for (Stmt.Case c : w.cases()) {
                    StringBuilder labels = new StringBuilder();
                    for (int v : c.labels()) {
                        labels.append(labels.isEmpty() ? "" : " ").append("case ").append(v).append(':');
                    }
                    if (c.isDefault()) {
                        labels.append(labels.isEmpty() ? "" : " ").append("default:");
                    }
                    line(depth, labels + " {");
                    block(c.body(), depth + 1);
                    line(depth, "}");
                }
                line(depth, "}");
            }
            case Stmt.Jump j -> line(depth, j.isBreak() ? "break;" : "continue;");
            case Stmt.Return r -> line(depth, r.value() == null ? "return;" : "return " + expr(r.value()) + ";");
            case Stmt.Scope sc -> {
                line(depth, "{");
                block(sc.body(), depth + 1);
                line(depth, "}");
            }
        }
    }

    private static String decl(Stmt.Decl d) {
        if (d.quals() == null) {
            return expr(d.init());
        }
        String head = d.quals() + Ty.declare(d.var().type, d.var().ref());
        return switch (d.form()) {
            case EXPR -> head + " = " + expr(d.init()) + ";";
            case LIST -> head + " = " + expr(d.init()) + ";";
            case VALUE -> head + "{};";
            case NONE -> head + ";";
            case AFTER -> head + ";\n" + expr(d.init());
        };
    }
}
