package dev.polygpu.device.cpu.kernel.front;

import dev.polygpu.device.cpu.kernel.ast.Pos;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits source text into preprocessing tokens. Comments and backslash-newline splices become whitespace;
 * line and column stay those of the physical source so that diagnostics point at what the user wrote.
 */
final class Lexer {
    private static final String[] PUNCTS = {
        ">>=", "<<=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
        "/=", "%=", "&=", "|=", "^=", "##", "::",
    };

    private final String src;
    private final Diagnostics diags;
    private int i;
    private int line = 1;
    private int lineStart;

    Lexer(String src, Diagnostics diags) {
        this.src = src;
        this.diags = diags;
        // a UTF-8 byte order mark (editors on Windows write one) is not part of the text; columns start after it
        if (src.startsWith("\uFEFF")) {
            i = 1;
            lineStart = 1;
        }
    }

    List<Token> tokens() {
        List<Token> out = new ArrayList<>();
        boolean bol = true;
        boolean space = false;
        while (true) {
            // Skip whitespace, comments and splices, noting line starts.
            while (i < src.length()) {
                char c = src.charAt(i);
                if (c == '\n') {
                    newline(i + 1);
                    bol = true;
                    space = true;
                } else if (c == '\\' && peekNewline(i + 1) > 0) {
                    newline(i + peekNewline(i + 1));
                    space = true;
                    continue;
                } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\u000b') {
                    i++;
                    space = true;
                } else if (c == '/' && at(i + 1) == '/') {
                    while (i < src.length() && src.charAt(i) != '\n') {
                        i++;
                    }
                    space = true;
                } else if (c == '/' && at(i + 1) == '*') {
                    int startLine = line;
                    int startCol = i - lineStart + 1;
                    i += 2;
                    while (i < src.length() && !(src.charAt(i) == '*' && at(i + 1) == '/')) {
                        if (src.charAt(i) == '\n') {
                            newline(i + 1);
                        } else {
                            i++;
                        }
                    }
                    if (i >= src.length()) {
                        diags.error(new Pos(startLine, startCol), "unterminated /* comment");
                    } else {
                        i += 2;
                    }
                    space = true;
                } else {
                    break;
                }
            }
            int col = i - lineStart + 1;
            if (i >= src.length()) {
                out.add(new Token(Token.Kind.EOF, "", line, col, true, true, Set.of()));
                return out;
            }
            int start = i;
            char c = src.charAt(i);
            Token.Kind kind;
            if (Character.isLetter(c) || c == '_' || c == '$') {
                while (i < src.length() && (Character.isLetterOrDigit(src.charAt(i)) || src.charAt(i) == '_'
                        || src.charAt(i) == '$')) {
                    i++;
                }
                kind = Token.Kind.IDENT;
            } else if (Character.isDigit(c) || (c == '.' && Character.isDigit(at(i + 1)))) {
                i++;
                while (i < src.length()) {
                    char d = src.charAt(i);
                    if ((d == '+' || d == '-') && "eEpP".indexOf(src.charAt(i - 1)) >= 0
                            && !src.substring(start, i).matches("0[xX].*[eE]")) {
                        i++;
                    } else if (Character.isLetterOrDigit(d) || d == '.' || d == '_') {
                        i++;
                    } else {
                        break;
                    }
                }
                kind = Token.Kind.NUMBER;
            } else if (c == '\'' || c == '"') {
                i++;
                while (i < src.length() && src.charAt(i) != c && src.charAt(i) != '\n') {
                    i += src.charAt(i) == '\\' ? 2 : 1;
                }
                if (i >= src.length() || src.charAt(i) != c) {
                    diags.error(new Pos(line, col), c == '"' ? "missing terminating '\"' character"
                            : "missing terminating ' character");
                } else {
                    i++;
                }
                kind = c == '"' ? Token.Kind.STRING : Token.Kind.CHAR;
            } else {
                kind = Token.Kind.PUNCT;
                int len = 1;
                for (String p : PUNCTS) {
                    if (src.startsWith(p, i)) {
                        len = p.length();
                        break;
                    }
                }
                i += len;
            }
            out.add(new Token(kind, src.substring(start, Math.min(i, src.length())), line, col, bol, space,
                    Set.of()));
            bol = false;
            space = false;
        }
    }

    private char at(int k) {
        return k < src.length() ? src.charAt(k) : '\0';
    }

    /** Length of a newline (after optional trailing spaces) at k, 0 if none: "\\ \n" is a splice too. */
    private int peekNewline(int k) {
        int j = k;
        while (j < src.length() && (src.charAt(j) == ' ' || src.charAt(j) == '\t' || src.charAt(j) == '\r')) {
            j++;
        }
        return j < src.length() && src.charAt(j) == '\n' ? j - k + 1 + (k - i) : 0;
    }

    private void newline(int next) {
        i = next;
        line++;
        lineStart = next;
    }
}
