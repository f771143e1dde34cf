package org.dpdl4j.protocol.decentralized;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.engine.InProcessBlocks;
import org.dpdl4j.runtime.engine.PartyFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The nodes of a decentralized run split into blocks compute, round by round, exactly what one process computes with
 * the same seeded streams: the models bit for bit, the losses, the ledger and what observers see.
 */
class DecentralizedBlocksTest {
    private static final int N = 8;
    private static final int ROUNDS = 5;

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8})
    void decorWithPoissonBatchesOnAnMlpEqualsOneProcess(int blocks) {
        assertSameRuns(() -> mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE),
                blocks);
    }

    @Test
    void theOtherAlgorithmsAndSamplingSchemesEqualOneProcess() {
        assertSameRuns(() -> mlpRun(DecentralizedAlgorithm.LDP, Topologies.star(N), SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT,
                DecorCompatibility.NONE), 3);
        assertSameRuns(() -> mlpRun(DecentralizedAlgorithm.DSGD, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE), 2);
        assertSameRuns(() -> mlpRun(DecentralizedAlgorithm.CDP, null, SamplingScheme.POISSON, DecorCompatibility.NONE), 3);
        assertSameRuns(() -> mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON,
                DecorCompatibility.REFERENCE_CODE), 4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring", "complete"})
    void theSyntheticLeastSquaresTaskEqualsOneProcess(String topology) {
        // Full local gradients in double precision, user-level clipping: the main job's set-up. The short rows make
        // gossip one dense product, which every block takes whole.
        Graph g = topology.equals("ring") ? Topologies.ring(N) : Topologies.complete(N);
        assertSameRuns(() -> DecentralizedTrainer.builder().config(DecentralizedFixtures.config(DecentralizedAlgorithm.DECOR, 2.0, 30.0, ROUNDS))
                .model(DecentralizedFixtures.leastSquares(5)).graph(g).nodeData(DecentralizedFixtures.data(N, 5, 3))
                .noiseKind(NoiseKind.SEEDED).build(), 3);
    }

    @Test
    void observersSeeTheSameMessagesAndEdgeNoise() {
        List<RoundTap> local = new ArrayList<>();
        List<RoundTap> onBlocks = new ArrayList<>();
        try (DecentralizedTrainer a = mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE);
             DecentralizedTrainer b = mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE)) {
            a.addObserver(tap -> local.add(copy(tap)));
            b.addObserver(tap -> onBlocks.add(copy(tap)));
            b.distribute(new InProcessBlocks(3));
            a.run(3);
            b.run(3);
        }
        assertEquals(3, onBlocks.size());
        for (int t = 0; t < 3; t++) {
            assertSame(local.get(t).before(), onBlocks.get(t).before(), "round " + t + ": models before");
            assertSame(local.get(t).halfStep(), onBlocks.get(t).halfStep(), "round " + t + ": messages");
            assertSame(local.get(t).edgeNoise(), onBlocks.get(t).edgeNoise(), "round " + t + ": pairwise terms");
        }
    }

    @Test
    void aCheckpointTakenOnBlocksContinuesInOneProcessAndBack() {
        try (DecentralizedTrainer reference = mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE);
             DecentralizedTrainer first = mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE);
             DecentralizedTrainer second = mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE);
             DecentralizedTrainer third = mlpRun(DecentralizedAlgorithm.DECOR, Topologies.ring(N), SamplingScheme.POISSON, DecorCompatibility.NONE)) {
            reference.run(ROUNDS);
            first.distribute(new InProcessBlocks(2));
            first.run(2);
            RunState saved = first.state();
            second.restore(saved, 2);
            second.run(1);
            third.restore(second.state(), 3);
            third.distribute(new InProcessBlocks(3));
            third.run(ROUNDS - 3);
            assertSame(reference.params(), third.params(), "resumed across engines");
        }
    }

    @Test
    void secureStreamsRunOnBlocksWithEachBlocksOwnKeys() {
        try (DecentralizedTrainer run = secureRun(); DecentralizedTrainer local = secureRun()) {
            run.distribute(new InProcessBlocks(3));
            run.run(2);
            local.run(2);
            INDArray x = run.params();
            assertTrue(java.util.Arrays.stream(x.reshape(x.length()).toDoubleVector()).allMatch(Double::isFinite));
            assertEquals(local.ledger().orElseThrow().ledger(), run.ledger().orElseThrow().ledger());
            assertTrue(run.epsilon() > 0);
            assertThrows(IllegalStateException.class, () -> run.distribute(new InProcessBlocks(2)));
        }
    }

    private static DecentralizedTrainer secureRun() {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(mlp()).graph(Topologies.ring(N))
                .nodeData(mlpData()).unit(ProtectedUnit.EXAMPLE).clip(1.0).batchSize(8).learningRate(new LearningRate.Constant(0.1))
                .rounds(ROUNDS).noise(1.0, 5.0).noiseKind(NoiseKind.SECURE).build();
    }

    /** Runs one process and a split copy side by side, comparing every round. */
    private static void assertSameRuns(java.util.function.Supplier<DecentralizedTrainer> make, int blocks) {
        try (DecentralizedTrainer one = make.get(); DecentralizedTrainer split = make.get()) {
            split.distribute(new InProcessBlocks(blocks));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                assertEquals(Double.doubleToLongBits(one.lastLoss()), Double.doubleToLongBits(split.lastLoss()),
                        "loss of round " + t + ": " + one.lastLoss() + " vs " + split.lastLoss());
                assertSame(one.params(), split.params(), one.protocol() + ", " + blocks + " blocks, round " + t);
            }
            boolean isPrivate = one.config().algorithm().isPrivate();
            assertEquals(isPrivate, one.ledger().isPresent(), "a private run keeps a ledger, a non-private one none");
            assertEquals(isPrivate, split.ledger().isPresent());
            if (isPrivate) {
                assertEquals(one.epsilon(), split.epsilon());
                assertEquals(one.ledger().get().ledger(), split.ledger().get().ledger());
            }
        }
    }

    private static void assertSame(INDArray expected, INDArray actual, String what) {
        PartyFixtures.assertBitwise(expected, actual, what);
    }

    private static RoundTap copy(RoundTap t) {
        return new RoundTap(t.round(), t.eta(), t.weightDecay(), t.before().dup(), t.halfStep().dup(),
                t.edgeNoise() == null ? null : t.edgeNoise().dup(), t.graph());
    }

    private static DecentralizedTrainer mlpRun(DecentralizedAlgorithm algorithm, Graph graph, SamplingScheme sampling,
                                               DecorCompatibility compatibility) {
        DecentralizedRunBuilder b = DecentralizedTrainer.builder().algorithm(algorithm).model(mlp()).nodeData(mlpData())
                .batchSize(8).sampling(sampling).learningRate(new LearningRate.Constant(0.1)).rounds(ROUNDS).seed(5)
                .noiseKind(NoiseKind.SEEDED);
        if (graph == null) {
            b.nodes(N);
        } else {
            b.graph(graph);
        }
        if (algorithm.isPrivate()) {
            b.unit(ProtectedUnit.EXAMPLE).clip(1.0).noise(0.8, algorithm == DecentralizedAlgorithm.DECOR ? 3.0 : 0.0);
        }
        if (algorithm == DecentralizedAlgorithm.DECOR) {
            b.compatibility(compatibility);
        }
        return b.build();
    }

    private static MultiLayerNetwork mlp() {
        return PartyFixtures.mlp();
    }

    private static List<NodeData> mlpData() {
        return PartyFixtures.data(N, 9);
    }
}
