package dev.polygpu.launcher;

import dev.polygpu.cli.CommandLines;
import dev.polygpu.cli.YesNo;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The command line of {@code polygpu FILE.py|FILE.js [args…]}: the launcher's own options (help, version, the
 * {@code --cluster…} flags, which are short names of {@code grcuda.Cluster…} options), the language options that go to
 * polyglot unchanged ({@link PolyglotArgs}), then the file and the program's arguments, which are not parsed
 * (picocli stops at the file). {@link Main} runs it.
 */
@Command(name = "polygpu", sortOptions = false, synopsisHeading = "Usage: ",
        customSynopsis = {"polygpu [options] FILE.py|FILE.js [args...]",
            "       polygpu --bandwidth-matrix[=measure] [language options]",
            "       polygpu worker [worker options]",
            "       polygpu simulate [simulator options]",
            "       polygpu notebook install|uninstall [--user | --sys-prefix | --prefix DIR]",
            "       polygpu daemon status|stop"},
        description = {"", "Runs a Python (GraalPy) or JavaScript (GraalJS) file with the grcuda language: GrCUDA's "
                + "API (cu = polyglot.eval(language=\"grcuda\", string=\"CU\") / Polyglot.eval(\"grcuda\", \"CU\")). "
                + "Arguments after the file are the program's (sys.argv[1:] in Python, `arguments` in JavaScript), "
                + "options or not. Options take their value as --name=value or --name value.",
            "--bandwidth-matrix prints the link bandwidths of the devices the language options select (such as "
                + "--grcuda.NumberOfGPUs=2) in GrCUDA's CSV on standard output, which --grcuda.BandwidthMatrix reads "
                + "back, and as a table on standard error; it runs no file.",
            "'polygpu worker' starts a cluster member with a device and no program, which runs kernels it steals from "
                + "programs started with --cluster (polygpu worker --help lists its options). 'polygpu simulate' "
                + "runs the work-stealing policy in a simulated cluster of up to thousands of members, with no GPU "
                + "and no network (polygpu simulate --help). 'polygpu notebook install' adds the Jupyter kernels "
                + "polygpu-python and polygpu-js (polygpu notebook --help).",
            "./polygpu runs files in a daemon that keeps the runtime warm (started by the first run, stopped after "
                + "30 idle minutes): a program starts in well under a second from the second run on. 'polygpu daemon "
                + "status' lists your daemons, 'polygpu daemon stop' stops them; POLYGPU_DAEMON=off runs in a JVM "
                + "of its own (README, \"The daemon\")."},
        parameterListHeading = "%nArguments:%n", optionListHeading = "%nOptions:%n",
        versionProvider = LauncherCommand.Version.class,
        preprocessor = PolyglotArgs.class)
final class LauncherCommand implements Callable<Integer>, PolyglotArgs.Target, CommandLines.UnknownOptionHint {
    /** The first option of the help's cluster section, and its heading. */
    static final Map<String, String> SECTIONS = Map.of("--cluster", "Cluster (docs/cluster.md):");

    private final Main main;
    @Spec
    private CommandSpec spec;
    private final Map<String, String> polyglot = new LinkedHashMap<>();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help")
    private boolean help;

    @Option(names = "--version", versionHelp = true, description = "print the versions of polygpu, GraalVM "
            + "polyglot and Java")
    private boolean version;

    @Option(names = "--cluster", paramLabel = "HOST:PORT,...", description = "join the cluster of these members: "
            + "idle members steal ready kernels from this program (grcuda.Cluster)")
    String cluster;

    @Option(names = "--cluster-name", paramLabel = "NAME", description = "join only members of this cluster "
            + "(grcuda.ClusterName, default polygpu)")
    String clusterName;

    @Option(names = "--cluster-bind", paramLabel = "ADDRESS", description = "interface to listen on "
            + "(grcuda.ClusterBind, default 127.0.0.1)")
    String clusterBind;

    @Option(names = "--cluster-port", paramLabel = "N", description = "first port to listen on (grcuda.ClusterPort, "
            + "default 5701)")
    String clusterPort;

    @Option(names = "--cluster-secret", paramLabel = "S", description = "shared secret of the cluster "
            + "(grcuda.ClusterSecret); better: set the POLYGPU_CLUSTER_SECRET environment variable, which ps does "
            + "not show")
    String clusterSecret;

    @Option(names = "--cluster-stats", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
            converter = YesNo.class, description = "print this member's cluster counters when the program ends "
            + "(grcuda.ClusterStats)")
    Boolean clusterStats;

    @Option(names = "--bandwidth-matrix", paramLabel = "cached|measure", arity = "0..1", fallbackValue = "cached",
            description = "print the link bandwidths (GB/s) between the host and the devices the language options "
            + "select, and run no file: from grcuda.BandwidthMatrix if given, else measured on first use and cached; "
            + "=measure measures again")
    String bandwidthMatrix;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE.py|FILE.js", description = "the program to run")
    String file;

    @Parameters(index = "1..*", paramLabel = "args", description = "the program's arguments, passed as written")
    List<String> programArgs = new ArrayList<>();

    LauncherCommand(Main main) {
        this.main = main;
    }

    @Override
    public Integer call() {
        return main.launch(this);
    }

    @Override
    public Map<String, String> polyglotOptions() {
        return polyglot;
    }

    @Override
    public boolean optionsEndAtProgram() {
        return true;
    }

    @Override
    public boolean isBooleanOption(String name) {
        return main.isBooleanOption(name);
    }

    @Override
    public String unknownOptionHint() {
        return "polygpu takes --help, --version, the --cluster… flags and language options written "
                + "--<lang>.<Name>=value, such as --grcuda.ExecutionPolicy=sync";
    }

    /**
     * The options for the polyglot context, in the order written: the language options and those the cluster flags
     * set; {@code written} gets, for each, the flag that set it as the user wrote it.
     */
    Map<String, String> contextOptions(Map<String, String> written) {
        List<String[]> given = new ArrayList<>();
        for (Map.Entry<String, String> o : polyglot.entrySet()) {
            given.add(new String[] {"--" + o.getKey(), o.getKey(), o.getValue()});
        }
        flag(given, "--cluster", "grcuda.Cluster", cluster);
        flag(given, "--cluster-name", "grcuda.ClusterName", clusterName);
        flag(given, "--cluster-bind", "grcuda.ClusterBind", clusterBind);
        flag(given, "--cluster-port", "grcuda.ClusterPort", clusterPort);
        flag(given, "--cluster-secret", "grcuda.ClusterSecret", clusterSecret);
        flag(given, "--cluster-stats", "grcuda.ClusterStats", clusterStats);
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        given.sort(Comparator.comparingInt(g -> firstIndex(args, g[0])));
        Map<String, String> options = new LinkedHashMap<>();
        for (String[] g : given) {
            options.put(g[1], g[2]);
            written.put(g[1], g[0]);
        }
        return options;
    }

    private static void flag(List<String[]> given, String flag, String option, Object value) {
        if (value != null) {
            given.add(new String[] {flag, option, value.toString()});
        }
    }

    /** Where {@code flag} was first written in {@code args} ({@code --flag}, {@code --flag=value}). */
    private static int firstIndex(List<String> args, String flag) {
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals(flag) || args.get(i).startsWith(flag + "=")) {
                return i;
            }
        }
        return args.size();
    }

    /** {@code --version}: polygpu's, GraalVM polyglot's and Java's versions. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties v = new Properties();
            try (InputStream s = Main.class.getResourceAsStream("version.properties")) {
                if (s != null) {
                    v.load(new InputStreamReader(s, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new String[] {"polygpu " + v.getProperty("version", "unknown") + " (GraalVM polyglot "
                    + v.getProperty("graalvm", "unknown") + ", Java " + Runtime.version() + ")"};
        }
    }
}
