package dev.polygpu.runtime;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * A link between a {@link Scheduler} and other machines that take its ready elements and give it theirs (the
 * cluster layer), found through {@link Provider} so that the language needs no cluster classes: with the
 * cluster module on the class path, {@link #attach} finds it.
 */
public interface WorkExchange extends AutoCloseable {

    /** Creates exchanges; registered as a {@link ServiceLoader} service. */
    interface Provider {
        /**
         * Attaches {@code scheduler} to the exchange {@code options} describe (their names are the
         * provider's; the cluster's are listed in {@code docs/cluster.md}). Throws IllegalArgumentException
         * for a bad option, saying which and why.
         */
        WorkExchange attach(Scheduler scheduler, Map<String, String> options);
    }

    /**
     * Attaches {@code scheduler} through the first provider on the class path. Throws IllegalStateException
     * if there is none, naming what to add.
     */
    static WorkExchange attach(Scheduler scheduler, Map<String, String> options) {
        for (Provider p : ServiceLoader.load(Provider.class, WorkExchange.class.getClassLoader())) {
            return p.attach(scheduler, options);
        }
        throw new IllegalStateException("a cluster was asked for, but the polygpu cluster module "
                + "(polygpu-cluster.jar) is not on the class path; the polygpu launcher has it, Java programs "
                + "add the dev.polygpu:polygpu-cluster dependency");
    }

    /** This member's id in the exchange. */
    String memberId();

    /** Counters by name, for people and guest code. */
    Map<String, Object> stats();

    /** The counters as a short table. */
    String statsTable();

    /** Leaves gracefully: elements of this scheduler that are away come back and run here. */
    @Override
    void close();
}
