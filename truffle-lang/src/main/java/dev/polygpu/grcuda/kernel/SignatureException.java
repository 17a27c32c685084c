package dev.polygpu.grcuda.kernel;

/**
 * A kernel signature that does not parse. The message names the 1-based column, what was expected there, and
 * repeats the signature: {@code signature error at column 10: expected ':' after parameter name 'x' in "…"}.
 */
public final class SignatureException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int column;

    SignatureException(int column, String problem, String signature) {
        super("signature error at column " + column + ": " + problem + " in \"" + signature + "\"");
        this.column = column;
    }

    /** 1-based column of the problem in the signature text. */
    public int column() {
        return column;
    }
}
