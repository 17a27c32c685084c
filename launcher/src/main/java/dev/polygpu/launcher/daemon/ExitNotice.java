package dev.polygpu.launcher.daemon;

import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells the clients of a daemon that is exiting why their programs end. A program may call Java's
 * {@code System.exit} through host access ({@code java.type("java.lang.System").exit(5)}), which no JVM can refuse
 * and which ends the daemon and every program in it; a signal ends it too. The JDK logs each {@code Runtime.exit}
 * (with its status, on the calling thread, before the shutdown starts) to the {@code java.lang.Runtime} logger
 * when that logs at debug level: this listens there, and a shutdown hook then gives each running program's
 * client the reason and an exit status (the caller's own for the program that called it) instead of a connection
 * that just ends.
 */
final class ExitNotice {
    private static final Pattern STATUS = Pattern.compile("Runtime\\.exit\\((-?\\d+)\\)");
    /** Held here: the logging system keeps its loggers weakly, and a collected one would lose the level set. */
    private static final Logger RUNTIME = Logger.getLogger("java.lang.Runtime");
    private static volatile Thread caller;
    private static volatile int status;

    private ExitNotice() {
    }

    /** Installs the listener and the shutdown hook that tells the sessions in {@code live}. */
    static void install(Set<DaemonSession> live) {
        RUNTIME.setUseParentHandlers(false);
        RUNTIME.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                Matcher m = record.getThrown() == null ? null : STATUS.matcher(record.getThrown().getMessage());
                if (m != null && m.find()) {
                    status = Integer.parseInt(m.group(1));
                    caller = Thread.currentThread();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        RUNTIME.setLevel(Level.FINE);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> tell(live), "polygpu-daemon exit notice"));
    }

    private static void tell(Set<DaemonSession> live) {
        Thread by = caller;
        if (by == null) {
            return;
        }
        DaemonSession exiting = null;
        for (DaemonSession s : live) {
            if (s.runsOn(by)) {
                exiting = s;
            }
        }
        for (DaemonSession s : live) {
            if (s == exiting) {
                s.endWith("polygpu: the program called System.exit(" + status + "), which ends the daemon it runs in "
                        + "and the programs running there: end a program with sys.exit() or quit(), or run it with "
                        + "POLYGPU_DAEMON=off", status);
            } else if (exiting != null) {
                s.endWith("polygpu: another program in the daemon called System.exit(" + status + "), which ended "
                        + "the daemon and this program; run it again", 1);
            } else {
                s.endWith("polygpu: the daemon stopped (exit status " + status + ", from thread '" + by.getName()
                        + "') while it ran this program; run it again, with POLYGPU_DAEMON=off if it calls "
                        + "System.exit", 1);
            }
        }
    }
}
