package dev.polygpu.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Where a worker given no {@code --port} listens: the first free address of its {@code --join} list. */
class JoinPortTest {

    @Test
    void theFirstFreeOwnAddressIsTakenAndOthersAreSkipped() throws IOException {
        int port = FreePorts.block(3);
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        List<String> members = List.of("192.0.2.7:" + port, "127.0.0.1:" + port, "localhost:" + (port + 1),
                "127.0.0.1:" + (port + 2));
        // 192.0.2.7 is not the bind address: skipped whether or not its port is free here.
        assertEquals(OptionalInt.of(port), JoinPort.firstFree(members, "127.0.0.1"));
        try (ServerSocket member = new ServerSocket(port, 50, loopback)) {
            String host = InetAddress.getByName("localhost").getHostAddress();
            int expected = host.equals("127.0.0.1") ? port + 1 : port + 2;
            assertEquals(OptionalInt.of(expected), JoinPort.firstFree(members, "127.0.0.1"),
                    "the port a member listens on is skipped (localhost is " + host + " here)");
        }
    }

    @Test
    void noOwnFreeAddressLeavesTheDefault() throws IOException {
        int port = FreePorts.block(1);
        assertEquals(OptionalInt.empty(), JoinPort.firstFree(List.of("192.0.2.7:" + port), "127.0.0.1"));
        assertEquals(OptionalInt.empty(), JoinPort.firstFree(List.of(), "127.0.0.1"));
        assertEquals(OptionalInt.empty(), JoinPort.firstFree(List.of("127.0.0.1:65500"), "127.0.0.1"),
                "a member tries 100 ports from its first: 65500 leaves too few");
        try (ServerSocket member = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
            assertEquals(OptionalInt.empty(), JoinPort.firstFree(List.of("127.0.0.1:" + port), "127.0.0.1"));
        }
    }

    /** The case: a worker told to join two addresses with nobody there becomes the member at the first. */
    @Test
    @Tag("cluster")
    void aWorkerWithoutAPortListensAtTheFirstFreeAddressOfItsJoinListAndSaysSo() {
        int port = FreePorts.block(2);
        String first = "127.0.0.1:" + port;
        String second = "127.0.0.1:" + (port + 1);
        WorkerOptionsTest.Run r = WorkerOptionsTest.run("--join", first + "," + second, "--device=cpu",
                "--cpu-blocks=1", "--warm-up=false", "--for=200ms");
        assertEquals(0, r.status(), r.err());
        String line = r.out().lines().findFirst().orElse("");
        assertTrue(line.contains(" joined cluster 'polygpu' with cpu device 0 (1 member so far: no member answered at "
                + second + ", so this worker started a cluster of its own at " + first + ", the first free address "
                + "of --join; members that list " + first + " join it); "), r.out());
    }
}
