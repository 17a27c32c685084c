package dev.polygpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The polygpu command's cluster side, run in-process: the {@code --cluster…} flags and what they set, the
 * {@code worker} subcommand, and one program that forms a cluster of its own with the real cluster module.
 */
@Tag("slow")
class LauncherClusterTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void helpListsTheWorkerAndTheClusterFlags() {
        Guests.Run r = Guests.launch("--help");
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.out().contains("polygpu worker [worker options]"), r::toString);
        for (String flag : new String[] {"--cluster=HOST:PORT,...", "--cluster-name=", "--cluster-bind=",
            "--cluster-port=", "--cluster-secret=", "--cluster-stats", "--grcuda.ClusterHeartbeat="}) {
            assertTrue(r.out().contains(flag), flag + "\n" + r);
        }
    }

    @Test
    void workerHasItsOwnHelpAndErrors() {
        Guests.Run help = Guests.launch("worker", "--help");
        assertEquals(0, help.status(), help::toString);
        assertTrue(help.out().startsWith("Usage: polygpu worker [options]\n"), help::toString);
        Guests.Run bad = Guests.launch("worker", "--no-such-flag=1");
        assertEquals(2, bad.status(), bad::toString);
        assertTrue(bad.err().contains("--no-such-flag"), bad::toString);
        assertFalse(bad.err().contains("\tat "), bad::toString);
    }

    /** A misspelled worker flag gets the suggestion the launcher gives for its own flags. */
    @Test
    void aMisspelledWorkerFlagIsUnknownAndTheClosestIsSuggested() {
        Guests.Run joint = Guests.launch("worker", "--joint=127.0.0.1:1");
        assertEquals(2, joint.status(), joint::toString);
        assertEquals("polygpu worker: unknown option --joint (did you mean --join?)\n"
                + "run 'polygpu worker --help' for the options\n", joint.err(), joint::toString);
        Guests.Run stats = Guests.launch("worker", "--stats-evry=1s");
        assertTrue(stats.err().startsWith("polygpu worker: unknown option --stats-evry (did you mean"
                + " --stats-every?)\n"), stats::toString);
        // a flag without a value is looked up the same way
        Guests.Run chek = Guests.launch("worker", "--chek");
        assertEquals(2, chek.status(), chek::toString);
        assertTrue(chek.err().startsWith("polygpu worker: unknown option --chek (did you mean --check?)\n"),
                chek::toString);
        Guests.Run far = Guests.launch("worker", "--verbose=1");
        assertTrue(far.err().startsWith("polygpu worker: unknown option --verbose\n"), far::toString);
        Guests.Run value = Guests.launch("worker", "--check=yes");
        assertEquals(2, value.status(), value::toString);
        assertTrue(value.err().startsWith("polygpu worker: --check takes no value\n"), value::toString);
    }

    @Test
    void clusterFlagsSetTheGrcudaOptions() throws IOException {
        // Without --cluster nothing joins: this only shows where the flags go.
        Path f = file("flags.py", """
                import polyglot
                o = polyglot.eval(language="grcuda", string="getoptions()")
                print(*(getattr(o, "grcuda." + n) for n in
                        ("Cluster", "ClusterName", "ClusterBind", "ClusterPort", "ClusterSecret", "ClusterStats")))
                """);
        Guests.Run r = Guests.launch("--cluster-name=lab", "--cluster-bind=localhost", "--cluster-port=5990",
                "--cluster-secret=not-shown", "--cluster-stats", f.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals(" lab localhost 5990 **** true\n", r.out(), r::toString);
        assertTrue(r.err().startsWith("polygpu: --cluster-name, --cluster-bind, --cluster-port, --cluster-secret, "
                + "--cluster-stats do nothing without --cluster=HOST:PORT,…: this program joins no cluster\n"),
                r::toString);
    }

    @Test
    void badClusterFlagsAreUsageErrors() throws IOException {
        Path f = file("x.js", "1");
        Guests.Run port = Guests.launch("--cluster=127.0.0.1:5701", "--cluster-port=0", f.toString());
        assertEquals(2, port.status(), port::toString);
        // named as the user wrote it: the flag, not the grcuda option it sets
        assertTrue(port.err().contains("--cluster-port must be a port number in 1..65436 (a member listens on the first"
                + " free one of the 100 ports from there), got '0'"), port::toString);
        assertFalse(port.err().contains("grcuda.ClusterPort"), port::toString);
        Guests.Run high = Guests.launch("--cluster=127.0.0.1:5701", "--grcuda.ClusterPort=65500", f.toString());
        assertEquals(2, high.status(), high::toString);
        assertTrue(high.err().contains("grcuda.ClusterPort must be a port number in 1..65436"), high::toString);
        Guests.Run address = Guests.launch("--cluster=127.0.0.1:57o1", f.toString());
        assertEquals(2, address.status(), address::toString);
        assertTrue(address.err().contains("member address '127.0.0.1:57o1' has port '57o1'"), address::toString);
        Guests.Run bare = Guests.launch("--cluster", f.toString());
        assertEquals(2, bare.status(), bare::toString);
        assertTrue(bare.err().contains("--cluster needs a value: write --cluster=HOST:PORT,... or --cluster "
                + "HOST:PORT,... before the file"), bare::toString);
    }

    @Test
    @Tag("cluster")
    void aProgramAloneFormsAClusterOfOneAndPrintsItsCounters() throws IOException {
        Path f = file("alone.py", """
                import polyglot
                cu = polyglot.eval(language="grcuda", string="CU")
                x = cu.DeviceArray("float", 256)
                for i in range(256): x[i] = i * 0.25
                k = cu.buildkernel(\"\"\"
                __global__ void twice(float *x, int n) {
                    int i = blockIdx.x * blockDim.x + threadIdx.x;
                    if (i < n) x[i] = 2 * x[i];
                }\"\"\", "twice(x: inout pointer float, n: sint32)")
                k(4, 64)(x, 256)
                s = cu.getClusterStats()
                print(x[10], s.members, s.member != "")
                """);
        Guests.Run r = Guests.launch("--cluster=127.0.0.1:5941", "--cluster-port=5941", "--cluster-stats",
                f.toString());
        assertEquals(0, r.status(), r::toString);
        assertEquals("5.0 1 True\n", r.out(), r::toString);
        assertTrue(r.err().contains("of the cluster at 127.0.0.1:5941 (1 member so far: no other member answered at "
                + "those addresses)\n"), r::toString);
        assertTrue(r.err().contains("cluster member "), r::toString);
        assertFalse(r.err().contains("without --cluster"), r::toString);
    }

    @Test
    @Tag("cluster")
    void aBindAddressThatIsNotThisMachinesIsRefusedWithoutAStackTrace() throws IOException {
        Path f = file("x.py", "print('never')\n");
        // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
        Guests.Run r = Guests.launch("--cluster=127.0.0.1:15756", "--cluster-port=15756", "--cluster-bind=192.0.2.7",
                "--cluster-secret=s", f.toString());
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu: --cluster=127.0.0.1:15756: a cluster option was refused: the "
                + "bind address '192.0.2.7' is not an address of this machine; bind to one of: "), r::toString);
        assertFalse(r.err().contains("\tat ") || r.err().contains("ForeignException"), r::toString);
    }

    @Test
    void aBadClusterOptionValueIsNamedAsTheGrcudaOption() throws IOException {
        Path f = file("x.js", "console.log('never');\n");
        Guests.Run r = Guests.launch("--cluster=127.0.0.1:15757", "--cluster-port=15757",
                "--grcuda.ClusterInputCache=lots", f.toString());
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu: --cluster=127.0.0.1:15757: a cluster option was refused: "
                + "grcuda.ClusterInputCache: bad size 'lots'"), r::toString);
    }

    @Test
    void aValueTheClusterRefusesIsNamedAsWrittenWithItsRange() throws IOException {
        Path f = file("x.js", "console.log('never');\n");
        Guests.Run r = Guests.launch("--cluster=127.0.0.1:15758", "--cluster-port=15758",
                "--grcuda.ClusterHeartbeat=1500ms", f.toString());
        assertEquals(1, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu: --cluster=127.0.0.1:15758: a cluster option was refused: "
                + "grcuda.ClusterHeartbeat must be a whole number of seconds, at least 1s (such as 1s or 2s), got 1.5s"),
                r::toString);
        Guests.Run fail = Guests.launch("--cluster=127.0.0.1:15758", "--cluster-port=15758",
                "--grcuda.ClusterFailAfter=3s", "--grcuda.ClusterHeartbeat=2s", f.toString());
        assertEquals(1, fail.status(), fail::toString);
        assertTrue(fail.err().contains("grcuda.ClusterFailAfter must be a whole number of seconds, at least two "
                + "heartbeats (4s, with grcuda.ClusterHeartbeat at 2s), got 3s: raise grcuda.ClusterFailAfter or lower "
                + "grcuda.ClusterHeartbeat"), fail::toString);
    }

    @Test
    void aGrcudaClusterOptionAloneIsNamedTooAndOtherOptionsAreNot() throws IOException {
        Path f = file("quiet.js", "console.log(1);\n");
        Guests.Run one = Guests.launch("--grcuda.ClusterHeartbeat=2s", f.toString());
        assertEquals(0, one.status(), one::toString);
        assertTrue(one.err().startsWith("polygpu: --grcuda.ClusterHeartbeat does nothing without --cluster="),
                one::toString);
        Guests.Run none = Guests.launch("--grcuda.ExecutionPolicy=sync", f.toString());
        assertFalse(none.err().contains("without --cluster"), none::toString);
    }

    /** The warning names each option as the user wrote it: the long form of a flag stays the long form. */
    @Test
    void theWarningNamesTheLongFormOfAClusterFlagAsWritten() throws IOException {
        Path f = file("quiet.js", "console.log(1);\n");
        Guests.Run r = Guests.launch("--grcuda.ClusterPort=5990", "--cluster-name=lab", "--grcuda.ClusterStats=true",
                f.toString());
        assertEquals(0, r.status(), r::toString);
        assertTrue(r.err().startsWith("polygpu: --grcuda.ClusterPort, --cluster-name, --grcuda.ClusterStats do "
                + "nothing without --cluster=HOST:PORT,…: this program joins no cluster\n"), r::toString);
    }
}
