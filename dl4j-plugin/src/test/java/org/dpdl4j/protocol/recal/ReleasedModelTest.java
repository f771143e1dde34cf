package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunState;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the primal-dual protocols release is a post-processing of what they published: the private gossip baselines'
 * model is the mean of the agents' last publications (the initial model before any), never their exact iterates,
 * which only the convergence measure reads; and no protocol's local iterates count as released.
 */
class ReleasedModelTest {
    private static final List<NodeData> DATA = LassoInstances.agents(6, 40, 12, 2, 3);

    private static CompositeRun run(PrimalDualAlgorithm algorithm, long iterations) {
        PrimalDualRunBuilder b = PrimalDualRunBuilder.of(algorithm).model(LassoInstances.leastSquares(12, 2, false)).agents(DATA)
                .penalty(Penalty.l1(0.5)).graph(Topologies.ring(6)).iterations(iterations).noiseKind(NoiseKind.SEEDED).seed(5);
        return algorithm.isPrivate() ? b.clip(4).target(2, 1e-5).build() : b.build();
    }

    private static double distance(INDArray a, INDArray b) {
        return a.sub(b).norm2Number().doubleValue();
    }

    @Test
    void dpNidsReleasesTheInitialModelUntilItsFirstPublication() {
        try (CompositeRun nids = run(PrimalDualAlgorithm.DP_NIDS, 1)) {
            nids.runToEnd();
            GossipRun gossip = (GossipRun) nids;
            assertEquals(0, gossip.publications(), "the first iteration of NIDS publishes nothing");
            assertEquals(0.0, nids.output().norm2Number().doubleValue(), 0.0, "nothing published, nothing learned is released");
            assertTrue(gossip.iterate().norm2Number().doubleValue() > 0, "though the agents' exact iterates moved");
            assertTrue(nids.privacyStatement().contains("nothing yet: the initial model"), nids.privacyStatement());
        }
    }

    @Test
    void privateGossipReleasesWhatWasPublishedAndNonPrivateItsIterates() {
        for (PrimalDualAlgorithm algorithm : List.of(PrimalDualAlgorithm.DP_PG_EXTRA, PrimalDualAlgorithm.DP_NIDS)) {
            try (CompositeRun run = run(algorithm, 8)) {
                run.runToEnd();
                GossipRun gossip = (GossipRun) run;
                // noise calibrated to epsilon 2 on 40 records: the published mean is far from the exact iterates
                assertTrue(distance(run.output(), gossip.iterate()) > 0.1 * gossip.iterate().norm2Number().doubleValue(),
                        algorithm + ": the released model is the published, noisy one");
                assertFalse(run.partyModelsReleased(), algorithm + ": the local iterates are internal state");
                // a checkpoint keeps what was published: the resumed run releases the same model
                RunState state = run.state();
                try (CompositeRun again = run(algorithm, 8)) {
                    again.restore(state, run.completedSteps());
                    assertEquals(0.0, distance(run.output(), again.output()), 0.0, algorithm + " after a resume");
                }
            }
        }
        for (PrimalDualAlgorithm algorithm : List.of(PrimalDualAlgorithm.PG_EXTRA, PrimalDualAlgorithm.NIDS)) {
            try (CompositeRun run = run(algorithm, 8)) {
                run.runToEnd();
                assertEquals(0.0, distance(run.output(), ((GossipRun) run).iterate()), 0.0, algorithm + ": no noise, the iterates");
            }
        }
    }

    @Test
    void aPrivateCheckpointWithoutItsPublicationsIsRefused() {
        try (CompositeRun run = run(PrimalDualAlgorithm.DP_PG_EXTRA, 8)) {
            run.run(3);
            RunState state = run.state();
            RunState.Builder old = RunState.builder();
            state.numbers().forEach((k, v) -> old.number(k, Long.parseLong(v)));   // messages and publications
            state.arrays().forEach((k, v) -> {
                if (!k.equals("published")) {
                    old.array(k, v);
                }
            });
            try (CompositeRun again = run(PrimalDualAlgorithm.DP_PG_EXTRA, 8)) {
                IllegalStateException refused = assertThrows(IllegalStateException.class, () -> again.restore(old.build(), 3));
                assertTrue(refused.getMessage().contains("Start the run again"), refused.getMessage());
            }
        }
    }
}
