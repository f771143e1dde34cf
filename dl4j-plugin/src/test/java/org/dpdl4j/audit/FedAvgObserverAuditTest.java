package org.dpdl4j.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.federated.FedAvgRunBuilder;
import org.dpdl4j.protocol.federated.FedAvgTrainer;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.FederatedFixtures;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunListener;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Per-observer audits of DP-FedAvg with canary clients: the server of local-noise DP-FedAvg and the observer of the
 * released aggregate of central-noise DP-FedAvg never catch a correct run, and catch one whose noise is 10x too small.
 */
class FedAvgObserverAuditTest {
    private static final int CLIENTS = 20;
    private static final int EXAMPLES = 20;
    private static final int FEATURES = 10;
    /** Features 0 on every example: their weights to the hidden units carry no client update, room for the canaries. */
    private static final int ZERO_FEATURES = 50;
    private static final int HIDDEN = 4;
    private static final int CANARIES = ZERO_FEATURES * HIDDEN;
    private static final double EPSILON = 1.0;
    private static final double DELTA = 1e-5;
    private static final long ROUNDS = 10;

    private record Audited(double epsilon, double noiseMultiplier, AuditResult audit) {
    }

    private static MultiLayerNetwork model(long seed) {
        return FederatedFixtures.mlp(FEATURES + ZERO_FEATURES, HIDDEN, 2, seed);
    }

    private static List<NodeData> clients(long seed) {
        List<NodeData> out = new ArrayList<>();
        for (int k = 0; k < CLIENTS; k++) {
            INDArray x = FederatedFixtures.gaussian(seed + 10 * k, EXAMPLES, FEATURES + ZERO_FEATURES);
            x.get(NDArrayIndex.all(), NDArrayIndex.interval(FEATURES, FEATURES + ZERO_FEATURES)).assign(0);
            out.add(new NodeData(x, FederatedFixtures.oneHot(seed + 10 * k + 1, EXAMPLES, 2)));
        }
        return out;
    }

    private static FedAvgRunBuilder builder(FedAvgVariant variant, double clientRate, long seed) {
        return FedAvgTrainer.builder().variant(variant).model(model(seed)).clients(clients(seed)).rounds(ROUNDS)
                .localSteps(1).localBatch(0).localRate(new LearningRate.Constant(0.1)).clientSampling(clientRate, false)
                .clip(1.0).noiseKind(NoiseKind.SEEDED).seed(seed);
    }

    private static CanaryClients canaries(NeighbouringRelation relation, long seed) {
        MultiLayerNetwork net = model(seed);
        int[] coordinates = ZeroGradientCoordinates.find(net, clients(seed).get(0).features()).first(CANARIES);
        return CanaryClients.dirac(coordinates, 1.0, relation, new SplittableRandom(seed + 3));
    }

    /** Audits a run at the target, or with the given noise multiplier when it is positive. */
    private static Audited audit(FedAvgVariant variant, double clientRate, long seed, double noiseMultiplier) {
        NeighbouringRelation relation = variant == FedAvgVariant.DP_CENTRAL && clientRate < 1
                ? NeighbouringRelation.ADD_OR_REMOVE_ONE : NeighbouringRelation.REPLACE_ONE;
        CanaryClients canaries = canaries(relation, seed);
        FedAvgRunBuilder b = builder(variant, clientRate, seed).planted(canaries);
        if (noiseMultiplier > 0) {
            b.noiseMultipliers(noiseMultiplier, Double.NaN).delta(DELTA);
        } else {
            b.target(EPSILON, DELTA);
        }
        try (FedAvgTrainer run = b.build()) {
            RunListener auditor;
            double[] scores;
            if (variant == FedAvgVariant.DP_LOCAL) {
                ServerObserverAudit server = new ServerObserverAudit(run, canaries);
                run.addListener(server);
                run.runToEnd();
                scores = server.scores();
                assertEquals(ROUNDS * canaries.canaries(), server.observations(), "every canary sends in every round");
            } else {
                AggregateObserverAudit aggregate = new AggregateObserverAudit(run, canaries);
                run.addListener(aggregate);
                run.runToEnd();
                scores = aggregate.scores();
            }
            AuditResult result = AuditResult.of(scores, canaries.coins(), GuessPlan.sweep(CANARIES), DELTA,
                    OneRunAudit.DEFAULT_CONFIDENCE);
            return new Audited(run.epsilon(), run.config().noiseMultiplier(), result);
        }
    }

    @Test
    void theServerNeverCatchesCorrectLocalNoise() {
        for (long seed = 1; seed <= 3; seed++) {
            Audited a = audit(FedAvgVariant.DP_LOCAL, 1.0, seed, 0);
            assertTrue(a.epsilon() <= EPSILON + 1e-9, "calibrated to the target: " + a.epsilon());
            assertTrue(a.audit().epsilonLower() <= a.epsilon(), "seed " + seed + ": " + a.audit().text());
            assertTrue(a.audit().auc() > 0.5, "the server sees each canary's own message: " + a.audit().text());
        }
    }

    @Test
    void theServerCatchesLocalNoiseTenTimesTooSmall() {
        Audited correct = audit(FedAvgVariant.DP_LOCAL, 1.0, 4, 0);
        Audited broken = audit(FedAvgVariant.DP_LOCAL, 1.0, 4, correct.noiseMultiplier() / 10);
        assertTrue(broken.audit().epsilonLower() > correct.epsilon(), "claimed " + correct.epsilon() + ": "
                + broken.audit().text());
    }

    @Test
    void theAggregateNeverCatchesCorrectCentralNoise() {
        for (long seed = 1; seed <= 3; seed++) {
            Audited a = audit(FedAvgVariant.DP_CENTRAL, 0.5, seed, 0);
            assertTrue(a.audit().epsilonLower() <= a.epsilon(), "seed " + seed + ": " + a.audit().text());
        }
        Audited everyone = audit(FedAvgVariant.DP_CENTRAL, 1.0, 5, 0);
        assertTrue(everyone.audit().epsilonLower() <= everyone.epsilon(), everyone.audit().text());
    }

    @Test
    void theAggregateCatchesCentralNoiseTenTimesTooSmall() {
        Audited correct = audit(FedAvgVariant.DP_CENTRAL, 0.5, 4, 0);
        Audited broken = audit(FedAvgVariant.DP_CENTRAL, 0.5, 4, correct.noiseMultiplier() / 10);
        assertTrue(broken.audit().epsilonLower() > correct.epsilon(), "claimed " + correct.epsilon() + ": "
                + broken.audit().text());
    }

    @Test
    void plantedClientsLeaveTheRealClientsRunAsWithout() {
        // With rate 1 every real client trains on the same model in round 1: the real rows of the update match.
        try (FedAvgTrainer plain = builder(FedAvgVariant.DP_LOCAL, 1.0, 7).target(EPSILON, DELTA).build();
             FedAvgTrainer withCanaries = builder(FedAvgVariant.DP_LOCAL, 1.0, 7).target(EPSILON, DELTA)
                     .planted(canaries(NeighbouringRelation.REPLACE_ONE, 7)).build()) {
            plain.step();
            withCanaries.step();
            assertEquals(CLIENTS + CANARIES, withCanaries.clientCount());
            assertEquals(plain.lastMessages(), withCanaries.lastMessages().get(NDArrayIndex.interval(0, CLIENTS), NDArrayIndex.all()));
        }
    }

    @Test
    void observersRefuseAProtocolTheyDoNotSee() {
        CanaryClients canaries = canaries(NeighbouringRelation.REPLACE_ONE, 1);
        try (FedAvgTrainer central = builder(FedAvgVariant.DP_CENTRAL, 1.0, 1).target(EPSILON, DELTA).planted(canaries).build()) {
            assertThrows(IllegalArgumentException.class, () -> new ServerObserverAudit(central, canaries));
        }
        assertThrows(IllegalArgumentException.class, () -> builder(FedAvgVariant.GOPA, 1.0, 1).target(EPSILON, DELTA)
                .planted(canaries).build());
    }
}
