package dev.polygpu.device.cpu.kernel.codegen;

import dev.polygpu.device.cpu.kernel.ast.CType;
import java.lang.constant.ClassDesc;
import java.util.Optional;

/**
 * Whether generated kernels may use the JDK's Vector API ({@code jdk.incubator.vector}) and how many lanes of each
 * type a vector holds. The module is an incubator one: the JVM resolves it only when started with
 * {@code --add-modules jdk.incubator.vector} (which {@code ./polygpu} and the build's tests do), and it cannot be
 * added to a running JVM. Without it, or with the system property {@value #PROPERTY} set to {@code off}, every
 * kernel keeps the scalar thread loop. Lanes also need the JIT to turn vector operations into SIMD instructions,
 * which C2 does for the preferred species; a preferred vector of one lane means the CPU has none worth using.
 */
final class VectorApi {
    static final String MODULE = "jdk.incubator.vector";
    /** System property: {@code off} keeps every kernel scalar (for comparing, or ruling the lanes out). */
    static final String PROPERTY = "polygpu.cpu.vectorLanes";

    static final ClassDesc FLOAT_VECTOR = ClassDesc.of(MODULE, "FloatVector");
    static final ClassDesc DOUBLE_VECTOR = ClassDesc.of(MODULE, "DoubleVector");
    static final ClassDesc INT_VECTOR = ClassDesc.of(MODULE, "IntVector");
    static final ClassDesc ASSOCIATIVE = ClassDesc.of(MODULE + ".VectorOperators$Associative");
    static final ClassDesc BINARY = ClassDesc.of(MODULE + ".VectorOperators$Binary");
    static final ClassDesc VECTOR = ClassDesc.of(MODULE, "Vector");
    static final ClassDesc SPECIES = ClassDesc.of(MODULE, "VectorSpecies");
    static final ClassDesc MASK = ClassDesc.of(MODULE, "VectorMask");
    static final ClassDesc OPERATORS = ClassDesc.of(MODULE, "VectorOperators");
    static final ClassDesc COMPARISON = ClassDesc.of(MODULE + ".VectorOperators$Comparison");
    static final ClassDesc BYTE_ORDER = ClassDesc.of("java.nio.ByteOrder");

    private static final int FLOAT_LANES = preferredLanes("FloatVector");
    private static final int DOUBLE_LANES = preferredLanes("DoubleVector");
    private static final int INT_LANES = preferredLanes("IntVector");

    private VectorApi() {
    }

    /** Lanes of a vector of {@code float}, {@code double} or {@code int}; 0 when kernels may not use the Vector API. */
    static int lanes(CType.Prim lane) {
        return switch (lane) {
            case FLOAT -> FLOAT_LANES;
            case DOUBLE -> DOUBLE_LANES;
            case INT -> INT_LANES;
            default -> 0;
        };
    }

    /** The Vector API class for lanes of {@code lane}. */
    static ClassDesc vectorClass(CType.Prim lane) {
        return switch (lane) {
            case FLOAT -> FLOAT_VECTOR;
            case DOUBLE -> DOUBLE_VECTOR;
            default -> INT_VECTOR;
        };
    }

    private static int preferredLanes(String className) {
        if ("off".equals(System.getProperty(PROPERTY))) {
            return 0;
        }
        Optional<Module> module = ModuleLayer.boot().findModule(MODULE);
        if (module.isEmpty() || !VectorApi.class.getModule().canRead(module.get())) {
            return 0;
        }
        try {
            Class<?> vectorClass = Class.forName(MODULE + "." + className);
            Object species = vectorClass.getField("SPECIES_PREFERRED").get(null);
            int lanes = (Integer) Class.forName(MODULE + ".VectorSpecies").getMethod("length").invoke(species);
            return lanes >= 2 ? lanes : 0;
        } catch (ReflectiveOperationException | LinkageError e) {
            return 0;
        }
    }
}
