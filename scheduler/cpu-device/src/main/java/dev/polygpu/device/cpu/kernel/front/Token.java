package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.Set;

/**
 * A preprocessing token. Tokens made by macro expansion carry the position of the invocation in the user's
 * source, and the names of the macros that must not expand again inside them (the "hide set").
 */
final class Token {
    enum Kind { IDENT, NUMBER, CHAR, STRING, PUNCT, EOF }

    final Kind kind;
    final String text;
    final int line;
    final int col;
    /** First token of a source line: a {@code #} here starts a directive. */
    final boolean bol;
    /** Whitespace precedes the token (kept for stringizing). */
    final boolean space;
    final Set<String> hide;

    Token(Kind kind, String text, int line, int col, boolean bol, boolean space, Set<String> hide) {
        this.kind = kind;
        this.text = text;
        this.line = line;
        this.col = col;
        this.bol = bol;
        this.space = space;
        this.hide = hide;
    }

    Pos pos() {
        return new Pos(line, col);
    }

    boolean is(String s) {
        return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(s);
    }

    /** This token as produced by an expansion at {@code at}, hiding {@code hidden}. */
    Token expanded(Token at, Set<String> hidden) {
        return new Token(kind, text, at.line, at.col, false, space, hidden);
    }

    @Override
    public String toString() {
        return text;
    }
}
