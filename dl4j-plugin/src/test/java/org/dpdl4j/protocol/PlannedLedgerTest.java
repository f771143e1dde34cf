package org.dpdl4j.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.ModelBuilder;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartySplit;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * A protocol prices a run from its settings ({@link Protocol#plannedLedger}) exactly as the built run plans it
 * ({@link TrainingRun#plannedLedger()}), refuses the settings {@code create} refuses with the same error, and builds
 * no model to do it.
 */
class PlannedLedgerTest {
    private static final int FEATURES = 4;
    private static final int CLASSES = 3;
    private static final int EXAMPLES = 120;

    /** Private protocols and settings on which they make a run, as option name / value pairs. */
    static Stream<Arguments> pricedRuns() {
        return Stream.concat(Stream.of(
                Arguments.of("dp-sgd", "epochs 2 batch-size 12 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("dp-sgd", "epochs 1.5 batch-size 10 lr 0.1 clip 1 noise-multiplier 1.1 sampling fixed"),
                Arguments.of("decor", "nodes 6 topology ring rounds 5 batch-size 3 lr 0.1 unit example clip 1 epsilon 3"
                        + " partition skewed"),
                Arguments.of("ldp", "nodes 6 topology ring rounds 4 batch-size 3 lr 0.1 unit user clip 1 sigma-cdp 2"),
                Arguments.of("cdp", "nodes 5 rounds 4 batch-size 2 lr 0.1 unit example clip 1 epsilon 2 partition skewed"),
                Arguments.of("dp-fedavg-local", "machines 4 rounds 3 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("dp-fedavg-central", "machines 8 rounds 3 lr 0.1 clip 1 noise-multiplier 1 client-rate 0.5"),
                Arguments.of("gopa", "machines 6 rounds 3 lr 0.1 clip 1 epsilon 4 gopa-k 2"),
                Arguments.of("mu2-untrusted", "machines 4 rounds 5 epsilon 2"),
                Arguments.of("mu2-trusted", "machines 3 partition skewed noise-multiplier 1 lipschitz 2 smoothness 1")),
                spentAsPlanned());
    }

    /**
     * Private protocols whose charges differ from party to party or from step to step (a token's path, a baton's,
     * a decaying noise), and settings on which they make a run.
     */
    static Stream<Arguments> spentAsPlanned() {
        return Stream.of(
                Arguments.of("random-walk", "machines 5 rounds 20 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("random-walk", "machines 4 partition skewed rounds 12 batch-size 5 lr 0.1 clip 1 noise-multiplier 1.5"),
                Arguments.of("muffliato", "nodes 6 topology ring rounds 4 lr 0.1 clip 1 epsilon 3 gossip-steps 3"),
                Arguments.of("muffliato", "nodes 5 partition skewed rounds 3 lr 0.1 clip 1 epsilon 1 calibrate-to pairwise-mean"
                        + " gossip-steps 2"),
                Arguments.of("muffliato", "nodes 4 rounds 2 lr 0.1 clip 1 noise-multiplier 2 gossip chebyshev"),
                Arguments.of("dp-pg-extra", "nodes 5 topology ring rounds 4 clip 1 epsilon 2 zeta 0.9"),
                Arguments.of("dp-nids", "nodes 4 partition skewed rounds 5 clip 1 noise-multiplier 2"),
                Arguments.of("dp-recal", "nodes 6 rounds 30 clip 1 epsilon 2"),
                // planned for 5 publications each: an agent the baton visits more often stops publishing at the budget
                Arguments.of("dp-recal", "nodes 5 rounds 40 clip 1 epsilon 2 lci 5 zeta 0.95"),
                Arguments.of("dp-recal", "nodes 4 rounds 30 clip 1 noise-multiplier 1 epsilon-budget 20"));
    }

    /** After all its planned steps a run holds exactly the ledger it was priced at: the same entries, the same epsilon. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("spentAsPlanned")
    void aRunSpendsWhatItWasPricedAt(String name, String options) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = settings(protocol, options + " seed 7 noise seeded");
        RunInputs inputs = inputs(new SoftmaxRegression());
        PrivacyLedger priced = protocol.plannedLedger(s, inputs).orElseThrow().ledger();
        try (TrainingRun run = protocol.create(s, inputs)) {
            run.runToEnd();
            RunLedger ledger = run.ledger().orElseThrow();
            assertEquals(priced.entries(), ledger.ledger().entries(), "every step charged as planned");
            double delta = ledger.budget().delta();
            assertEquals(ledger.accounting().bound(priced, delta, Conversion.STANDARD).epsilon(), ledger.epsilon(), 0.0);
        }
    }

    /**
     * A path drawn from secure randomness is secret until the run is built, and so is whom it charges: such a run is
     * not priced in advance, though the built run knows its plan.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("securePaths")
    void aSecretPathIsNotPricedInAdvance(String name, String options) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = settings(protocol, options + " seed 7 noise secure");
        RunInputs inputs = inputs(new SoftmaxRegression());
        assertTrue(protocol.plannedLedger(s, inputs).isEmpty());
        try (TrainingRun run = protocol.create(s, inputs)) {
            assertFalse(run.plannedLedger().orElseThrow().isEmpty());
        }
    }

    static Stream<Arguments> securePaths() {
        return Stream.of(Arguments.of("random-walk", "machines 5 rounds 20 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("dp-recal", "nodes 6 rounds 30 clip 1 epsilon 2"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("pricedRuns")
    void theSettingsArePricedAsTheBuiltRunPlansThem(String name, String options) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = settings(protocol, options + " seed 7 noise seeded");
        RunInputs inputs = inputs(new SoftmaxRegression());
        PlannedLedger pricing = protocol.plannedLedger(s, inputs).orElseThrow();
        PrivacyLedger priced = pricing.ledger();
        try (TrainingRun run = protocol.create(s, inputs)) {
            PrivacyLedger planned = run.plannedLedger().orElseThrow();
            assertEquals(planned.entries(), priced.entries(), "the same events, counts and descriptions");
            RunLedger ledger = run.ledger().orElseThrow();
            assertEquals(ledger.accounting().relation(), pricing.relation());
            double delta = ledger.budget().delta();
            assertEquals(ledger.accounting().bound(planned, delta, Conversion.STANDARD).epsilon(),
                    ledger.accounting().bound(priced, delta, Conversion.STANDARD).epsilon(), 0.0);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("pricedRuns")
    void pricingBuildsNoModel(String name, String options) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = settings(protocol, options + " seed 7 noise seeded");
        assertFalse(protocol.plannedLedger(s, inputs(new UnbuildableModel())).orElseThrow().ledger().isEmpty());
        assertThrows(IllegalStateException.class, () -> protocol.create(s, inputs(new UnbuildableModel())).close(),
                "the same settings build a model when a run is made");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badSettings")
    void badSettingsAreRefusedWithTheErrorOfCreate(String name, String options) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        RunSettings s = settings(protocol, options + " seed 7 noise seeded");
        RunInputs inputs = inputs(new SoftmaxRegression());
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class, () -> protocol.create(s, inputs).close());
        IllegalArgumentException priced = assertThrows(IllegalArgumentException.class, () -> protocol.plannedLedger(s, inputs));
        assertEquals(built.getClass(), priced.getClass());
        assertEquals(built.getMessage(), priced.getMessage());
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("dp-sgd", "epochs 2 batch-size 500 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("dp-sgd", "epochs 2 batch-size 12 clip 1 epsilon 2"),
                Arguments.of("decor", "nodes 6 topology ring rounds 5 batch-size 3 lr 0.1 clip 1 epsilon 3"),
                Arguments.of("ldp", "nodes 6 topology ring rounds 4 batch-size 50 lr 0.1 unit example clip 1 sigma-cdp 2"),
                Arguments.of("cdp", "nodes 500 rounds 4 batch-size 2 lr 0.1 unit example clip 1 epsilon 2"),
                Arguments.of("dp-fedavg-local", "machines 4 rounds 3 lr 0.1 clip 1 epsilon 2 noise-multiplier 1"),
                Arguments.of("gopa", "machines 6 rounds 3 lr 0.1 clip 1 noise-multiplier 1"),
                Arguments.of("mu2-untrusted", "machines 4 rounds 500 epsilon 2"),
                Arguments.of("mu2-trusted", "machines 3 noise-multiplier 1 lipschitz 2"),
                Arguments.of("random-walk", "machines 4 rounds 10 lr 0.1 clip 1"),
                Arguments.of("random-walk", "machines 500 rounds 10 lr 0.1 clip 1 epsilon 2"),
                Arguments.of("muffliato", "nodes 6 rounds 3 lr 0.1 clip 1 noise-multiplier 1 calibrate-to local"),
                Arguments.of("muffliato", "nodes 200 rounds 3 lr 0.1 clip 1 epsilon 1"),
                Arguments.of("dp-pg-extra", "nodes 4 rounds 10 clip 1"),
                Arguments.of("dp-nids", "nodes 200 rounds 3 clip 1 epsilon 1"),
                Arguments.of("dp-recal", "nodes 4 rounds 10 clip 1 epsilon 2 theta 1 mu 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unpriced")
    void aProtocolWithoutAGuaranteeHasNoPlannedLedger(String name, String options) {
        Protocol protocol = ProtocolRegistry.standard().get(name);
        assertTrue(protocol.plannedLedger(settings(protocol, options + " seed 7"), inputs(new UnbuildableModel())).isEmpty());
    }

    static Stream<Arguments> unpriced() {
        return Stream.of(Arguments.of("dsgd", "nodes 4 rounds 2 batch-size 2 lr 0.1"), Arguments.of("fedavg", "machines 4 lr 0.1"),
                Arguments.of("mu2-sgd", "machines 4"));
    }

    /** A split whose first party holds half as many examples as the others: the smallest party decides. */
    @org.junit.jupiter.api.Test
    void theSkewedSplitOfTheseTestsIsUneven() {
        long[] sizes = inputs(new SoftmaxRegression()).train().partySizes(skewed(), 6, 7);
        assertNotEquals(java.util.Arrays.stream(sizes).min().orElseThrow(), java.util.Arrays.stream(sizes).max().orElseThrow());
    }

    static RunSettings settings(Protocol protocol, String pairs) {
        String[] words = pairs.trim().split("\\s+");
        RunSettings s = RunSettings.empty();
        for (int i = 0; i < words.length; i += 2) {
            String option = words[i];
            RunOption<?> o = protocol.options().stream().filter(x -> x.name().equals(option)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(protocol.name() + " does not read --" + option));
            s = s.withText(o, words[i + 1]);
        }
        return s;
    }

    /** Examples of three separable classes; the parties of a split are drawn from the example indices alone. */
    static RunInputs inputs(ModelBuilder model) {
        Random random = new Random(11);
        INDArray features = Nd4j.create(DataType.DOUBLE, EXAMPLES, FEATURES);
        INDArray labels = Nd4j.zeros(DataType.DOUBLE, EXAMPLES, CLASSES);
        int[] classes = new int[EXAMPLES];
        for (int i = 0; i < EXAMPLES; i++) {
            classes[i] = i % CLASSES;
            labels.putScalar(i, classes[i], 1.0);
            for (int j = 0; j < FEATURES; j++) {
                features.putScalar(i, j, random.nextGaussian() + (j == classes[i] ? 2 : 0));
            }
        }
        TrainingSet train = new TrainingSet(features, labels, classes, CLASSES);
        return RunInputs.of(model, train, name -> name.equals("skewed") ? skewed() : roundRobin());
    }

    private static PartySplit roundRobin() {
        return (labels, classes, parties, seed) -> split(labels.length, parties, j -> j % parties);
    }

    private static PartySplit skewed() {
        return (labels, classes, parties, seed) -> split(labels.length, parties, j -> (j % (2 * parties - 1) + 1) / 2);
    }

    private static PartySplit.Parties split(int examples, int parties, java.util.function.IntUnaryOperator partyOf) {
        List<List<Integer>> rows = new ArrayList<>();
        for (int p = 0; p < parties; p++) {
            rows.add(new ArrayList<>());
        }
        for (int j = 0; j < examples; j++) {
            rows.get(partyOf.applyAsInt(j)).add(j);
        }
        for (List<Integer> r : rows) {
            if (r.isEmpty()) {
                throw new IllegalArgumentException("a party would get no example: " + parties + " parties for " + examples
                        + " examples");
            }
        }
        return new PartySplit.Parties(rows.stream().map(r -> r.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new),
                "test split");
    }

    /** Softmax regression: one output layer with bias, the model every protocol here trains (mu^2 included). */
    static class SoftmaxRegression implements ModelBuilder {
        @Override
        public MultiLayerNetwork build(IUpdater updater, double weightDecay, long seed) {
            MultiLayerNetwork net = new MultiLayerNetwork(configuration(updater, weightDecay, seed));
            net.init();
            return net;
        }

        @Override
        public ModelFootprint footprint() {
            return ModelFootprint.of(configuration());
        }

        @Override
        public MultiLayerConfiguration configuration() {
            return configuration(new Sgd(0.1), 0.0, 1L);
        }

        private static MultiLayerConfiguration configuration(IUpdater updater, double weightDecay, long seed) {
            return new NeuralNetConfiguration.Builder().seed(seed).updater(updater).weightDecay(weightDecay)
                    .dataType(DataType.DOUBLE).list()
                    .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(FEATURES).nOut(CLASSES)
                            .activation(Activation.SOFTMAX).build())
                    .build();
        }
    }

    /** The same model's description, but building it fails: pricing must not need it. */
    private static final class UnbuildableModel extends SoftmaxRegression {
        @Override
        public MultiLayerNetwork build(IUpdater updater, double weightDecay, long seed) {
            throw new IllegalStateException("pricing built a model");
        }
    }
}
