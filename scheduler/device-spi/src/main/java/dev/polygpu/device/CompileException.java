package dev.polygpu.device;

import java.util.List;

/**
 * Kernel source that does not compile. {@link #diagnostics()} lists each problem with its line and column
 * in the user's source; the message shows them as a compiler would ({@code file:line:col: error: …}).
 */
public class CompileException extends DeviceException {
    private static final long serialVersionUID = 1L;
    private final transient List<Diagnostic> diagnostics;

    /** One problem in the source; line and column are 1-based (0 where the compiler cannot tell). */
    public record Diagnostic(String file, int line, int column, String message, String sourceLine) {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            sb.append(file).append(':').append(line).append(':').append(column).append(": error: ").append(message);
            if (sourceLine != null && line > 0) {
                sb.append('\n').append("    ").append(sourceLine);
                if (column > 0) {
                    sb.append('\n').append("    ");
                    for (int i = 1; i < column && i - 1 < sourceLine.length(); i++) {
                        sb.append(sourceLine.charAt(i - 1) == '\t' ? '\t' : ' ');
                    }
                    sb.append('^');
                }
            }
            return sb.toString();
        }
    }

    public CompileException(List<Diagnostic> diagnostics) {
        super(CudaError.COMPILATION_ERROR, format(diagnostics));
        this.diagnostics = List.copyOf(diagnostics);
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    private static String format(List<Diagnostic> diagnostics) {
        StringBuilder sb = new StringBuilder("kernel source does not compile:");
        for (Diagnostic d : diagnostics) {
            sb.append('\n').append(d);
        }
        return sb.toString();
    }
}
