package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The addresses a member binds to and joins, as users write them: host names as well as IP addresses, and a
 * clear error, before Hazelcast starts, for an address that is not this machine's or not a host at all; and a
 * join that nobody answers properly ends with an error instead of Hazelcast's 300 s wait.
 */
class HazelcastTransportAddressesTest {

    @Test
    void aHostNameOfThisMachineIsBoundByItsAddress() throws IOException {
        String expected = InetAddress.getByName("localhost").getHostAddress();
        assertEquals(expected, HazelcastTransport.bindableAddress("localhost"));
        assertEquals("127.0.0.1", HazelcastTransport.bindableAddress("127.0.0.1"));
    }

    @Test
    void anAddressOfAnotherMachineOrNoHostIsRefusedSayingWhy() {
        // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> HazelcastTransport.bindableAddress("192.0.2.7"));
        assertTrue(other.getMessage().startsWith("the bind address '192.0.2.7' is not an address of this machine; "
                + "bind to one of: "), other.getMessage());
        assertTrue(other.getMessage().contains("127.0.0.1"), other.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> HazelcastTransport.bindableAddress("no-such-host.invalid"));
        assertTrue(none.getMessage().startsWith("the bind address 'no-such-host.invalid' is not a known host name "
                + "or IP address"), none.getMessage());
    }

    @Test
    void membersNamedByHostAreResolvedAndAnUnknownHostIsRefused() throws IOException {
        String local = InetAddress.getByName("localhost").getHostAddress();
        assertEquals(local + ":15751", HazelcastTransport.resolvedMember("localhost:15751"));
        assertEquals("10.0.0.5:5701", HazelcastTransport.resolvedMember("10.0.0.5:5701"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HazelcastTransport.resolvedMember("no-such-host.invalid:5701"));
        assertEquals("member address 'no-such-host.invalid:5701': 'no-such-host.invalid' is not a known host name; "
                + "fix the name or give the member's IP address", e.getMessage());
    }

    @Test
    @Tag("cluster")
    void aWorkerBoundByHostNameJoins() {
        int port = FreePorts.block(1);
        WorkerOptionsTest.Run r = WorkerOptionsTest.run("--bind=localhost", "--port=" + port,
                "--join=localhost:" + port, "--device=cpu", "--cpu-blocks=1", "--warm-up=false", "--for=200ms");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains(" joined cluster 'polygpu' with cpu device 0 (1 member so far); "), r.out());
    }

    @Test
    @Tag("cluster")
    void aWorkerWithSeveralCpuDevicesWarmsUpAndSaysHowItPlacesStolenKernels() {
        int port = FreePorts.block(1);
        WorkerOptionsTest.Run r = WorkerOptionsTest.run("--port=" + port, "--join=127.0.0.1:" + port,
                "--device=cpu", "--devices=2", "--cpu-blocks=1", "--device-selection=stream-aware", "--for=200ms");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains(" joined cluster 'polygpu' with 2 cpu devices, device selection stream-aware (1 "
                + "member so far); its test kernel ran correctly in "), r.out());
    }

    @Test
    @Tag("cluster")
    void aWorkerThatFindsNobodyAtItsJoinAddressesSaysItIsACluster() {
        int port = FreePorts.block(2);
        WorkerOptionsTest.Run r = WorkerOptionsTest.run("--port=" + (port + 1), "--join=127.0.0.1:" + port,
                "--device=cpu", "--cpu-blocks=1", "--warm-up=false", "--for=200ms");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains(" joined cluster 'polygpu' with cpu device 0 (1 member so far: no member "
                + "answered at 127.0.0.1:" + port + ", so this worker started a cluster of its own at 127.0.0.1:"
                + (port + 1) + "; members that list 127.0.0.1:" + (port + 1) + " join it); "), r.out());
    }

    @Test
    @Tag("cluster")
    void aWorkerBoundToAnotherMachinesAddressSaysSoWithoutAStackTrace() {
        WorkerOptionsTest.Run r = WorkerOptionsTest.run("--bind=192.0.2.7", "--secret=s", "--port=15753",
                "--join=127.0.0.1:15753", "--device=cpu", "--warm-up=false", "--for=200ms");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("could not join the cluster: the bind address '192.0.2.7' is not an address of "
                + "this machine"), r.err());
        assertTrue(!r.err().contains("\tat ") && !r.err().contains("SEVERE"), r.err());
    }

    @Test
    @Tag("cluster")
    @Tag("slow")
    void aJoinThatNothingAnswersProperlyEndsWithAnError() throws Exception {
        // A listener that takes connections and never speaks: a port that is not a polygpu member's.
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            String joins = "127.0.0.1:" + silent.getLocalPort();
            Thread accepter = Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (true) {
                        Socket s = silent.accept();
                        synchronized (held) {
                            held.add(s);
                        }
                    }
                } catch (IOException closed) {
                    // The test is over.
                }
            });
            long start = System.nanoTime();
            WorkerOptionsTest.Run r = WorkerOptionsTest.run("--port=" + FreePorts.block(1), "--join=" + joins,
                    "--device=cpu", "--cpu-blocks=1", "--warm-up=false", "--for=200ms");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertEquals(1, r.status(), r.out() + r.err());
            assertTrue(r.err().contains("could not join the members at " + joins + " within "
                    + HazelcastTransport.JOIN_SECONDS + " s"), r.err());
            assertTrue(r.err().contains("not a polygpu member of cluster 'polygpu'"), r.err());
            // Bounded by the join time (plus Hazelcast's start), not Hazelcast's default of 300 s.
            assertTrue(seconds < 4 * HazelcastTransport.JOIN_SECONDS, seconds + " s");
            accepter.interrupt();
        } finally {
            synchronized (held) {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }
}
