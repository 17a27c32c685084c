package dev.polygpu.grcuda.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * A NIDL file, as {@code bindall(namespace, file, nidlFile)} reads it: scopes of signatures, each
 * <pre>
 * hostfuncs aa::bb {      C++ host functions of namespace aa::bb (the namespace is optional)
 *   inc(x: inout pointer sint32, n: sint32): sint32
 * }
 * chostfuncs { … }        host functions with C names
 * kernels aa::bb { … }    C++ kernels
 * ckernels { … }          kernels with C names
 * </pre>
 * A signature may span lines; {@code //} and {@code /* *}{@code /} comments are ignored. Immutable.
 */
public record NidlFile(List<Entry> entries) {

    /** One signature with what it binds and the line it starts on. */
    public record Entry(boolean kernel, NidlSignature signature, int line) {
    }

    public NidlFile {
        entries = List.copyOf(entries);
    }

    /** Thrown for text that is not a NIDL file: the message names the file, line and what was expected. */
    public static final class NidlException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NidlException(String message) {
            super(message);
        }
    }

    /**
     * Parses {@code text}; {@code fileName} names it in messages.
     *
     * @throws NidlException with the line of the problem
     */
    public static NidlFile parse(String text, String fileName) {
        return new Reader(stripComments(text, fileName), fileName).file();
    }

    /** The text with comments blanked out (newlines kept, so lines still count). */
    private static String stripComments(String text, String fileName) {
        StringBuilder sb = new StringBuilder(text);
        int i = 0;
        while (i < sb.length() - 1) {
            if (sb.charAt(i) == '/' && sb.charAt(i + 1) == '/') {
                while (i < sb.length() && sb.charAt(i) != '\n') {
                    sb.setCharAt(i++, ' ');
                }
            } else if (sb.charAt(i) == '/' && sb.charAt(i + 1) == '*') {
                int end = sb.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new NidlException(fileName + ":" + lineAt(text, i) + ": unclosed /* comment");
                }
                for (int j = i; j < end + 2; j++) {
                    if (sb.charAt(j) != '\n') {
                        sb.setCharAt(j, ' ');
                    }
                }
                i = end + 2;
            } else {
                i++;
            }
        }
        return sb.toString();
    }

    private static int lineAt(String text, int pos) {
        int line = 1;
        for (int i = 0; i < pos && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static final class Reader {
        private final String text;
        private final String fileName;
        private int pos;

        Reader(String text, String fileName) {
            this.text = text;
            this.fileName = fileName;
        }

        NidlFile file() {
            List<Entry> entries = new ArrayList<>();
            skipSpaces();
            while (pos < text.length()) {
                int at = pos;
                String scope = word();
                boolean cxx;
                boolean kernel;
                switch (scope == null ? "" : scope) {
                    case "hostfuncs" -> {
                        cxx = true;
                        kernel = false;
                    }
                    case "chostfuncs" -> {
                        cxx = false;
                        kernel = false;
                    }
                    case "kernels" -> {
                        cxx = true;
                        kernel = true;
                    }
                    case "ckernels" -> {
                        cxx = false;
                        kernel = true;
                    }
                    default -> throw error(at, "expected a scope (hostfuncs, chostfuncs, kernels or ckernels), got "
                            + (scope == null ? "'" + text.charAt(at) + "'" : "'" + scope + "'"));
                }
                skipSpaces();
                String namespace = "";
                if (pos < text.length() && text.charAt(pos) != '{') {
                    int nsAt = pos;
                    namespace = qualifiedName();
                    if (!cxx) {
                        throw error(nsAt, "a " + scope + " scope has C names, which have no namespace; use "
                                + (kernel ? "kernels" : "hostfuncs") + " " + namespace + " for C++ names");
                    }
                    skipSpaces();
                }
                expect('{', "expected '{' after '" + scope + (namespace.isEmpty() ? "" : " " + namespace) + "'");
                skipSpaces();
                while (pos < text.length() && text.charAt(pos) != '}') {
                    entries.add(entry(kernel, cxx, namespace));
                    skipSpaces();
                }
                expect('}', "expected '}' to close the " + scope + " scope that starts at line " + lineAt(text, at));
                skipSpaces();
            }
            return new NidlFile(entries);
        }

        private Entry entry(boolean kernel, boolean cxx, String namespace) {
            int start = pos;
            int open = text.indexOf('(', pos);
            int brace = text.indexOf('}', pos);
            if (open < 0 || (brace >= 0 && brace < open)) {
                throw error(start, "expected a signature such as 'f(x: in pointer float, n: sint32)'");
            }
            int depth = 0;
            int i = open;
            do {
                if (i >= text.length()) {
                    throw error(open, "unclosed '(' in the signature");
                }
                char c = text.charAt(i++);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            } while (depth > 0);
            pos = i;
            // an optional return type: ': type'
            int save = pos;
            skipSpaces();
            if (pos < text.length() && text.charAt(pos) == ':') {
                pos++;
                skipSpaces();
                if (word() == null) {
                    throw error(pos, "expected a return type after ':'");
                }
            } else {
                pos = save;
            }
            String signature = text.substring(start, pos).strip();
            String full = (cxx ? "cxx " : "") + (namespace.isEmpty() ? "" : namespace + "::") + signature;
            try {
                NidlSignature s = NidlSignature.parse(full);
                if (kernel && s.returns() != null) {
                    throw error(start, "kernel " + s.name() + " returns " + NidlSignature.typeName(s.returns())
                            + ", but kernels return nothing");
                }
                return new Entry(kernel, s, lineAt(text, start));
            } catch (SignatureException e) {
                throw new NidlException(fileName + ":" + lineAt(text, start) + ": " + e.getMessage());
            }
        }

        private String qualifiedName() {
            StringBuilder sb = new StringBuilder();
            do {
                String w = word();
                if (w == null) {
                    throw error(pos, "expected a namespace name");
                }
                sb.append(sb.isEmpty() ? "" : "::").append(w);
            } while (text.startsWith("::", pos) && (pos += 2) > 0);
            return sb.toString();
        }

        private String word() {
            int start = pos;
            pos = NidlSignature.identifierEnd(text, pos);
            return start == pos ? null : text.substring(start, pos);
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private void expect(char c, String problem) {
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw error(pos, problem);
            }
            pos++;
        }

        private NidlException error(int at, String problem) {
            return new NidlException(fileName + ":" + lineAt(text, at) + ": " + problem);
        }
    }
}
