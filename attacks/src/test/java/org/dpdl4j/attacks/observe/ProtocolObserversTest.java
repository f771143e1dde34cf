package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.optim.DpOptimizer;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.PairwiseNoise;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.DecorCompatibility;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The observers of central DP-SGD and of gossip runs on real runs of the engines (double precision, small
 * networks): without noise the observed vector is the attacked example's gradient at the node's model; with noise
 * it differs from the clipped gradient by exactly the noise the run drew, regenerated here from the seeded streams.
 */
class ProtocolObserversTest {
    private static final ImageShape SHAPE = RandomExamples.SHAPE;
    private static final int CLASSES = 3;
    private static final double CLIP = 0.3;

    private static GroundTruth examples(int m, long seed) {
        return RandomExamples.of(m, CLASSES, seed);
    }

    private static GroundTruth row(GroundTruth data, int r) {
        return RandomExamples.row(data, r);
    }

    private static MultiLayerNetwork net() {
        return TestNetworks.mlp(16, new int[] {6}, CLASSES, Activation.SIGMOID, 4, DataType.DOUBLE);
    }

    /** The gradient of one example at the given parameters, clipped to {@code clip} (infinite: unclipped). */
    private static INDArray clippedGradient(MultiLayerNetwork template, INDArray params, GroundTruth example,
                                            double clip) {
        MultiLayerNetwork model = template.clone();
        model.setParams(params.dup().reshape(1, model.numParams()));
        INDArray g = NetworkGradients.sumOverBatch(model, example.inputs(),
                LabelRows.of(example.labels(), CLASSES, DataType.DOUBLE));
        return g.muli(Math.min(1.0, clip / g.norm2Number().doubleValue()));
    }

    private static double relativeDifference(INDArray actual, INDArray expected) {
        return actual.reshape(-1).sub(expected.reshape(-1)).norm2Number().doubleValue()
                / expected.norm2Number().doubleValue();
    }

    @Test
    void dpSgdReceiverSeesTheClippedGradientPlusExactlyTheStepsNoise() {
        MultiLayerNetwork template = net();
        GroundTruth data = examples(12, 1);
        INDArray labels = LabelRows.of(data.labels(), CLASSES, DataType.DOUBLE);
        DpSgdConfig config = DpSgdConfig.withNoise(CLIP, 1.5, 1e-5, 1, 1)
                .withSampling(SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT);
        NoiseKey key = new NoiseKey(7, "dp-sgd", 0, 0);
        MultiLayerNetwork trained = template.clone();
        PrivateTrainer trainer = PrivateTrainer.create(trained, config, data.inputs(), labels,
                SeededNoiseSource.forKey(key), new SplittableRandom(11));
        SplittableRandom twin = new SplittableRandom(11);
        var replayNoise = SeededNoiseSource.forKey(key);
        DpSgdObserver observer = new DpSgdObserver();
        for (int step = 0; step < 3; step++) {
            int sampled = trainer.sampler().sample(twin)[0];
            GroundTruth truth = row(data, sampled);
            List<AttackCase> seen = new ArrayList<>();
            INDArray[] at = new INDArray[1];
            trainer.addObserver(tap -> {
                at[0] = tap.parameters().dup();
                seen.add(observer.observe(new DpSgdRelease(tap, template), new CaseContext(truth, tap.iteration(),
                        Double.NaN, Map.of())));
            });
            trainer.step();
            AttackCase c = seen.get(seen.size() - 1);
            INDArray noise = replayNoise.gaussian(DataType.DOUBLE, 1.5 * CLIP, 1, template.numParams());
            INDArray expected = clippedGradient(template, at[0], truth, CLIP);
            assertTrue(relativeDifference(c.observed().sub(noise), expected) < 1e-10,
                    "step " + step + ": release - noise = clipped gradient of the sampled example");
            assertEquals(1.5 * CLIP, c.noiseStd(), 1e-15);
            assertFalse(c.scale().knownToAttacker(), "the clip factor is not public");
            assertEquals(expected.norm2Number().doubleValue(), c.scale().factor()
                    * clippedGradient(template, at[0], truth, Double.POSITIVE_INFINITY).norm2Number().doubleValue(),
                    1e-12, "true factor = clip factor");
            assertEquals("dp-sgd", c.provenance().protocol());
            assertEquals(step, c.provenance().round());
        }
    }

    @Test
    void plainSgdReceiverSeesTheExactGradientWithAPublicScale() {
        MultiLayerNetwork template = net();
        MultiLayerNetwork trained = template.clone();
        GroundTruth data = examples(3, 2);
        DpOptimizer sgd = new DpOptimizer(trained, Double.POSITIVE_INFINITY, 0.0, 1,
                SeededNoiseSource.forKey(new NoiseKey(1, "unused", 0, 0)));
        List<AttackCase> seen = new ArrayList<>();
        GroundTruth truth = row(data, 1);
        INDArray before = trained.params().dup();
        sgd.addObserver(tap -> seen.add(new DpSgdObserver().observe(new DpSgdRelease(tap, template),
                new CaseContext(truth, 0, 0.5, Map.of()))));
        sgd.step(truth.inputs(), LabelRows.of(truth.labels(), CLASSES, DataType.DOUBLE));
        AttackCase c = seen.get(0);
        assertTrue(relativeDifference(c.observed(), clippedGradient(template, before, truth,
                Double.POSITIVE_INFINITY)) < 1e-12);
        assertTrue(c.scale().knownToAttacker());
        assertEquals(1.0, c.scale().factor());
        assertEquals("sgd", c.provenance().protocol());
        assertEquals(0.5, c.provenance().modelAccuracy());
    }

    @Test
    void dpSgdObserverRefusesAClippedBatchOfSeveralExamples() {
        MultiLayerNetwork template = net();
        GroundTruth batch = examples(2, 3);
        DpOptimizer dp = new DpOptimizer(template.clone(), CLIP, 1.0, 2,
                SeededNoiseSource.forKey(new NoiseKey(1, "x", 0, 0)));
        IllegalArgumentException[] thrown = new IllegalArgumentException[1];
        dp.addObserver(tap -> thrown[0] = assertThrows(IllegalArgumentException.class,
                () -> new DpSgdObserver().observe(new DpSgdRelease(tap, template),
                        new CaseContext(batch, 0, Double.NaN, Map.of()))));
        dp.step(batch.inputs(), LabelRows.of(batch.labels(), CLASSES, DataType.DOUBLE));
        assertTrue(thrown[0].getMessage().contains("batch size 1"), thrown[0].getMessage());
    }

    /** A gossip run of 4 nodes on a ring, 5 examples each, one sampled per round; observers attack node 2. */
    private static final class GossipFixture {
        final Graph ring = Topologies.ring(4);
        final MultiLayerNetwork template = net();
        final List<NodeData> data = new ArrayList<>();
        final List<GroundTruth> local = new ArrayList<>();
        final DecentralizedConfig config;
        final SeededNoiseStreams streams;

        GossipFixture(DecentralizedAlgorithm algorithm, double sigmaCdp, double sigmaCor) {
            for (int i = 0; i < 4; i++) {
                GroundTruth d = examples(5, 20 + i);
                local.add(d);
                data.add(new NodeData(d.inputs(), LabelRows.of(d.labels(), CLASSES, DataType.DOUBLE)));
            }
            config = new DecentralizedConfig(algorithm, ProtectedUnit.EXAMPLE, LocalObjective.MEAN, CLIP, sigmaCdp,
                    sigmaCor, new LearningRate.Constant(0.2), 0.01, 1, SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT,
                    5, 9, DecorCompatibility.NONE);
            streams = new SeededNoiseStreams(config.seed());
        }

        /** The example node i samples in round t (the engine's sampler on the node's stream). */
        GroundTruth sampled(int node, long round) {
            return row(local.get(node), new FixedSizeSampler(5, 1).sample(streams.sampling(node, round))[0]);
        }

        /** Every node's noise of round t, as the engine drew it: private rows plus B U. */
        INDArray[] noise(long round, long p) {
            INDArray total = Nd4j.zeros(DataType.DOUBLE, 4, p);
            INDArray u = Nd4j.zeros(DataType.DOUBLE, ring.edgeCount(), p);
            if (config.algorithm().isPrivate()) {
                streams.addPrivateNoise(total, round, config.sigmaCdp());
            }
            if (config.algorithm() == DecentralizedAlgorithm.DECOR) {
                u = new PairwiseNoise(ring, DataType.DOUBLE).edgeNoise(streams, round, p, config.sigmaCor());
                total.addi(new PairwiseNoise(ring, DataType.DOUBLE).combine(u));
            }
            return new INDArray[] {total, u};
        }
    }

    @Test
    void dsgdEavesdropperAndAverageModelSeeTheExactGradient() {
        GossipFixture f = new GossipFixture(DecentralizedAlgorithm.DSGD, 0, 0);
        List<AttackCase> eavesdropped = new ArrayList<>();
        List<AttackCase> averaged = new ArrayList<>();
        List<INDArray> expected = new ArrayList<>();
        try (DecentralizedTrainer trainer = DecentralizedTrainer.builder().model(f.template).graph(f.ring).mixing(MixingMatrix.metropolisHastings(f.ring))
                .nodeData(f.data).config(f.config).streams(f.streams).build()) {
            trainer.addObserver(tap -> {
                GroundTruth truth = f.sampled(2, tap.round());
                CaseContext context = new CaseContext(truth, tap.round(), Double.NaN, Map.of());
                INDArray others = Nd4j.zeros(DataType.DOUBLE, 1, f.template.numParams());
                for (int j = 0; j < 4; j++) {
                    if (j != 2) {
                        others.addi(clippedGradient(f.template, tap.before().getRow(j), f.sampled(j, tap.round()),
                                Double.POSITIVE_INFINITY));
                    }
                }
                GossipRound round = new GossipRound(tap, 2, f.template);
                eavesdropped.add(new GossipEavesdropper(f.config).observe(round, context));
                averaged.add(new AverageModelObserver(f.config).observe(new AverageModelView(round, others), context));
                expected.add(clippedGradient(f.template, tap.before().getRow(2), truth, Double.POSITIVE_INFINITY));
            });
            trainer.run(2);
        }
        for (int t = 0; t < 2; t++) {
            AttackCase e = eavesdropped.get(t);
            assertTrue(relativeDifference(e.observed(), expected.get(t)) < 1e-6, "round " + t);
            assertEquals(0.0, e.noiseStd());
            assertTrue(e.scale().knownToAttacker());
            assertEquals("dsgd", e.provenance().protocol());
            AttackCase a = averaged.get(t);
            assertTrue(relativeDifference(a.observed().mul(4), expected.get(t)) < 1e-6, "average, round " + t);
            assertEquals(0.25, a.scale().factor(), 1e-15);
        }
    }

    @Test
    void decorObserversSeeTheClippedGradientPlusExactlyTheirShareOfTheRegeneratedNoise() {
        double sigmaCdp = 0.05;
        double sigmaCor = 0.4;
        GossipFixture f = new GossipFixture(DecentralizedAlgorithm.DECOR, sigmaCdp, sigmaCor);
        long p = f.template.numParams();
        List<AttackCase[]> seen = new ArrayList<>();
        List<INDArray> expected = new ArrayList<>();
        List<INDArray> othersSeen = new ArrayList<>();
        List<IllegalArgumentException> refused = new ArrayList<>();
        try (DecentralizedTrainer trainer = DecentralizedTrainer.builder().model(f.template).graph(f.ring).mixing(MixingMatrix.metropolisHastings(f.ring))
                .nodeData(f.data).config(f.config).streams(f.streams).build()) {
            trainer.addObserver(tap -> {
                GroundTruth truth = f.sampled(2, tap.round());
                CaseContext context = new CaseContext(truth, tap.round(), Double.NaN, Map.of());
                INDArray others = Nd4j.zeros(DataType.DOUBLE, 1, p);
                for (int j = 0; j < 4; j++) {
                    if (j != 2) {
                        others.addi(clippedGradient(f.template, tap.before().getRow(j), f.sampled(j, tap.round()), CLIP));
                    }
                }
                othersSeen.add(others);
                GossipRound round = new GossipRound(tap, 2, f.template);
                seen.add(new AttackCase[] {
                        new GossipEavesdropper(f.config).observe(round, context),
                        new CuriousNeighbour(f.config, 1).observe(round, context),
                        new CuriousNeighbour(f.config, 3).observe(round, context),
                        new AverageModelObserver(f.config).observe(new AverageModelView(round, others), context)});
                expected.add(clippedGradient(f.template, tap.before().getRow(2), truth, CLIP));
                refused.add(assertThrows(IllegalArgumentException.class,
                        () -> new CuriousNeighbour(f.config, 0).observe(round, context)));
            });
            trainer.run(2);
        }
        for (int t = 0; t < 2; t++) {
            INDArray[] drawn = f.noise(t, p);
            INDArray node = drawn[0].getRow(2).reshape(1, p);
            INDArray u = drawn[1];
            AttackCase[] c = seen.get(t);
            assertTrue(relativeDifference(c[0].observed().sub(node), expected.get(t)) < 1e-8,
                    "eavesdropper, round " + t + ": release - (w_2 + v_21 + v_23) = clipped gradient");
            // Node 2 adds -u for edge {1, 2} (it is the higher end) and +u for edge {2, 3}.
            INDArray fromOne = node.add(u.getRow(f.ring.edgeIndex(1, 2)).reshape(1, p));
            INDArray fromThree = node.sub(u.getRow(f.ring.edgeIndex(2, 3)).reshape(1, p));
            assertTrue(relativeDifference(c[1].observed().sub(fromOne), expected.get(t)) < 1e-8, "neighbour 1");
            assertTrue(relativeDifference(c[2].observed().sub(fromThree), expected.get(t)) < 1e-8, "neighbour 3");
            INDArray meanNoise = drawn[0].mean(0).reshape(1, p);
            assertTrue(relativeDifference(c[3].observed().sub(meanNoise).muli(4), expected.get(t)) < 1e-8,
                    "average model: pairwise terms cancel, the private ones are averaged");
            assertEquals(Math.sqrt(sigmaCdp * sigmaCdp + 2 * sigmaCor * sigmaCor), c[0].noiseStd(), 1e-15);
            assertEquals(Math.sqrt(sigmaCdp * sigmaCdp + sigmaCor * sigmaCor), c[1].noiseStd(), 1e-15);
            assertEquals(sigmaCdp / 2, c[3].noiseStd(), 1e-15);
            assertFalse(c[0].scale().knownToAttacker());
            assertEquals("neighbour", c[1].provenance().observer());
            assertEquals("1", c[1].provenance().details().get("neighbour"));
            assertEquals("decor", c[3].provenance().protocol());
        }
        assertTrue(refused.get(0).getMessage().contains("not a neighbour"), refused.get(0).getMessage());
    }
}
