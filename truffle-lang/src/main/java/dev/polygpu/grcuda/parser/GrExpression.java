package dev.polygpu.grcuda.parser;

import java.util.List;

/**
 * The parsed form of a grcuda source: a name ({@code CU}, {@code DeviceArray}), a qualified name
 * ({@code BLAS::cublasSaxpy}), an array expression ({@code float[10][20]}) or a call with constant arguments
 * ({@code DeviceArray("float", 10 * 100)}).
 */
public sealed interface GrExpression {

    /** {@code a::b::c}: {@code path} has one element for a plain name. */
    record Name(List<String> path) implements GrExpression {}

    /** {@code type[d1][d2]…} */
    record ArrayExpr(String elementType, List<Long> dimensions) implements GrExpression {}

    /** {@code f(args)}: each argument is a String, a Long, or a Name. */
    record Call(Name function, List<Object> args) implements GrExpression {}
}
