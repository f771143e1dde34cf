package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunAssertions;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecentralizedTrainerTest {
    private static final int N = 8;
    private static final int D = 5;

    private static DecentralizedTrainer trainer(Graph g, MixingMatrix w, DecentralizedConfig cfg) {
        return build(g, w, DecentralizedFixtures.data(N, D, 3), cfg);
    }

    private static DecentralizedTrainer build(Graph g, MixingMatrix w, List<NodeData> data, DecentralizedConfig cfg) {
        return DecentralizedTrainer.builder().config(cfg).model(DecentralizedFixtures.leastSquares(D)).graph(g).mixing(w)
                .nodeData(data).noiseKind(NoiseKind.SEEDED).build();
    }

    @Test
    void pairwiseNoiseCancelsAcrossNodesAndIsAntisymmetric() {
        Graph ring = Topologies.ring(N);
        PairwiseNoise noise = new PairwiseNoise(ring, MixingMatrix.metropolisHastings(ring), false, DataType.DOUBLE);
        double sigma = 7.0;
        int p = 1000;
        SecureNoiseStreams streams = new SecureNoiseStreams(ring);
        INDArray bu = noise.draw(streams, 5, p, sigma);
        double sum = bu.sum(0).norm2Number().doubleValue();
        assertTrue(sum < 1e-12 * sigma * Math.sqrt(p), "rows sum to zero: " + sum);
        // Node 1's row is v_10 + v_12 = -u_(0,1) + u_(1,2): both ends of an edge derive the same u_e.
        INDArray u01 = Nd4j.zeros(DataType.DOUBLE, p);
        streams.pairwiseNoise(ring.edgeIndex(0, 1), 5).addGaussian(u01, sigma);
        INDArray u12 = Nd4j.zeros(DataType.DOUBLE, p);
        streams.pairwiseNoise(ring.edgeIndex(1, 2), 5).addGaussian(u12, sigma);
        assertArrayEquals(u12.sub(u01).toDoubleVector(), bu.getRow(1).toDoubleVector(), 1e-12);
        INDArray next = noise.draw(streams, 6, p, sigma);
        assertFalse(next.equalsWithEps(bu, 1e-3), "fresh pairwise noise every round");
    }

    @Test
    void onTheCompleteGraphWithAveragingPairwiseNoiseVanishes() {
        Graph complete = Topologies.complete(N);
        MixingMatrix avg = MixingMatrix.averaging(complete);
        try (DecentralizedTrainer withCor = trainer(complete, avg, DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 2.0, 50.0, 3));
             DecentralizedTrainer without = trainer(complete, avg, DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 2.0, 0.0, 3))) {
            withCor.step();
            without.step();
            INDArray x = withCor.params();
            for (int i = 1; i < N; i++) {
                assertArrayEquals(x.getRow(0).toDoubleVector(), x.getRow(i).toDoubleVector(), 1e-9, "all nodes equal");
            }
            assertArrayEquals(flat(without.params()), flat(x), 1e-9);
        }
    }

    @Test
    void theAverageModelDoesNotDependOnPairwiseNoise() {
        Graph ring = Topologies.ring(N);
        MixingMatrix mh = MixingMatrix.metropolisHastings(ring);
        try (DecentralizedTrainer a = trainer(ring, mh, DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 1.0, 30.0, 4));
             DecentralizedTrainer b = trainer(ring, mh, DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 1.0, 0.0, 4))) {
            // One round: gradients are taken at the same (equal) starting models, so the averages agree to rounding.
            a.step();
            b.step();
            assertArrayEquals(b.averageModel().toDoubleVector(), a.averageModel().toDoubleVector(), 1e-10);
            assertFalse(a.params().equalsWithEps(b.params(), 1e-6), "the node models do differ");
        }
    }

    private static double[] flat(INDArray a) {
        return Nd4j.toFlattened(a).toDoubleVector();
    }

    @Test
    void dsgdWithExactAveragingConvergesToTheLeastSquaresOptimum() {
        Graph complete = Topologies.complete(N);
        List<NodeData> data = DecentralizedFixtures.data(N, D, 3);
        INDArray ata = Nd4j.zeros(DataType.DOUBLE, D, D);
        INDArray atb = Nd4j.zeros(DataType.DOUBLE, D, 1);
        for (NodeData nd : data) {
            ata.addi(nd.features().transpose().mmul(nd.features()));
            atb.addi(nd.features().transpose().mmul(nd.labels()));
        }
        INDArray xStar = org.nd4j.linalg.inverse.InvertMatrix.invert(ata, false).mmul(atb).reshape(D);
        DecentralizedConfig cfg = new DecentralizedConfig(DecentralizedAlgorithm.DSGD, org.dpdl4j.privacy.accounting.ProtectedUnit.USER,
                LocalObjective.SUM, 1.0, 0, 0, new org.dpdl4j.runtime.LearningRate.Constant(0.05), 0, 1,
                org.dpdl4j.privacy.accounting.SamplingScheme.FULL_BATCH, 1, 7, DecorCompatibility.NONE);
        try (DecentralizedTrainer t = build(complete, MixingMatrix.averaging(complete), data, cfg)) {
            t.run(400);
            double gap = t.averageModel().sub(xStar).norm2Number().doubleValue();
            assertTrue(gap < 1e-8, "average model at x*: " + gap);
        }
    }

    @Test
    void resumedRunEqualsAnUninterruptedOne(@TempDir Path dir) {
        Graph torus = Topologies.torus(3, 3);
        MixingMatrix mh = MixingMatrix.metropolisHastings(torus);
        DecentralizedConfig cfg = DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 0.5, 5.0, 10);
        List<NodeData> data = DecentralizedFixtures.data(9, D, 4);
        Path ckpt = dir.resolve("run.ckpt");
        RunAssertions.assertResumeEqualsUninterrupted(() -> build(torus, mh, data, cfg), 6, 10, ckpt);
        DecentralizedConfig other = new DecentralizedConfig(cfg.algorithm(), cfg.unit(), cfg.objective(), cfg.clipNorm(), cfg.sigmaCdp(),
                cfg.sigmaCor(), cfg.learningRate(), cfg.weightDecay(), cfg.batchSize(), cfg.sampling(), cfg.rounds(), 99, cfg.compatibility());
        try (DecentralizedTrainer wrongSeed = build(torus, mh, data, other)) {
            String message = assertThrows(IllegalArgumentException.class,
                    () -> RunCheckpoint.resume(wrongSeed, RunCheckpoint.read(ckpt), ResumePolicy.strict())).getMessage();
            assertTrue(message.contains("seed: 7 -> 99"), message);
        }
    }

    @Test
    void observersSeeTheReleasedGradientsAndNeighboursCanRemoveTheirPairwiseTerm() {
        Graph ring = Topologies.ring(N);
        MixingMatrix mh = MixingMatrix.metropolisHastings(ring);
        INDArray[] decorSeen = new INDArray[2];
        INDArray[] cleanSeen = new INDArray[1];
        try (DecentralizedTrainer decor = trainer(ring, mh, DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 1e-9, 40.0, 1));
             DecentralizedTrainer ldp = trainer(ring, mh, DecentralizedFixtures.config(DecentralizedAlgorithm.LDP, 1e-9, 0.0, 1))) {
            decor.addObserver(tap -> {
                decorSeen[0] = tap.releasedGradient(3);
                // Node 3's neighbours are 2 and 4: each knows one of its two pairwise terms; together, both.
                INDArray minus2 = tap.releasedGradientSeenByNeighbour(3, 2);
                decorSeen[1] = minus2.sub(tap.releasedGradient(3).sub(tap.releasedGradientSeenByNeighbour(3, 4)));
            });
            ldp.addObserver(tap -> cleanSeen[0] = tap.releasedGradient(3));
            decor.step();
            ldp.step();
        }
        assertTrue(decorSeen[0].sub(cleanSeen[0]).norm2Number().doubleValue() > 1.0, "the eavesdropper sees the pairwise noise");
        assertArrayEquals(cleanSeen[0].toDoubleVector(), decorSeen[1].toDoubleVector(), 1e-8,
                "removing both pairwise terms leaves the clipped gradient (plus negligible private noise)");
    }
}
