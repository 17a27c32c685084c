package dev.polygpu.device.cpu.kernel.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.polygpu.device.cpu.kernel.ast.CType;
import dev.polygpu.device.cpu.kernel.ast.CType.Prim;
import dev.polygpu.device.cpu.kernel.ast.Expr;
import dev.polygpu.device.cpu.kernel.ast.Function;
import dev.polygpu.device.cpu.kernel.ast.Intrinsic;
import dev.polygpu.device.cpu.kernel.ast.Stmt;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Types of expressions, the conversions inserted, literal typing and intrinsic variants. */
class ExpressionTypingTest {
    private static final String DECLS = "int i; unsigned u; long l; unsigned long ul; long long ll; "
            + "unsigned long long ull; char c; unsigned char uc; short s; unsigned short us; bool b; float f; "
            + "double d; float *p; float *q; int a[4]; float m[4][4]; const int N = 16; size_t z;";

    static Function kernel(String body) {
        Function k = FrontEnd.compile("__global__ void t(float* gp, int n) {\n" + body + "\n}", "t.cu").kernel("t");
        TreeChecker.check(k);
        return k;
    }

    /** The typed tree of {@code expr} with the standard test variables in scope. */
    static Expr typed(String expr) {
        Function k = kernel(DECLS + "\n" + expr + ";");
        List<Stmt> st = k.body().statements();
        return ((Stmt.ExprStmt) st.getLast()).expr();
    }

    static Stream<Arguments> types() {
        return Stream.of(
                Arguments.of("i < u", "bool", "unsigned int"),
                Arguments.of("c + c", "int", "int"),
                Arguments.of("uc * s", "int", "int"),
                Arguments.of("b + b", "int", "int"),
                Arguments.of("1.0f * 2", "float", "float"),
                Arguments.of("1.0 * 2", "double", "double"),
                Arguments.of("f + d", "double", "double"),
                Arguments.of("u + l", "long", "long"),
                Arguments.of("ul + ll", "unsigned long long", "unsigned long long"),
                Arguments.of("l + ll", "long long", "long long"),
                Arguments.of("ul + l", "unsigned long", "unsigned long"),
                Arguments.of("u + i", "unsigned int", "unsigned int"),
                Arguments.of("i + z", "unsigned long", "unsigned long"),
                Arguments.of("us + u", "unsigned int", "unsigned int"),
                Arguments.of("f == i", "bool", "float"),
                Arguments.of("i % 3", "int", "int"),
                Arguments.of("u & 0xff", "unsigned int", "unsigned int"),
                Arguments.of("1 << 40L", "int", "int"),
                Arguments.of("ull >> i", "unsigned long long", "unsigned long long"),
                Arguments.of("c << c", "int", "int"),
                Arguments.of("p == q", "bool", "float*"),
                Arguments.of("p != 0", "bool", "float*"),
                Arguments.of("p == nullptr", "bool", "float*"),
                Arguments.of("p && i", "bool", null),
                Arguments.of("i ? f : d", "double", null),
                Arguments.of("i ? p : 0", "float*", null),
                Arguments.of("-c", "int", null),
                Arguments.of("~us", "int", null),
                Arguments.of("!f", "bool", null),
                Arguments.of("sizeof(double)", "unsigned long", null),
                Arguments.of("sizeof a", "unsigned long", null),
                Arguments.of("(float)i", "float", null),
                Arguments.of("static_cast<unsigned>(f)", "unsigned int", null),
                Arguments.of("float(i)", "float", null),
                Arguments.of("i = f", "int", null),
                Arguments.of("f += i", "float", null),
                Arguments.of("p + i", "float*", null),
                Arguments.of("i + p", "float*", null),
                Arguments.of("p - q", "long", null),
                Arguments.of("a[i]", "int", null),
                Arguments.of("m[1][2]", "float", null),
                Arguments.of("&a[1]", "int*", null),
                Arguments.of("*p", "float", null),
                Arguments.of("i++", "int", null),
                Arguments.of("threadIdx.x", "unsigned int", null),
                Arguments.of("warpSize", "int", null),
                Arguments.of("blockIdx.x * blockDim.x + threadIdx.x", "unsigned int", "unsigned int"),
                Arguments.of("(i, f)", "float", null),
                Arguments.of("N * 2", "int", "int"),
                Arguments.of("'a'", "char", null),
                Arguments.of("true", "bool", null),
                Arguments.of("FLT_MAX", "float", null),
                Arguments.of("DBL_MAX", "double", null),
                Arguments.of("UINT_MAX", "unsigned int", null),
                Arguments.of("INT_MIN", "int", "int"),
                Arguments.of("LLONG_MAX", "long long", null),
                Arguments.of("INFINITY", "float", null),
                Arguments.of("M_PI", "double", null),
                Arguments.of("CUDART_PI_F", "float", null));
    }

    @ParameterizedTest(name = "{0} : {1}")
    @MethodSource("types")
    void expressionTypes(String expr, String type, String operandType) {
        Expr e = typed(expr);
        assertEquals(type, e.type().toString(), expr);
        if (operandType != null) {
            Expr.Binary b = assertInstanceOf(Expr.Binary.class, e);
            assertEquals(operandType, b.operandType().toString(), expr);
        }
    }

    static Stream<Arguments> literals() {
        return Stream.of(
                Arguments.of("0", "int", 0L), Arguments.of("2147483647", "int", 2147483647L),
                Arguments.of("2147483648", "long", 2147483648L), Arguments.of("0x7fffffff", "int", 0x7fffffffL),
                Arguments.of("0x80000000", "unsigned int", 0x80000000L),
                Arguments.of("0xffffffffffffffff", "unsigned long", -1L), Arguments.of("10u", "unsigned int", 10L),
                Arguments.of("10U", "unsigned int", 10L), Arguments.of("10l", "long", 10L),
                Arguments.of("10ul", "unsigned long", 10L), Arguments.of("10LU", "unsigned long", 10L),
                Arguments.of("10ll", "long long", 10L), Arguments.of("10ULL", "unsigned long long", 10L),
                Arguments.of("10llu", "unsigned long long", 10L), Arguments.of("0b101", "int", 5L),
                Arguments.of("017", "int", 15L), Arguments.of("4294967296u", "unsigned long", 4294967296L),
                Arguments.of("'\\n'", "char", 10L), Arguments.of("'\\x41'", "char", 65L), Arguments.of("'\\0'", "char", 0L),
                Arguments.of("'\\xff'", "char", -1L));
    }

    @ParameterizedTest(name = "{0} : {1}")
    @MethodSource("literals")
    void integerLiterals(String lit, String type, long value) {
        Expr.IntConst c = assertInstanceOf(Expr.IntConst.class, typed(lit));
        assertEquals(type, c.type().toString());
        assertEquals(value, c.value());
    }

    static Stream<Arguments> floats() {
        return Stream.of(Arguments.of("1.0", "double", 1.0), Arguments.of("1.f", "float", 1.0),
                Arguments.of(".5f", "float", 0.5), Arguments.of("1e-3", "double", 1e-3),
                Arguments.of("2.5e+3F", "float", 2500.0), Arguments.of("0.1f", "float", (double) 0.1f),
                Arguments.of("3.", "double", 3.0));
    }

    @ParameterizedTest(name = "{0} : {1}")
    @MethodSource("floats")
    void floatLiterals(String lit, String type, double value) {
        Expr.FloatConst c = assertInstanceOf(Expr.FloatConst.class, typed(lit));
        assertEquals(type, c.type().toString());
        assertEquals(value, c.value());
    }

    @Test
    void castsAreInserted() {
        Expr.Binary b = (Expr.Binary) typed("i < u");
        Expr.Cast left = assertInstanceOf(Expr.Cast.class, b.left());
        assertEquals(Prim.UINT, left.type());
        assertInstanceOf(Expr.VarRef.class, b.right());
        Expr.Binary sh = (Expr.Binary) typed("1 << 40L");
        assertEquals(Prim.LONG, sh.right().type());
        Expr.Assign a = (Expr.Assign) typed("i = f");
        assertEquals(Prim.INT, assertInstanceOf(Expr.Cast.class, a.value()).type());
        Expr.CompoundAssign ca = (Expr.CompoundAssign) typed("i += f");
        assertEquals(Prim.FLOAT, ca.operandType());
        assertEquals(Prim.INT, ca.type());
        Expr.CompoundAssign pa = (Expr.CompoundAssign) typed("p += i");
        assertEquals(new CType.Pointer(Prim.FLOAT), pa.operandType());
        assertEquals(Prim.LONG, pa.value().type());
        Expr.CompoundAssign shc = (Expr.CompoundAssign) typed("c <<= ull");
        assertEquals(Prim.INT, shc.operandType());
        Expr.Binary np = (Expr.Binary) typed("p != 0");
        assertEquals(new CType.Pointer(Prim.FLOAT), np.right().type());
    }

    @Test
    void subscriptsBecomePointerArithmetic() {
        Expr.Deref d = assertInstanceOf(Expr.Deref.class, typed("a[i]"));
        Expr.PtrAdd pa = assertInstanceOf(Expr.PtrAdd.class, d.pointer());
        assertInstanceOf(Expr.Decay.class, pa.pointer());
        assertEquals(Prim.LONG, pa.index().type());
        Expr.Deref m = assertInstanceOf(Expr.Deref.class, typed("m[1][2]"));
        Expr.PtrAdd inner = (Expr.PtrAdd) m.pointer();
        Expr.Decay row = assertInstanceOf(Expr.Decay.class, inner.pointer());
        assertEquals(new CType.Array(Prim.FLOAT, 4), row.array().type());
        Expr.PtrAdd minus = assertInstanceOf(Expr.PtrAdd.class, typed("p - 3"));
        assertTrue(minus.negate());
    }

    @Test
    void addressTakenOnlyForScalarVariables() {
        Function k = kernel("int x = 1; int arr[4]; int* px = &x; int* pa = &arr[1]; atomicAdd(&x, 1);");
        List<Stmt> st = k.body().statements();
        assertTrue(((Stmt.VarDecl) st.get(0)).var().addressTaken);
        assertTrue(!((Stmt.VarDecl) st.get(1)).var().addressTaken);
    }

    static Stream<Arguments> intrinsics() {
        return Stream.of(
                Arguments.of("sqrtf(i)", Intrinsic.SQRT, "float"), Arguments.of("sqrt(f)", Intrinsic.SQRT, "float"),
                Arguments.of("sqrt(d)", Intrinsic.SQRT, "double"), Arguments.of("sqrt(i)", Intrinsic.SQRT, "double"),
                Arguments.of("__expf(f)", Intrinsic.EXP, "float"), Arguments.of("expf(d)", Intrinsic.EXP, "float"),
                Arguments.of("pow(f, 2.0f)", Intrinsic.POW, "float"), Arguments.of("pow(f, d)", Intrinsic.POW, "double"),
                Arguments.of("fabs(f)", Intrinsic.FABS, "float"), Arguments.of("__fsqrt_rn(f)", Intrinsic.SQRT, "float"),
                Arguments.of("fmaf(f, f, f)", Intrinsic.FMA, "float"), Arguments.of("__fmaf_rn(f, f, f)", Intrinsic.FMA, "float"),
                Arguments.of("min(i, u)", Intrinsic.MIN, "unsigned int"), Arguments.of("max(f, i)", Intrinsic.MAX, "float"),
                Arguments.of("min(i, i)", Intrinsic.MIN, "int"), Arguments.of("abs(f)", Intrinsic.ABS, "float"),
                Arguments.of("abs(c)", Intrinsic.ABS, "int"), Arguments.of("isnan(f)", Intrinsic.ISNAN, "int"),
                Arguments.of("__saturatef(f)", Intrinsic.SATURATE, "float"), Arguments.of("__fdividef(f, f)", Intrinsic.FDIVIDE, "float"),
                Arguments.of("__popc(u)", Intrinsic.POPC, "int"), Arguments.of("__popcll(ull)", Intrinsic.POPCLL, "int"),
                Arguments.of("__brev(u)", Intrinsic.BREV, "unsigned int"), Arguments.of("__clz(i)", Intrinsic.CLZ, "int"),
                Arguments.of("atomicAdd(p, 1)", Intrinsic.ATOMIC_ADD, "float"),
                Arguments.of("atomicAdd(&i, 1)", Intrinsic.ATOMIC_ADD, "int"),
                Arguments.of("atomicAdd_block(&u, 1)", Intrinsic.ATOMIC_ADD, "unsigned int"),
                Arguments.of("atomicCAS(&ull, 1, 2)", Intrinsic.ATOMIC_CAS, "unsigned long long"),
                Arguments.of("atomicInc(&u, 10)", Intrinsic.ATOMIC_INC, "unsigned int"),
                Arguments.of("atomicMax(&ll, 3)", Intrinsic.ATOMIC_MAX, "long long"),
                Arguments.of("__shfl_down_sync(0xffffffff, f, 1)", Intrinsic.SHFL_DOWN, "float"),
                Arguments.of("__shfl_xor_sync(0xffffffff, d, 1, 16)", Intrinsic.SHFL_XOR, "double"),
                Arguments.of("__ballot_sync(0xffffffff, i > 0)", Intrinsic.BALLOT, "unsigned int"),
                Arguments.of("__any_sync(0xffffffff, i)", Intrinsic.ANY, "int"),
                Arguments.of("__activemask()", Intrinsic.ACTIVEMASK, "unsigned int"),
                Arguments.of("__syncwarp()", Intrinsic.SYNCWARP, "void"),
                Arguments.of("__syncthreads_count(i > 0)", Intrinsic.SYNCTHREADS_COUNT, "int"),
                Arguments.of("__syncthreads()", Intrinsic.SYNCTHREADS, "void"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("intrinsics")
    void intrinsicVariants(String expr, Intrinsic intrinsic, String type) {
        Expr.IntrinsicCall c = assertInstanceOf(Expr.IntrinsicCall.class, typed(expr));
        assertEquals(intrinsic, c.intrinsic());
        assertEquals(type, c.type().toString());
    }

    @Test
    void intrinsicArgumentConventions() {
        Expr.IntrinsicCall sh = (Expr.IntrinsicCall) typed("__shfl_sync(0xffffffff, i, 0)");
        assertEquals(4, sh.args().size());
        assertEquals(Prim.UINT, sh.args().get(0).type());
        assertEquals(32L, ((Expr.IntConst) sh.args().get(3)).value());
        Expr.IntrinsicCall sw = (Expr.IntrinsicCall) typed("__syncwarp()");
        assertEquals(1, sw.args().size());
        Expr.IntrinsicCall at = (Expr.IntrinsicCall) typed("atomicAdd(p, 1)");
        assertEquals(Prim.FLOAT, at.args().get(1).type());
        Expr.BitCast bc = assertInstanceOf(Expr.BitCast.class, typed("__float_as_int(f)"));
        assertEquals(Prim.INT, bc.type());
        assertEquals(Prim.FLOAT, bc.operand().type());
        assertEquals(Prim.DOUBLE, ((Expr.BitCast) typed("__longlong_as_double(ll)")).type());
    }

    @Test
    void constLocalsAndFileConstantsAreConstants() {
        Function k = FrontEnd.compile("""
                const int TILE = 8;
                static constexpr float SCALE = 2.0f;
                #define HALF (TILE / 2)
                __global__ void t(float* x) {
                    const int n = TILE * 2;
                    __shared__ float buf[n][HALF];
                    float r[HALF] = {1, 2};
                    int idx[] = {1, 2, 3};
                    float g[2][2] = {{1}, {3, 4}};
                    x[0] = buf[0][0] * SCALE + r[0] + idx[2] + g[1][0];
                }""", "t.cu").kernel("t");
        TreeChecker.check(k);
        List<Stmt> st = k.body().statements();
        Stmt.VarDecl buf = (Stmt.VarDecl) st.get(1);
        assertEquals(new CType.Array(new CType.Array(Prim.FLOAT, 4), 16), buf.var().type);
        assertEquals(dev.polygpu.device.cpu.kernel.ast.Var.Kind.SHARED, buf.var().kind);
        assertEquals(2, ((Stmt.VarDecl) st.get(2)).arrayInit().size());
        assertEquals(new CType.Array(Prim.INT, 3), ((Stmt.VarDecl) st.get(3)).var().type);
        assertEquals(4, ((Stmt.VarDecl) st.get(4)).arrayInit().size());
    }

    @Test
    void switchStatement() {
        Function k = kernel("""
                unsigned char c = 3; int r = 0;
                switch (c) { case 1: case 2: r = 1; break; case 'a': { r = 2; } default: r = 3; }
                """);
        Stmt.Switch sw = (Stmt.Switch) k.body().statements().get(2);
        assertEquals(Prim.INT, sw.selector().type());
        assertEquals(4, sw.cases().size());
        assertEquals(1L, sw.cases().get(0).value());
        assertTrue(sw.cases().get(0).statements().isEmpty());
        assertEquals(97L, sw.cases().get(2).value());
        assertEquals(null, sw.cases().get(3).value());
    }

    @Test
    void declarationsWithSeveralDeclaratorsAndAuto() {
        Function k = kernel("int a = 1, *p2, b[4]; auto x = 1.5f; unsigned long int y = 0; long unsigned w = 1; "
                + "extern __shared__ float dyn[]; __shared__ int cnt;");
        List<Stmt> st = k.body().statements();
        assertEquals(Prim.INT, ((Stmt.VarDecl) st.get(0)).var().type);
        assertEquals(new CType.Pointer(Prim.INT), ((Stmt.VarDecl) st.get(1)).var().type);
        assertEquals(new CType.Array(Prim.INT, 4), ((Stmt.VarDecl) st.get(2)).var().type);
        assertEquals(Prim.FLOAT, ((Stmt.VarDecl) st.get(3)).var().type);
        assertEquals(Prim.ULONG, ((Stmt.VarDecl) st.get(4)).var().type);
        assertEquals(Prim.ULONG, ((Stmt.VarDecl) st.get(5)).var().type);
        Stmt.VarDecl dyn = (Stmt.VarDecl) st.get(6);
        assertEquals(new CType.Array(Prim.FLOAT, -1), dyn.var().type);
        assertEquals(dev.polygpu.device.cpu.kernel.ast.Var.Kind.EXTERN_SHARED, dyn.var().kind);
        assertEquals(dev.polygpu.device.cpu.kernel.ast.Var.Kind.SHARED, ((Stmt.VarDecl) st.get(7)).var().kind);
        // ids are unique and params come first
        assertEquals(0, k.params.get(0).id);
        assertEquals(2, ((Stmt.VarDecl) st.get(0)).var().id);
    }
}
