package org.dpdl4j.spark;

import static org.dpdl4j.runtime.engine.PartyFixtures.assertBitwise;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.protocol.decentralized.RoundTap;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.PartyFixtures;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Decor on Spark local[2] against the local engine: every round's models, loss and ledger, bit for bit. */
class SparkDecentralizedTest {
    private static final int NODES = 8;
    private static final int ROUNDS = 6;
    private static JavaSparkContext sc;

    @BeforeAll
    static void start() {
        sc = LocalSpark.start("decentralized-test");
    }

    @AfterAll
    static void stop() {
        sc.stop();
    }

    @Test
    void decorWithPoissonBatchesOnAnMlpEqualsTheLocalEngine() {
        List<RoundTap> local = new ArrayList<>();
        List<RoundTap> spark = new ArrayList<>();
        try (DecentralizedTrainer one = mlpDecor(); DecentralizedTrainer split = mlpDecor()) {
            one.addObserver(t -> local.add(copy(t)));
            split.addObserver(t -> spark.add(copy(t)));
            split.distribute(SparkBlocks.on(sc, 4));
            for (int t = 0; t < ROUNDS; t++) {
                one.step();
                split.step();
                assertEquals(Double.doubleToLongBits(one.lastLoss()), Double.doubleToLongBits(split.lastLoss()), "loss, round " + t);
                assertBitwise(one.params(), split.params(), "node models after round " + t);
            }
            assertEquals(one.ledger().orElseThrow().ledger(), split.ledger().orElseThrow().ledger());
            assertEquals(one.epsilon(), split.epsilon());
        }
        for (int t = 0; t < ROUNDS; t++) {
            assertBitwise(local.get(t).halfStep(), spark.get(t).halfStep(), "what travelled in round " + t);
            assertBitwise(local.get(t).edgeNoise(), spark.get(t).edgeNoise(), "pairwise terms of round " + t);
        }
    }

    @Test
    void decorOnTheSyntheticLeastSquaresTaskEqualsTheLocalEngine() {
        try (DecentralizedTrainer one = leastSquaresDecor(); DecentralizedTrainer split = leastSquaresDecor()) {
            split.distribute(SparkBlocks.on(sc, 3));
            one.run(ROUNDS);
            split.run(ROUNDS);
            assertBitwise(one.params(), split.params(), "node models");
            assertEquals(one.epsilon(), split.epsilon());
        }
    }

    private static DecentralizedTrainer mlpDecor() {
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(PartyFixtures.mlp())
                .graph(Topologies.ring(NODES)).nodeData(PartyFixtures.data(NODES, 9)).unit(ProtectedUnit.EXAMPLE).clip(1.0)
                .batchSize(8).sampling(SamplingScheme.POISSON).learningRate(new LearningRate.Constant(0.1)).rounds(ROUNDS)
                .target(8.0, 1e-5).seed(5).noiseKind(NoiseKind.SEEDED).build();
    }

    /** Decor's synthetic task in small: user i's rows (i+1)/sqrt(n) I, full local gradients, user-level clipping. */
    private static DecentralizedTrainer leastSquaresDecor() {
        int d = 6;
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(d, 1, false,
                ModelOptions.defaults().withDataType(DataType.DOUBLE)));
        net.init();
        net.params().assign(1.0);
        List<NodeData> users = new ArrayList<>();
        var random = Nd4j.getRandomFactory().getNewRandomInstance(3);
        for (int i = 0; i < NODES; i++) {
            INDArray a = Nd4j.eye(d).castTo(DataType.DOUBLE).muli((i + 1) / Math.sqrt(NODES));
            users.add(new NodeData(a, random.nextGaussian(new long[]{d, 1}).castTo(DataType.DOUBLE).muli(1.0 / (i + 1))));
        }
        return DecentralizedTrainer.builder().algorithm(DecentralizedAlgorithm.DECOR).model(net).graph(Topologies.ring(NODES))
                .nodeData(users).unit(ProtectedUnit.USER).clip(1.0)
                .objective(LocalObjective.SUM).sampling(SamplingScheme.FULL_BATCH).learningRate(new LearningRate.Constant(1.668e-3))
                .rounds(ROUNDS).target(10.0, 1e-5).seed(7).noiseKind(NoiseKind.SEEDED).build();
    }

    private static RoundTap copy(RoundTap t) {
        return new RoundTap(t.round(), t.eta(), t.weightDecay(), t.before().dup(), t.halfStep().dup(),
                t.edgeNoise() == null ? null : t.edgeNoise().dup(), t.graph());
    }
}
