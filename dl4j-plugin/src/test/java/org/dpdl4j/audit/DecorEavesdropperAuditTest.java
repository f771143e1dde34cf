package org.dpdl4j.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedRunBuilder;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The eavesdropper's user-level audit of Decor and LDP with canaries at one node: it never catches a correct run, and
 * catches noise 10x too small and pairwise noise the ledger counts but the nodes do not add.
 */
class DecorEavesdropperAuditTest {
    private static final int NODES = 8;
    private static final int EXAMPLES = 10;
    private static final int FEATURES = 6;
    /** Features 0 on every example: their weights carry no data gradient, room for the canaries. */
    private static final int ZERO_FEATURES = 250;
    private static final int HIDDEN = 4;
    private static final int CANARIES = ZERO_FEATURES * HIDDEN;
    private static final double EPSILON = 1.0;
    /**
     * The claim the missing-pairwise-noise test audits: its run is about sqrt(7) times less private than claimed (on a
     * ring of 8, kappa of a node's own message over the claimed kappa), which one run shows only at a larger claim.
     */
    private static final double LARGER_EPSILON = 2.5;
    private static final double DELTA = 1e-5;
    private static final long ROUNDS = 10;
    private static final int CANARY_NODE = 3;

    private record Audited(double epsilon, double sigmaCdp, double sigmaCor, double kappa, double ledgerKappa,
                           AuditResult audit) {
    }

    private static MultiLayerNetwork model(long seed) {
        return FederatedFixtures.mlp(FEATURES + ZERO_FEATURES, HIDDEN, 2, seed);
    }

    private static List<NodeData> nodes(long seed) {
        List<NodeData> out = new ArrayList<>();
        for (int k = 0; k < NODES; k++) {
            INDArray x = FederatedFixtures.gaussian(seed + 10 * k, EXAMPLES, FEATURES + ZERO_FEATURES);
            x.get(NDArrayIndex.all(), NDArrayIndex.interval(FEATURES, FEATURES + ZERO_FEATURES)).assign(0);
            out.add(new NodeData(x, FederatedFixtures.oneHot(seed + 10 * k + 1, EXAMPLES, 2)));
        }
        return out;
    }

    private static DecentralizedRunBuilder builder(DecentralizedAlgorithm algorithm, long seed) {
        return DecentralizedTrainer.builder().algorithm(algorithm).model(model(seed)).graph(Topologies.ring(NODES))
                .nodeData(nodes(seed)).unit(ProtectedUnit.USER).clip(1.0).sampling(SamplingScheme.FULL_BATCH)
                .learningRate(new LearningRate.Constant(0.1)).rounds(ROUNDS).noiseKind(NoiseKind.SEEDED).seed(seed);
    }

    private static CanaryNode canaries(long seed) {
        int[] coordinates = ZeroGradientCoordinates.find(model(seed), nodes(seed).get(0).features()).first(CANARIES);
        return new CanaryNode(CanaryClients.dirac(coordinates, 1.0, NeighbouringRelation.REPLACE_ONE,
                new SplittableRandom(seed + 3)), CANARY_NODE);
    }

    /** The noise the target calls for. */
    private static double[] calibrated(DecentralizedAlgorithm algorithm, long seed) {
        return calibrated(algorithm, seed, EPSILON);
    }

    private static double[] calibrated(DecentralizedAlgorithm algorithm, long seed, double epsilon) {
        try (DecentralizedTrainer probe = builder(algorithm, seed).target(epsilon, DELTA).build()) {
            return new double[]{probe.config().sigmaCdp(), probe.config().sigmaCor()};
        }
    }

    /** Audits a run with the given noise, drawn from {@code streams} when not null. */
    private static Audited audit(DecentralizedAlgorithm algorithm, long seed, double sigmaCdp, double sigmaCor,
                                 NoiseStreams streams, EavesdropperStatistic statistic) {
        CanaryNode planted = canaries(seed);
        DecentralizedRunBuilder b = builder(algorithm, seed).noise(sigmaCdp, sigmaCor).delta(DELTA).planted(planted);
        if (streams != null) {
            b.streams(streams);
        }
        try (DecentralizedTrainer run = b.build()) {
            EavesdropperAudit eavesdropper = new EavesdropperAudit(run, planted, statistic);
            run.addObserver(eavesdropper);
            run.runToEnd();
            assertEquals(ROUNDS, eavesdropper.rounds());
            AuditResult result = AuditResult.of(eavesdropper.scores(), planted.canaries().coins(), GuessPlan.sweep(CANARIES),
                    DELTA, OneRunAudit.DEFAULT_CONFIDENCE);
            return new Audited(run.epsilon(), sigmaCdp, sigmaCor, eavesdropper.kappa(), run.privacy().kappaValue(), result);
        }
    }

    private static Audited audit(DecentralizedAlgorithm algorithm, long seed, double divideNoiseBy) {
        double[] sigma = calibrated(algorithm, seed);
        return audit(algorithm, seed, sigma[0] / divideNoiseBy, sigma[1] / divideNoiseBy, null,
                EavesdropperStatistic.LIKELIHOOD_RATIO);
    }

    @Test
    void theEavesdropperNeverCatchesACorrectDecorRun() {
        for (long seed = 1; seed <= 3; seed++) {
            Audited a = audit(DecentralizedAlgorithm.DECOR, seed, 1);
            assertTrue(a.epsilon() <= EPSILON + 1e-9, "calibrated to the target: " + a.epsilon());
            // On a ring every node is equally exposed: the canaries' node faces the ledger's kappa.
            assertEquals(a.ledgerKappa(), a.kappa(), 1e-9 * a.ledgerKappa());
            System.out.println("likelihood ratio, correct, seed " + seed + ": sigma_cdp " + a.sigmaCdp() + ", sigma_cor "
                    + a.sigmaCor() + ", kappa " + a.kappa() + "\n" + a.audit().text());
            assertTrue(a.audit().epsilonLower() <= a.epsilon(), "seed " + seed + ": " + a.audit().text());
            assertTrue(a.audit().auc() > 0.5, "the eavesdropper sees the canaries' node's messages: " + a.audit().text());
        }
    }

    @Test
    void theEavesdropperCatchesDecorNoiseTenTimesTooSmall() {
        Audited broken = audit(DecentralizedAlgorithm.DECOR, 4, 10);
        System.out.println("likelihood ratio, noise / 10: " + broken.audit().text());
        assertTrue(broken.audit().epsilonLower() > EPSILON, "claimed " + EPSILON + ": " + broken.audit().text());
    }

    @Test
    void theEavesdropperNeverCatchesACorrectLdpRunAndCatchesItsNoiseTenTimesTooSmall() {
        Audited correct = audit(DecentralizedAlgorithm.LDP, 5, 1);
        assertTrue(correct.audit().epsilonLower() <= correct.epsilon(), correct.audit().text());
        Audited broken = audit(DecentralizedAlgorithm.LDP, 5, 10);
        System.out.println("LDP correct: " + correct.audit().text() + "LDP noise / 10: " + broken.audit().text());
        assertTrue(broken.audit().epsilonLower() > EPSILON, "claimed " + EPSILON + ": " + broken.audit().text());
    }

    @Test
    void theOwnMessageNeverCatchesACorrectDecorRun() {
        for (long seed = 1; seed <= 3; seed++) {
            double[] sigma = calibrated(DecentralizedAlgorithm.DECOR, seed);
            Audited a = audit(DecentralizedAlgorithm.DECOR, seed, sigma[0], sigma[1], null, EavesdropperStatistic.OWN_MESSAGE);
            System.out.println("own message, correct, seed " + seed + ": " + a.audit().text());
            assertTrue(a.audit().epsilonLower() <= a.epsilon(), "seed " + seed + ": " + a.audit().text());
        }
    }

    @Test
    void theOwnMessageCatchesPairwiseNoiseCountedButNotAdded() {
        long seed = 6;
        double[] sigma = calibrated(DecentralizedAlgorithm.DECOR, seed, LARGER_EPSILON);
        Audited correct = audit(DecentralizedAlgorithm.DECOR, seed, sigma[0], sigma[1], null, EavesdropperStatistic.OWN_MESSAGE);
        System.out.println("own message, correct, claim " + correct.epsilon() + ": " + correct.audit().text());
        assertTrue(correct.audit().epsilonLower() <= correct.epsilon(), correct.audit().text());
        NoiseStreams missing = new WithoutPairwiseNoise(NoiseKind.SEEDED.streams(Topologies.ring(NODES), seed));
        Audited broken = audit(DecentralizedAlgorithm.DECOR, seed, sigma[0], sigma[1], missing,
                EavesdropperStatistic.OWN_MESSAGE);
        System.out.println("pairwise noise missing: sigma_cdp " + sigma[0] + ", sigma_cor " + sigma[1] + "\n"
                + broken.audit().text());
        assertTrue(broken.audit().epsilonLower() > broken.epsilon(), "claimed " + broken.epsilon() + ": "
                + broken.audit().text());
        // The likelihood ratio for the claimed noise reads the node mostly through the average, where nothing is missing.
        Audited blind = audit(DecentralizedAlgorithm.DECOR, seed, sigma[0], sigma[1],
                new WithoutPairwiseNoise(NoiseKind.SEEDED.streams(Topologies.ring(NODES), seed)),
                EavesdropperStatistic.LIKELIHOOD_RATIO);
        System.out.println("pairwise noise missing, likelihood ratio: " + blind.audit().text());
    }

    @Test
    void refusesARunItCannotAudit() {
        CanaryNode planted = canaries(1);
        try (DecentralizedTrainer run = DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.CDP).model(model(1))
                .nodes(NODES).nodeData(nodes(1)).unit(ProtectedUnit.USER).clip(1.0).sampling(SamplingScheme.FULL_BATCH)
                .learningRate(new LearningRate.Constant(0.1)).rounds(ROUNDS).noiseKind(NoiseKind.SEEDED).seed(1)
                .noise(1.0, 0).delta(DELTA).planted(planted).build()) {
            assertThrows(IllegalArgumentException.class, () -> new EavesdropperAudit(run, planted));
        }
        assertThrows(IllegalArgumentException.class,
                () -> builder(DecentralizedAlgorithm.DSGD, 1).planted(planted).build());
    }

    /** Seeded streams whose pairwise terms are all zero: a Decor whose ledger counts noise its nodes never add. */
    private record WithoutPairwiseNoise(NoiseStreams inner) implements NoiseStreams {
        @Override
        public NoiseSource privateNoise(int node, long round) {
            return inner.privateNoise(node, round);
        }

        @Override
        public NoiseSource pairwiseNoise(int edge, long round) {
            throw new UnsupportedOperationException("these streams draw the pairwise noise as whole arrays only");
        }

        @Override
        public java.util.random.RandomGenerator sampling(int node, long round) {
            return inner.sampling(node, round);
        }

        @Override
        public void addPrivateNoise(INDArray rows, long round, double std) {
            inner.addPrivateNoise(rows, round, std);
        }

        @Override
        public void writePrivateNoise(INDArray rows, long round, double std) {
            inner.writePrivateNoise(rows, round, std);
        }

        @Override
        public void addPairwiseNoise(INDArray rows, long round, double std) {
        }

        @Override
        public void writePairwiseNoise(INDArray rows, long round, double std) {
            rows.assign(0);
        }

        @Override
        public boolean isSecure() {
            return false;
        }

        @Override
        public String description() {
            return inner.description() + " without pairwise noise";
        }
    }
}
