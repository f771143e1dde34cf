package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.recal.BatonPublication;
import org.dpdl4j.protocol.recal.Penalty;
import org.dpdl4j.protocol.recal.PrimalDualAlgorithm;
import org.dpdl4j.protocol.recal.PrimalDualRunBuilder;
import org.dpdl4j.protocol.recal.RelayRecal;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The eavesdroppers on RECAL's baton, on real relay runs in double precision: the oracle's vector is the attacked
 * record's gradient at the agent's x_old (exactly without noise; with DP-RECAL's noise, off by noise of exactly the
 * std the observer states), and the protocol scenario hands the analytic inversion an exact reconstruction from
 * RECAL and noise from DP-RECAL.
 */
class RelayObserversTest {
    private static final int CLASSES = 3;

    private record Tapped(RelayRecal run, List<BatonPublication> publications, GroundTruth target, MultiLayerNetwork template) {
    }

    /** A ring of 4 agents; agent 0 holds one record, the others 20; every publication of agent 0 is tapped. */
    private static Tapped relay(PrimalDualAlgorithm algorithm, double clip, long iterations) {
        GroundTruth data = RandomExamples.of(61, CLASSES, 5);
        MultiLayerNetwork template = TestNetworks.leastSquares(16, CLASSES, 3, DataType.DOUBLE);
        INDArray labels = LabelRows.of(data.labels(), CLASSES, DataType.DOUBLE);
        List<NodeData> agents = new ArrayList<>();
        agents.add(new NodeData(data.inputs().getRow(0).reshape(1, 16), labels.getRow(0).reshape(1, CLASSES)));
        for (int a = 0; a < 3; a++) {
            agents.add(new NodeData(data.inputs().get(org.nd4j.linalg.indexing.NDArrayIndex.interval(1 + 20 * a, 21 + 20 * a),
                    org.nd4j.linalg.indexing.NDArrayIndex.all()), labels.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(
                    1 + 20 * a, 21 + 20 * a), org.nd4j.linalg.indexing.NDArrayIndex.all())));
        }
        PrimalDualRunBuilder builder = PrimalDualRunBuilder.of(algorithm).model(template).agents(agents)
                .graph(Topologies.ring(4)).iterations(iterations).penalty(Penalty.l1(0.01)).noiseKind(NoiseKind.SEEDED).seed(8);
        if (algorithm.isPrivate()) {
            builder.clip(clip).noiseMultiplier(0.7).zeta(0.995);
        }
        RelayRecal run = (RelayRecal) builder.build();
        List<BatonPublication> tapped = new ArrayList<>();
        run.tapPublications(p -> {
            if (p.agent() == 0) {
                tapped.add(p);
            }
        });
        run.runToEnd();
        return new Tapped(run, tapped, RandomExamples.row(data, 0), template);
    }

    private static INDArray recordGradient(MultiLayerNetwork model, GroundTruth record) {
        return NetworkGradients.sumOverBatch(model, record.inputs(), LabelRows.of(record.labels(), CLASSES, DataType.DOUBLE))
                .reshape(-1);
    }

    @Test
    void theOracleReadsTheRecordGradientExactlyFromRecal() {
        Tapped t = relay(PrimalDualAlgorithm.RECAL, Double.POSITIVE_INFINITY, 200);
        assertTrue(t.publications().size() > 20, "agent 0 published " + t.publications().size() + " times");
        BatonEavesdropper oracle = new BatonEavesdropper("recal");
        BatonIncrementObserver increment = new BatonIncrementObserver("recal");
        for (BatonPublication p : t.publications()) {
            BatonRelease release = new BatonRelease(p, t.run().linearModel(), Double.POSITIVE_INFINITY);
            CaseContext context = new CaseContext(t.target(), p.iteration(), Double.NaN, Map.of());
            AttackCase c = oracle.observe(release, context);
            INDArray expected = recordGradient(release.modelAtRelease(), t.target());
            assertEquals(0.0, c.observed().reshape(-1).sub(expected).norm2Number().doubleValue()
                    / expected.norm2Number().doubleValue(), 1e-10, "publication " + p.activation());
            assertTrue(c.scale().knownToAttacker());
            assertEquals(0.0, c.noiseStd());
            // The increment is 2 beta tau times the gradient plus affine terms: not the gradient itself.
            AttackCase raw = increment.observe(release, context);
            assertEquals(2 * p.beta() * p.tau(), raw.scale().factor(), 1e-15);
            assertEquals(t.run().linearModel().flat(p.increment().neg()), raw.observed().reshape(-1));
        }
    }

    @Test
    void underDpRecalTheOracleSeesTheClippedGradientPlusNoiseOfTheStatedStd() {
        double clip = 0.2;
        Tapped t = relay(PrimalDualAlgorithm.DP_RECAL, clip, 1200);
        BatonEavesdropper oracle = new BatonEavesdropper("dp-recal");
        double sumSquares = 0;
        long count = 0;
        double firstStd = Double.NaN;
        double lastStd = Double.NaN;
        for (BatonPublication p : t.publications()) {
            BatonRelease release = new BatonRelease(p, t.run().linearModel(), clip);
            AttackCase c = oracle.observe(release, new CaseContext(t.target(), p.iteration(), Double.NaN, Map.of()));
            INDArray g = recordGradient(release.modelAtRelease(), t.target());
            double factor = Math.min(1, clip / g.norm2Number().doubleValue());
            assertFalse(c.scale().knownToAttacker());
            assertEquals(factor, c.scale().factor(), 1e-12);
            assertEquals(p.noiseStd() / (2 * p.beta() * p.tau()), c.noiseStd(), 1e-12);
            INDArray residual = c.observed().reshape(-1).sub(g.mul(factor)).divi(c.noiseStd());
            sumSquares += residual.norm2Number().doubleValue() * residual.norm2Number().doubleValue();
            count += residual.length();
            firstStd = Double.isNaN(firstStd) ? c.noiseStd() : firstStd;
            lastStd = c.noiseStd();
        }
        assertTrue(count > 10_000, count + " noise samples");
        double variance = sumSquares / count;
        assertEquals(1.0, variance, 0.05, "the residual over the stated std must have unit variance, got " + variance);
        assertTrue(lastStd < firstStd, "the noise decays with the agent's activations (zeta < 1)");
    }

    @Test
    void theScenarioLeaksTheRecordUnderRecalAndNoiseUnderDpRecal() {
        RunWorkload workload = syntheticWorkload();
        AnalyticInversion analytic = new AnalyticInversion();
        ScenarioRun clear = new RelayRecalRun(false).run(workload, Double.POSITIVE_INFINITY);
        assertEquals(4, clear.cases().size(), "two targets, two observers");
        for (AttackCase c : clear.cases()) {
            if (c.provenance().observer().equals("eavesdropper")) {
                AttackResult r = analytic.attack(c);
                assertTrue(r.images().get(0).mse() < 1e-10, "RECAL: analytic MSE " + r.images().get(0).mse());
                assertTrue(c.provenance().round() >= 6, "released at or after the attack round");
            }
        }
        ScenarioRun noisy = new RelayRecalRun(true).run(workload, 1.0);
        assertTrue(noisy.calibration().get("noise").contains("sigma_0"), noisy.calibration().toString());
        for (AttackCase c : noisy.cases()) {
            assertTrue(c.noiseStd() > 1, "calibrated noise on the gradient " + c.noiseStd());
            if (c.provenance().observer().equals("eavesdropper")) {
                double mse = analytic.attack(c).images().get(0).mse();
                assertTrue(mse > 0.01, "DP-RECAL: analytic MSE " + mse);
            }
        }
    }

    private static RunWorkload syntheticWorkload() {
        int n = 7 * RelayRecalRun.RECORDS_PER_AGENT + 20;
        SplittableRandom random = new SplittableRandom(17);
        int side = 12;  // SSIM's window needs 11 x 11 pixels at least
        double[] pixels = new double[n * side * side];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = random.nextDouble();
        }
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            labels[i] = random.nextInt(CLASSES);
        }
        LabeledData all = new LabeledData("synthetic", Nd4j.create(pixels, new long[] {n, side * side}, DataType.FLOAT), labels, CLASSES);
        LabeledData test = all.subset(java.util.stream.IntStream.range(0, 50).toArray());
        return new RunWorkload(all, test, new int[] {3, 11}, new org.dpdl4j.models.ImageShape(1, side, side), CampaignSettings.defaults().withAttackRound(6));
    }
}
