package org.dpdl4j.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologiesTest {

    @Test
    void deterministicTopologies() {
        Graph ring = Topologies.ring(5);
        assertEquals(5, ring.edgeCount());
        assertArrayEquals(new int[] {1, 4}, ring.neighbours(0));
        Graph torus = Topologies.torus(3, 4);
        assertEquals(24, torus.edgeCount());
        assertEquals(4, torus.minDegree());
        assertEquals(4, torus.maxDegree());
        // node (r, c) -> r * cols + c: (1, 2) = 6 has neighbours (0,2)=2, (2,2)=10, (1,1)=5, (1,3)=7.
        assertArrayEquals(new int[] {2, 5, 7, 10}, torus.neighbours(6));
        assertEquals(Topologies.torus(4, 4), Topologies.torus(16));
        assertEquals(45, Topologies.complete(10).edgeCount());
        assertArrayEquals(new int[] {1, 2, 3}, Topologies.star(4).neighbours(0));
        assertEquals(3, Topologies.path(4).edgeCount());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topologies.torus(15));
        assertTrue(e.getMessage().contains("perfect-square") && e.getMessage().contains("RxC"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Topologies.ring(2));
        assertThrows(IllegalArgumentException.class, () -> Topologies.torus(2, 5));
    }

    @Test
    void randomRegularGraphs() {
        for (int[] nd : new int[][] {{10, 3}, {50, 4}, {30, 2}, {12, 9}, {20, 19}, {101, 6}}) {
            Graph g = Topologies.randomRegular(nd[0], nd[1], 17);
            assertEquals(nd[1], g.minDegree(), "n=" + nd[0] + " d=" + nd[1]);
            assertEquals(nd[1], g.maxDegree());
            assertTrue(g.isConnected());
            assertEquals(g, Topologies.randomRegular(nd[0], nd[1], 17), "same seed, same graph");
        }
        assertTrue(!Topologies.randomRegular(40, 3, 1).equals(Topologies.randomRegular(40, 3, 2)));
        IllegalArgumentException odd = assertThrows(IllegalArgumentException.class, () -> Topologies.randomRegular(7, 3, 0));
        assertTrue(odd.getMessage().contains("odd"), odd.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> Topologies.randomRegular(6, 6, 0));
        assertTrue(big.getMessage().contains("d < n"), big.getMessage());
        IllegalArgumentException matching = assertThrows(IllegalArgumentException.class, () -> Topologies.randomRegular(10, 1, 0));
        assertTrue(matching.getMessage().contains("d >= 3"), matching.getMessage());
    }

    @Test
    void erdosRenyiIsConnectedAndSeeded() {
        Graph g = Topologies.erdosRenyi(60, 0.1, 3);
        assertTrue(g.isConnected());
        assertEquals(g, Topologies.erdosRenyi(60, 0.1, 3));
        assertEquals(Topologies.complete(7), Topologies.erdosRenyi(7, 1.0, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topologies.erdosRenyi(200, 0.001, 0));
        assertTrue(e.getMessage().contains("larger p"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Topologies.erdosRenyi(10, 0, 0));
    }

    @Test
    void kOutGraphs() {
        Graph g = Topologies.randomKOut(30, 3, 5);
        assertTrue(g.minDegree() >= 3);
        assertTrue(g.edgeCount() <= 90 && g.edgeCount() >= 45);
        assertEquals(g, Topologies.randomKOut(30, 3, 5));
        assertEquals(Topologies.complete(6), Topologies.randomKOut(6, 5, 9));
        assertThrows(IllegalArgumentException.class, () -> Topologies.randomKOut(5, 5, 0));
    }

    @Test
    void edgeListFilesRoundTripAndReportLines(@TempDir Path dir) throws IOException {
        Graph g = Topologies.erdosRenyi(12, 0.3, 4);
        Path file = dir.resolve("g.txt");
        EdgeListFile.write(g, file);
        assertEquals(g, Topologies.fromEdgeListFile(file, 12));
        Path commented = dir.resolve("c.txt");
        Files.writeString(commented, "# a triangle and a pendant\n0 1\n  1 2   # trailing comment\n\n2 0\n2\t3\n");
        Graph t = Topologies.fromEdgeListFile(commented);
        assertEquals(4, t.vertexCount());
        assertEquals(4, t.edgeCount());

        assertFileError(dir, "0 1\n1 2 3\n", 5, "bad.txt:2", "expected two vertex ids");
        assertFileError(dir, "0 1\n1 x\n", 5, "bad.txt:2", "'x' is not a vertex id");
        assertFileError(dir, "0 1\n\n3 3\n", 5, "bad.txt:3", "self loop");
        assertFileError(dir, "0 1\n1 7\n", 5, "bad.txt:2", "vertex 7 is out of range");
        assertFileError(dir, "0 1\n1 2\n1 0\n", 5, "bad.txt:3", "repeats line 1");
        assertFileError(dir, "0 -1\n", 5, "bad.txt:1", "negative");
    }

    private static void assertFileError(Path dir, String content, int n, String where, String what) throws IOException {
        Path f = dir.resolve("bad.txt");
        Files.writeString(f, content);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topologies.fromEdgeListFile(f, n));
        assertTrue(e.getMessage().contains(where) && e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void topologyNamesParse(@TempDir Path dir) throws IOException {
        assertEquals(Topologies.ring(9), TopologySpec.resolve("ring", "9", 0));
        assertEquals(Topologies.torus(4, 4), TopologySpec.resolve("torus", "16", 0));
        assertEquals(Topologies.torus(3, 5), TopologySpec.resolve("torus", "3x5", 0));
        assertEquals(Topologies.torus(3, 5), TopologySpec.resolve("torus:3x5", "15", 0));
        assertEquals(Topologies.complete(5), TopologySpec.resolve("COMPLETE", "5", 0));
        assertEquals(Topologies.star(5), TopologySpec.resolve("star", "5", 0));
        assertEquals(Topologies.randomRegular(20, 3, 8), TopologySpec.resolve("regular:3", "20", 8));
        assertEquals(Topologies.erdosRenyi(20, 0.3, 8), TopologySpec.resolve("erdos-renyi:0.3", "20", 8));
        assertEquals(Topologies.randomKOut(20, 2, 8), TopologySpec.resolve("k-out:2", "20", 8));
        Path f = dir.resolve("ring.txt");
        EdgeListFile.write(Topologies.ring(6), f);
        assertEquals(Topologies.ring(6), TopologySpec.resolve("file:" + f, "6", 0));
        assertEquals(new TopologySpec.RandomRegular(4), TopologySpec.parse("regular:4"));

        assertMessage(() -> TopologySpec.resolve("torus", "15", 0), "perfect-square");
        assertMessage(() -> TopologySpec.resolve("ring", "4x4", 0), "only a torus");
        assertMessage(() -> TopologySpec.resolve("torus", "4y4", 0), "RxC");
        assertMessage(() -> TopologySpec.resolve("torus:3x5", "16", 0), "15 nodes");
        assertMessage(() -> TopologySpec.parse("hypercube"), "known topologies");
        assertMessage(() -> TopologySpec.parse("regular"), "regular:D");
        assertMessage(() -> TopologySpec.parse("regular:x"), "not an integer");
        assertMessage(() -> TopologySpec.parse("erdos-renyi:p"), "not a number");
        assertMessage(() -> TopologySpec.parse("ring:3"), "takes no argument");
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable call, String part) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
