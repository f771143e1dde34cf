package org.dpdl4j.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

class GraphTest {

    @Test
    void edgesAreIndexedInLexicographicOrder() {
        Graph g = Graph.of(4, new int[] {3, 1}, new int[] {0, 2}, new int[] {1, 0}, new int[] {2, 3});
        assertEquals(List.of(new Edge(0, 1), new Edge(0, 2), new Edge(1, 3), new Edge(2, 3)), g.edges());
        assertEquals(2, g.edgeIndex(3, 1));
        assertEquals(2, g.edgeIndex(1, 3));
        assertArrayEquals(new int[] {0, 3}, g.neighbours(1));
        assertArrayEquals(new int[] {0, 2}, g.incidentEdges(1));
        assertArrayEquals(new int[] {2, 2, 2, 2}, g.degrees());
        assertTrue(g.hasEdge(2, 3));
        assertFalse(g.hasEdge(0, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.edgeIndex(0, 3));
        assertTrue(e.getMessage().contains("not adjacent"), e.getMessage());
    }

    @Test
    void rejectsSelfLoopsDuplicatesAndOutOfRange() {
        IllegalArgumentException loop = assertThrows(IllegalArgumentException.class, () -> Graph.of(3, new int[] {1, 1}));
        assertTrue(loop.getMessage().contains("self loop at vertex 1"), loop.getMessage());
        IllegalArgumentException dup = assertThrows(IllegalArgumentException.class,
                () -> Graph.of(3, new int[] {0, 1}, new int[] {1, 0}));
        assertTrue(dup.getMessage().contains("{0, 1} is given twice"), dup.getMessage());
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class, () -> Graph.of(3, new int[] {0, 3}));
        assertTrue(range.getMessage().contains("vertex 3") && range.getMessage().contains("0..2"), range.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Graph.of(3, new int[] {-1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Graph.of(0));
        assertThrows(IllegalArgumentException.class, () -> new Edge(2, 1));
    }

    @Test
    void laplacianFactorsThroughIncidence() {
        for (Graph g : List.of(Topologies.ring(7), Topologies.torus(3, 4), Topologies.erdosRenyi(15, 0.3, 2), Topologies.star(5))) {
            double[][] l = g.laplacianMatrix();
            double[][] b = g.incidenceMatrix();
            double[][] a = g.adjacencyMatrix();
            int n = g.vertexCount();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double bbt = 0;
                    for (int e = 0; e < g.edgeCount(); e++) {
                        bbt += b[i][e] * b[j][e];
                    }
                    assertEquals(l[i][j], bbt, 0, "L = B B^T at " + i + "," + j);
                    assertEquals(l[i][j], (i == j ? g.degree(i) : 0) - a[i][j], 0, "L = Deg - A");
                }
            }
            for (int e = 0; e < g.edgeCount(); e++) {
                assertEquals(1.0, b[g.edge(e).i()][e]);
                assertEquals(-1.0, b[g.edge(e).j()][e]);
            }
            INDArray bNd = g.incidenceArray();
            assertEquals(DataType.DOUBLE, bNd.dataType());
            INDArray lNd = bNd.mmul(bNd.transpose());
            assertEquals(0.0, lNd.sub(g.laplacianArray()).norm2Number().doubleValue(), 0);
        }
    }

    @Test
    void algebraicConnectivityOfClassicGraphs() {
        for (int n : new int[] {3, 8, 25}) {
            assertEquals(2 - 2 * Math.cos(2 * Math.PI / n), Topologies.ring(n).algebraicConnectivity(), 1e-12, "ring " + n);
            assertEquals(n, Topologies.complete(n).algebraicConnectivity(), 1e-12, "complete " + n);
            assertEquals(1, Topologies.star(n).algebraicConnectivity(), 1e-12, "star " + n);
            assertEquals(2 - 2 * Math.cos(Math.PI / n), Topologies.path(n).algebraicConnectivity(), 1e-12, "path " + n);
        }
        for (int k : new int[] {3, 4, 6}) {
            assertEquals(2 - 2 * Math.cos(2 * Math.PI / k), Topologies.torus(k * k).algebraicConnectivity(), 1e-12, "torus " + k);
        }
        Graph twoTriangles = Graph.of(6, new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2}, new int[] {3, 4}, new int[] {4, 5},
                new int[] {3, 5});
        assertEquals(0.0, twoTriangles.algebraicConnectivity(), 0);
        assertEquals(0.0, Graph.of(1).algebraicConnectivity(), 0);
        // Full ring spectrum, ascending.
        double[] ev = Topologies.ring(6).laplacianSpectrum().eigenvalues();
        assertArrayEquals(new double[] {0, 1, 1, 3, 3, 4}, ev, 1e-12);
    }

    @Test
    void spectrumReconstructsTheLaplacian() {
        Graph g = Topologies.erdosRenyi(12, 0.3, 7);
        SymmetricEigendecomposition s = g.laplacianSpectrum();
        double[][] l = g.laplacianMatrix();
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 12; j++) {
                double v = 0;
                for (int k = 0; k < 12; k++) {
                    v += s.eigenvectorEntry(i, k) * s.eigenvalue(k) * s.eigenvectorEntry(j, k);
                }
                assertEquals(l[i][j], v, 1e-12);
            }
        }
        assertEquals(1 / Math.sqrt(12), s.eigenvectorEntry(5, 0), 0, "null vector set exactly");
    }

    @Test
    void inducedSubgraphsAndVertexDeletion() {
        Graph ring = Topologies.ring(6);
        InducedSubgraph withoutTwo = ring.deleteVertex(2);
        assertEquals(Topologies.path(5).edgeCount(), withoutTwo.graph().edgeCount());
        assertArrayEquals(new int[] {0, 1, 3, 4, 5}, withoutTwo.originalIds());
        assertEquals(OptionalInt.of(2), withoutTwo.localId(3));
        assertEquals(OptionalInt.empty(), withoutTwo.localId(2));
        assertEquals(2 - 2 * Math.cos(Math.PI / 5), withoutTwo.graph().algebraicConnectivity(), 1e-12);
        InducedSubgraph tri = ring.inducedSubgraph(5, 0, 1);
        assertEquals(List.of(new Edge(0, 1), new Edge(0, 2)), tri.graph().edges());
        assertEquals(5, tri.originalId(2));
        assertThrows(IllegalArgumentException.class, () -> ring.inducedSubgraph(1, 1));
        assertThrows(IllegalArgumentException.class, () -> ring.deleteVertices(0, 1, 2, 3, 4, 5));
    }

    @Test
    void connectivityAndArticulationPoints() {
        assertTrue(Topologies.ring(5).isTwoConnected());
        assertTrue(Topologies.torus(3, 3).isTwoConnected());
        assertFalse(Topologies.star(5).isTwoConnected());
        assertArrayEquals(new int[] {0}, Topologies.star(5).articulationPoints());
        assertArrayEquals(new int[] {1, 2, 3}, Topologies.path(5).articulationPoints());
        // Two triangles joined at vertex 2 (a bowtie).
        Graph bowtie = Graph.of(5, new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2}, new int[] {2, 3}, new int[] {3, 4},
                new int[] {2, 4});
        assertArrayEquals(new int[] {2}, bowtie.articulationPoints());
        assertTrue(bowtie.isConnected());
        assertFalse(bowtie.deleteVertex(2).graph().isConnected());
        // Brute-force cross-check on random graphs: v is a cut vertex iff deleting it adds components.
        for (int seed = 0; seed < 5; seed++) {
            Graph g = Topologies.randomKOut(14, 1, seed);
            int base = g.connectedComponents().size();
            List<Integer> expected = new java.util.ArrayList<>();
            for (int v = 0; v < 14; v++) {
                if (g.deleteVertex(v).graph().connectedComponents().size() > base) {
                    expected.add(v);
                }
            }
            assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), g.articulationPoints(), "seed " + seed);
        }
        // A 100000-vertex path does not overflow the stack.
        assertEquals(99998, Topologies.path(100_000).articulationPoints().length);
    }

    @Test
    void randomWalkTransitionAndStationaryDistribution() {
        Graph g = Topologies.erdosRenyi(10, 0.4, 11);
        double[][] p = g.randomWalkTransitionMatrix();
        double[] pi = g.stationaryDistribution();
        double total = 0;
        for (int i = 0; i < 10; i++) {
            double row = 0;
            for (int j = 0; j < 10; j++) {
                row += p[i][j];
                assertEquals(g.hasEdge(i, j) ? 1.0 / g.degree(i) : 0.0, p[i][j], 0);
            }
            assertEquals(1.0, row, 1e-15);
            total += pi[i];
        }
        assertEquals(1.0, total, 1e-15);
        for (int j = 0; j < 10; j++) {
            double piP = 0;
            for (int i = 0; i < 10; i++) {
                piP += pi[i] * p[i][j];
            }
            assertEquals(pi[j], piP, 1e-15, "pi P = pi");
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Graph.of(3, new int[] {0, 1}).stationaryDistribution());
        assertTrue(e.getMessage().contains("vertex 2 is isolated"), e.getMessage());
    }

    @Test
    void eigensolverRejectsAsymmetricInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SymmetricEigendecomposition.of(new double[][] {{1, 2}, {0, 1}}));
        assertTrue(e.getMessage().contains("not symmetric"), e.getMessage());
    }

    @Test
    void eigendecompositionOfThousandNodes() {
        long t0 = System.nanoTime();
        double a = Topologies.ring(1000).algebraicConnectivity();
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("n = 1000 ring: Laplacian eigendecomposition (LAPACK syev via ND4J, double) %.2f s%n", seconds);
        assertEquals(2 - 2 * Math.cos(2 * Math.PI / 1000), a, 1e-13);
        assertTrue(seconds < 30);
    }
}
