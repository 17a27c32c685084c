package dev.polygpu.grcuda;

import org.graalvm.polyglot.Engine;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One polyglot engine for all the tests of a class, so that their contexts share its code caches (each test
 * builds its own context on it): {@code @RegisterExtension static final SharedEngine ENGINE = new SharedEngine();}
 * then {@code Context.newBuilder("grcuda").engine(ENGINE.get())}. Interpreter-only warnings are off: the tests
 * run on whatever JVM surefire starts.
 */
public final class SharedEngine implements BeforeAllCallback, AfterAllCallback {
    private Engine engine;

    @Override
    public void beforeAll(ExtensionContext context) {
        engine = Engine.newBuilder("grcuda").option("engine.WarnInterpreterOnly", "false").build();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        engine.close();
    }

    /** The engine, from before the class's first test until after its last. */
    public Engine get() {
        if (engine == null) {
            throw new IllegalStateException("the engine is made before the class's tests: register the extension"
                    + " on a static field with @RegisterExtension");
        }
        return engine;
    }
}
