package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackModels;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.MnistTestSet;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.DecorCompatibility;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The decentralized observer on a real run of the engine: four nodes on a ring, one MNIST digit each, softmax
 * regression. In non-private D-SGD an eavesdropper reads node 2's digit exactly from its round-0 release.
 */
class DecentralizedObserverTest {
    private static final int NODES = 4;

    private static DecentralizedConfig config(DecentralizedAlgorithm algorithm, double sigmaCdp, double sigmaCor) {
        return new DecentralizedConfig(algorithm, ProtectedUnit.USER, LocalObjective.MEAN, 10.0, sigmaCdp, sigmaCor,
                new LearningRate.Constant(0.1), 0.01, 1, SamplingScheme.FULL_BATCH, 1, 7, DecorCompatibility.NONE);
    }

    @Test
    void eavesdropperInvertsAnExactDsgdReleaseAndANeighbourRemovesItsPairwiseTerm() {
        LabeledData mnist = MnistTestSet.load(PixelScaling.UNIT_INTERVAL);
        MultiLayerNetwork template = AttackModels.softmaxRegression(DataType.DOUBLE);
        List<NodeData> data = new ArrayList<>();
        List<GroundTruth> truths = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            GroundTruth truth = MnistTestSet.truth(mnist, new int[] {i}, InputNormalization.NONE, DataType.DOUBLE);
            truths.add(truth);
            data.add(new NodeData(truth.inputs(), LabelRows.of(truth.labels(), 10, DataType.DOUBLE)));
        }
        Graph ring = Topologies.ring(NODES);
        MixingMatrix mixing = MixingMatrix.metropolisHastings(ring);
        DecentralizedObserver observer = new DecentralizedObserver();
        CaseContext context = new CaseContext(truths.get(2), 0, Double.NaN, Map.of());

        AttackCase[] seen = new AttackCase[1];
        DecentralizedConfig dsgd = config(DecentralizedAlgorithm.DSGD, 0, 0);
        try (DecentralizedTrainer trainer = DecentralizedTrainer.builder().model(template).graph(ring).mixing(mixing)
                .nodeData(data).config(dsgd).streams(new SeededNoiseStreams(dsgd.seed())).build()) {
            trainer.addObserver(tap -> seen[0] = observer.observe(new NodeRelease(tap, 2, -1, template,
                    ObservationScale.known(1.0), 1, 0.0), context));
            trainer.step();
        }
        assertNotNull(seen[0], "the observer saw round 0");
        assertEquals("eavesdropper", seen[0].provenance().observer());
        AttackResult result = new AnalyticInversion().attack(seen[0]);
        assertTrue(result.mse() < 1e-10, "D-SGD hides nothing from an eavesdropper: MSE " + result.mse());
        assertTrue(result.allLabelsCorrect());

        DecentralizedConfig decor = config(DecentralizedAlgorithm.DECOR, 0.01, 1.0);
        AttackCase[] views = new AttackCase[2];
        try (DecentralizedTrainer trainer = DecentralizedTrainer.builder().model(template).graph(ring).mixing(mixing)
                .nodeData(data).config(decor).streams(new SeededNoiseStreams(decor.seed())).build()) {
            trainer.addObserver(tap -> {
                views[0] = observer.observe(new NodeRelease(tap, 2, -1, template, ObservationScale.known(1.0), 1,
                        Math.sqrt(0.01 * 0.01 + 2 * 1.0)), context);
                views[1] = observer.observe(new NodeRelease(tap, 2, 1, template, ObservationScale.known(1.0), 1,
                        Math.sqrt(0.01 * 0.01 + 1.0)), context);
            });
            trainer.step();
        }
        assertEquals("neighbour 1", views[1].provenance().observer());
        // The neighbour's view lacks one of the two pairwise terms of variance sigma_cor^2 = 1 per coordinate.
        double removed = views[0].observed().sub(views[1].observed()).norm2Number().doubleValue()
                / Math.sqrt(template.numParams());
        assertEquals(1.0, removed, 0.05, "RMS of the removed pairwise term");
    }
}
