package org.dpdl4j.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Private personalized coordinate descent is priced from its settings as the built run plans it and as it spends:
 * with seeded noise its wake-up schedule, and with it every release, follows from the seed.
 */
class PersonalizedPlannedLedgerTest {
    private static final String NAME = "dp-personalized-cd";
    private static final int USERS = 6;
    private static final int DIMENSION = 3;

    static Stream<Arguments> runs() {
        return Stream.of(Arguments.of("rounds 60 epsilon 1"),
                // users of different sizes: their charges differ, and the optimal split differs from wake to wake
                Arguments.of("rounds 50 epsilon 2 allocation optimal"),
                Arguments.of("rounds 40 epsilon 2 releases 5 release gaussian release-delta 1e-6"),
                // more ticks than releases: later wake-ups charge nothing
                Arguments.of("rounds 80 epsilon 1 releases 3 trade-off 0.5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void aRunSpendsWhatItWasPricedAt(String options) {
        Protocol protocol = ProtocolRegistry.standard().get(NAME);
        RunSettings s = PlannedLedgerTest.settings(protocol, options + " seed 7 noise seeded");
        RunInputs inputs = inputs();
        PlannedLedger pricing = protocol.plannedLedger(s, inputs).orElseThrow();
        PrivacyLedger priced = pricing.ledger();
        assertFalse(priced.isEmpty());
        try (TrainingRun run = protocol.create(s, inputs)) {
            PrivacyLedger planned = run.plannedLedger().orElseThrow();
            assertEquals(priced.entries(), planned.entries(), "the built run plans what was priced");
            RunLedger ledger = run.ledger().orElseThrow();
            assertEquals(ledger.accounting().relation(), pricing.relation());
            run.runToEnd();
            assertEquals(priced.entries(), ledger.ledger().entries(), "every tick charged as planned");
            double delta = ledger.budget().delta();
            double pricedEpsilon = ledger.accounting().bound(priced, delta, Conversion.STANDARD).epsilon();
            assertEquals(pricedEpsilon, ledger.accounting().bound(planned, delta, Conversion.STANDARD).epsilon(), 0.0);
            assertEquals(pricedEpsilon, ledger.epsilon(), 0.0);
        }
    }

    /** The schedule drawn from secure randomness is secret until the run is built, and so is what each user spends. */
    @Test
    void aSecretScheduleIsNotPricedInAdvance() {
        Protocol protocol = ProtocolRegistry.standard().get(NAME);
        RunSettings s = PlannedLedgerTest.settings(protocol, "rounds 60 epsilon 1 seed 7 noise secure");
        assertTrue(protocol.plannedLedger(s, inputs()).isEmpty());
        try (TrainingRun run = protocol.create(s, inputs())) {
            assertFalse(run.plannedLedger().orElseThrow().isEmpty());
        }
    }

    @Test
    void theNonPrivateProtocolsAreNotPriced() {
        for (String name : List.of("personalized-cd", "model-propagation", "personalized-admm")) {
            Protocol protocol = ProtocolRegistry.standard().get(name);
            assertTrue(protocol.plannedLedger(PlannedLedgerTest.settings(protocol, "rounds 10 seed 7"), inputs()).isEmpty(), name);
        }
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(Arguments.of("rounds 40", "seeded"), Arguments.of("rounds 40", "secure"),
                Arguments.of("rounds 40 epsilon 1 release-delta 1e-6", "seeded"),
                Arguments.of("rounds 40 epsilon 1 release-delta 1e-6", "secure"),
                Arguments.of("epsilon 1", "seeded"));
    }

    @ParameterizedTest(name = "{0} noise {1}")
    @MethodSource("badSettings")
    void badSettingsAreRefusedWithTheErrorOfCreate(String options, String noise) {
        Protocol protocol = ProtocolRegistry.standard().get(NAME);
        RunSettings s = PlannedLedgerTest.settings(protocol, options + " seed 7 noise " + noise);
        RunInputs inputs = inputs();
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class, () -> protocol.create(s, inputs).close());
        IllegalArgumentException priced = assertThrows(IllegalArgumentException.class, () -> protocol.plannedLedger(s, inputs));
        assertEquals(built.getClass(), priced.getClass());
        assertEquals(built.getMessage(), priced.getMessage());
    }

    /** Features of norm 3 > L_0 = 1: the calibration would under-state the sensitivity, whatever the noise. */
    @ParameterizedTest(name = "noise {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"seeded", "secure"})
    void featuresTheLossBoundDoesNotCoverAreRefusedAlike(String noise) {
        Protocol protocol = ProtocolRegistry.standard().get(NAME);
        RunSettings s = PlannedLedgerTest.settings(protocol, "rounds 40 epsilon 1 seed 7 noise " + noise);
        RunInputs inputs = inputs(3.0);
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class, () -> protocol.create(s, inputs).close());
        IllegalArgumentException priced = assertThrows(IllegalArgumentException.class, () -> protocol.plannedLedger(s, inputs));
        assertEquals(built.getMessage(), priced.getMessage());
    }

    @Test
    void dataWithoutUsersIsRefusedAlike() {
        Protocol protocol = ProtocolRegistry.standard().get(NAME);
        RunSettings s = PlannedLedgerTest.settings(protocol, "rounds 40 epsilon 1 seed 7 noise seeded");
        RunInputs inputs = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class, () -> protocol.create(s, inputs).close());
        IllegalArgumentException priced = assertThrows(IllegalArgumentException.class, () -> protocol.plannedLedger(s, inputs));
        assertEquals(built.getMessage(), priced.getMessage());
    }

    /** Users of 4 to 9 examples with features of L1 (and so L2) norm at most 1, on a ring of similarities. */
    static RunInputs inputs() {
        return inputs(1.0);
    }

    /** The same users with every feature row scaled by {@code scale}. */
    static RunInputs inputs(double scale) {
        Random random = new Random(5);
        List<NodeData> users = new ArrayList<>();
        for (int u = 0; u < USERS; u++) {
            int m = 4 + u;
            INDArray features = Nd4j.create(DataType.DOUBLE, m, DIMENSION);
            INDArray labels = Nd4j.zeros(DataType.DOUBLE, m, 1);
            for (int r = 0; r < m; r++) {
                double[] row = new double[DIMENSION];
                double l1 = 0;
                for (int j = 0; j < DIMENSION; j++) {
                    row[j] = random.nextGaussian();
                    l1 += Math.abs(row[j]);
                }
                for (int j = 0; j < DIMENSION; j++) {
                    features.putScalar(r, j, scale * row[j] / (l1 + 0.1));
                }
                labels.putScalar(r, 0, r % 2);
            }
            users.add(new NodeData(features, labels));
        }
        double[][] graph = new double[USERS][USERS];
        for (int u = 0; u < USERS; u++) {
            graph[u][(u + 1) % USERS] = 1;
            graph[(u + 1) % USERS][u] = 1;
        }
        RunInputs base = PlannedLedgerTest.inputs(new PlannedLedgerTest.SoftmaxRegression());
        return new RunInputs(base.model(), base.train(), base.splits(), users, graph);
    }
}
