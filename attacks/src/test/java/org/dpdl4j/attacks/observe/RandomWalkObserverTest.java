package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.randomwalk.RandomWalkSgd;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The next holder of random-walk SGD's token, on real walks in double precision: without clipping and noise its vector
 * is the attacked party's record gradient at the token it received, from whose first layer the record reads back
 * exactly; with clipping and noise the scale is unknown to it and the noise is the walk's own.
 */
class RandomWalkObserverTest {
    private static final int CLASSES = 3;

    private record Hop(RandomWalkHop hop, GroundTruth record, int[] path) {
    }

    /** Three parties; party 0 holds one record, the others 20; the walk stops after party 0's first update. */
    private static Hop walk(double clip, double sigma) {
        GroundTruth data = RandomExamples.of(41, CLASSES, 7);
        MultiLayerNetwork template = TestNetworks.mlp(16, new int[] {6}, CLASSES, Activation.SIGMOID, 2, DataType.DOUBLE);
        INDArray labels = LabelRows.of(data.labels(), CLASSES, DataType.DOUBLE);
        List<NodeData> parties = new ArrayList<>();
        parties.add(new NodeData(data.inputs().getRow(0).reshape(1, 16), labels.getRow(0).reshape(1, CLASSES)));
        for (int p = 0; p < 2; p++) {
            parties.add(new NodeData(data.inputs().get(NDArrayIndex.interval(1 + 20 * p, 21 + 20 * p), NDArrayIndex.all()),
                    labels.get(NDArrayIndex.interval(1 + 20 * p, 21 + 20 * p), NDArrayIndex.all())));
        }
        var builder = RandomWalkSgd.builder().model(template).parties(parties).steps(60).stepSize(0.3).batchSize(5)
                .noiseKind(NoiseKind.SEEDED).seed(4);
        if (sigma > 0) {
            builder.gradientBound(clip).sigma(sigma);
        } else {
            builder.sigma(0);
        }
        RandomWalkSgd run = builder.build();
        int[] path = run.path();
        int hop = 5;
        while (path[hop] != 0) {
            hop++;
        }
        while (run.completedSteps() < hop) {
            run.step();
        }
        INDArray before = run.parameters();
        run.step();
        MultiLayerNetwork model = template.clone();
        model.setParams(before.reshape(1, before.length()));
        return new Hop(new RandomWalkHop(model, before, run.parameters(), 0.3, clip, sigma, 0, hop),
                RandomExamples.row(data, 0), path);
    }

    @Test
    void withoutNoiseTheHopIsTheRecordGradientAndTheRecordComesBack() {
        Hop h = walk(Double.POSITIVE_INFINITY, 0);
        AttackCase c = new RandomWalkObserver().observe(h.hop(), new CaseContext(h.record(), h.hop().step(), 0.5, Map.of()));
        INDArray truth = NetworkGradients.sumOverBatch(h.hop().model(), h.record().inputs(),
                LabelRows.of(h.record().labels(), CLASSES, DataType.DOUBLE)).reshape(-1);
        assertEquals(0.0, c.observed().reshape(-1).sub(truth).norm2Number().doubleValue(), 1e-10 * truth.norm2Number().doubleValue());
        assertTrue(c.scale().knownToAttacker());
        // The first layer's gradient is rank one in the record: any unit's weight column over its bias is the record.
        INDArray w = c.target().split(c.observed()).get(0).weights();
        INDArray b = c.target().split(c.observed()).get(0).bias();
        int unit = b.argMax().getInt(0);
        INDArray x = w.getColumn(unit).div(b.getDouble(unit));
        assertEquals(0.0, x.sub(h.record().inputs().reshape(-1)).amaxNumber().doubleValue(), 1e-10);
        assertEquals("random-walk", c.provenance().protocol());
    }

    @Test
    void withClippingTheScaleIsUnknownAndTheNoiseIsTheWalks() {
        Hop h = walk(0.01, 0.2);
        AttackCase c = new RandomWalkObserver().observe(h.hop(), new CaseContext(h.record(), h.hop().step(), 0.5, Map.of()));
        assertFalse(c.scale().knownToAttacker(), "the clip factor is not known to the next holder");
        assertEquals(0.2, c.noiseStd(), 0.0);
        assertEquals("0.200000", c.provenance().details().get("noise_std"));
    }
}
