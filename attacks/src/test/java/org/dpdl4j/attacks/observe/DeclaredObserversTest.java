package org.dpdl4j.attacks.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.LabelRows;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Tapped runs are found, not listed: every supplied run agrees with its protocol's declarations, and a protocol
 * registered from the test sources ({@code cyclic-sgd}, one line in {@code META-INF/services}) is attacked through
 * the observer it declares, with the right ground truth.
 */
class DeclaredObserversTest {
    private static final String TEST_PROTOCOL = "cyclic-sgd";
    private static final int CLASSES = 3;
    private static final int[] TARGETS = {4, 19};

    @Test
    void everySuppliedRunIsARegisteredProtocolWithExactlyItsDeclaredObservers() {
        ProtocolScenarios scenarios = ProtocolScenarios.standard();
        ProtocolRegistry registry = scenarios.registry();
        assertEquals(List.of("sgd", "dp-sgd", "dsgd", "decor", "ldp", "cdp", "fedavg", "dp-fedavg-local",
                        "dp-fedavg-central", "gopa", "mu2-sgd", "mu2-untrusted", "mu2-trusted", "recal", "dp-recal",
                        "random-walk"),
                scenarios.supplied().stream().map(ProtocolScenario::algorithm).toList(), "the order of every report");
        for (ProtocolScenario run : scenarios.supplied()) {
            assertTrue(registry.contains(run.algorithm()), run.algorithm() + " is not registered");
            Protocol p = registry.get(run.algorithm());
            assertEquals(p.observers().stream().map(ObserverDeclaration::name).toList(), run.observers(), run.algorithm());
            assertEquals(p.isPrivate(), run.isPrivate(), run.algorithm());
            assertEquals(run, scenarios.of(p).orElseThrow(), "the supplied run, not a generic one");
        }
        for (Protocol p : registry.all()) {
            assertEquals(!p.observers().isEmpty(), scenarios.of(p).isPresent(), p.name());
        }
    }

    @Test
    void aSuppliedRunThatDisagreesWithItsProtocolIsRefused() {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        ProtocolScenario wrongObservers = new ProtocolScenario() {
            @Override
            public String algorithm() {
                return "ldp";
            }

            @Override
            public List<String> observers() {
                return List.of("average model");
            }

            @Override
            public boolean isPrivate() {
                return true;
            }

            @Override
            public ScenarioRun run(RunWorkload workload, double epsilon) {
                throw new UnsupportedOperationException("never run");
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ProtocolScenarios.of(registry, List.of(wrongObservers)));
        assertTrue(e.getMessage().contains("ldp") && e.getMessage().contains("[eavesdropper]"), e.getMessage());
        ProtocolScenario unregistered = new DeclaredObserverRun(renamed(registry.get(TEST_PROTOCOL), "nowhere"));
        e = assertThrows(IllegalStateException.class, () -> ProtocolScenarios.of(registry, List.of(unregistered)));
        assertTrue(e.getMessage().contains("'nowhere', which is not a registered protocol"), e.getMessage());
    }

    @Test
    void theAttackCommandsScenariosAreCheckedAgainstTheRegistry() {
        ProtocolRegistry registry = ProtocolRegistry.standard();
        for (String name : AttackScenarios.names()) {
            AttackScenarios.requireRegistered(AttackScenarios.of(name), registry);
        }
        AttackScenario unknown = scenario("gossip-magic", "gradient");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> AttackScenarios.requireRegistered(unknown, registry));
        assertTrue(e.getMessage().contains("'gossip-magic' is neither a registered protocol nor a family"), e.getMessage());
        AttackScenario undeclared = scenario("fedavg", "eavesdropper");
        e = assertThrows(IllegalStateException.class, () -> AttackScenarios.requireRegistered(undeclared, registry));
        assertTrue(e.getMessage().contains("'eavesdropper', which none of [fedavg] declares"), e.getMessage());
    }

    private static AttackScenario scenario(String name, String observer) {
        return new AttackScenario() {
            @Override
            public String algorithm() {
                return name;
            }

            @Override
            public List<String> observers() {
                return List.of(observer);
            }

            @Override
            public AttackCase build(ScenarioRequest request) {
                throw new UnsupportedOperationException("never built");
            }
        };
    }

    @Test
    void aProtocolFromTheTestSourcesIsFoundWithItsDeclaredObserver() {
        ProtocolScenarios scenarios = ProtocolScenarios.standard();
        Protocol p = scenarios.registry().get(TEST_PROTOCOL);
        ProtocolScenario run = scenarios.of(p).orElseThrow();
        assertInstanceOf(DeclaredObserverRun.class, run);
        assertEquals(List.of("update"), run.observers());
        List<String> all = scenarios.all().stream().map(ProtocolScenario::algorithm).toList();
        assertEquals(TEST_PROTOCOL, all.get(all.size() - 1), "after the supplied runs: " + all);
    }

    @Test
    void theGenericScenarioGivesOneCasePerTargetWithItsTruth() {
        RunWorkload workload = workload();
        ProtocolScenario run = ProtocolScenarios.standard().of(ProtocolRegistry.standard().get(TEST_PROTOCOL)).orElseThrow();
        RunSettings settings = ((DeclaredObserverRun) run).settings(workload, Double.POSITIVE_INFINITY);
        assertEquals(1L, settings.get(RunOptions.BATCH_SIZE).orElseThrow());
        assertEquals(workload.settings().learningRate(), settings.get(RunOptions.LEARNING_RATE).orElseThrow());
        ScenarioRun tapped = run.run(workload, Double.POSITIVE_INFINITY);
        assertEquals(TARGETS.length, tapped.cases().size());
        double lr = workload.settings().learningRate();
        for (int j = 0; j < TARGETS.length; j++) {
            AttackCase c = tapped.cases().get(j);
            assertEquals(workload.truth(TARGETS[j]), c.truth(), "the target behind the release");
            assertEquals("update", c.provenance().observer());
            assertEquals(TEST_PROTOCOL, c.provenance().protocol());
            assertEquals(Integer.toString(TARGETS[j]), c.provenance().details().get("target_index"));
            assertTrue(c.provenance().round() >= workload.settings().attackRound(), "at or after the attack round");
            assertTrue(c.scale().knownToAttacker(), "no clipping: the scale is public");
            assertEquals(lr, c.scale().factor(), 1e-12);
            assertEquals(0.0, c.noiseStd());
            // theta - theta+ = lr * the target's gradient at the model of the release
            INDArray g = NetworkGradients.sumOverBatch(c.model(), c.truth().inputs(),
                    LabelRows.of(c.truth().labels(), CLASSES, c.model().params().dataType())).muli(lr);
            double gap = c.observed().reshape(-1).sub(g.reshape(-1)).norm2Number().doubleValue() / g.norm2Number().doubleValue();
            assertTrue(gap < 1e-4, "relative difference " + gap);
        }
    }

    @Test
    void aRunThatNeverReleasesATargetAloneIsRefusedNamingIt() {
        // Without --batch-size among its options the test protocol keeps its default of two examples per step.
        Protocol pairs = withoutBatchSize(ProtocolRegistry.standard().get(TEST_PROTOCOL));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new DeclaredObserverRun(pairs).run(workload(), Double.POSITIVE_INFINITY));
        assertTrue(e.getMessage().contains("did not release the targets [4, 19] alone"), e.getMessage());
    }

    @Test
    void thePrivateRunIsGivenTheCampaignsAccountantOrRefusedWhenItCannotTakeIt() {
        Protocol cyclic = ProtocolRegistry.standard().get(TEST_PROTOCOL);
        RunWorkload rdp = workload(workload().settings().withAccountant(AccountantFactory.RDP));
        Protocol reading = privateWith(cyclic, List.of(RunOptions.EPSILON, RunOptions.ACCOUNTANT));
        assertEquals(AccountantFactory.RDP, new DeclaredObserverRun(reading).settings(rdp, 1.0).get(RunOptions.ACCOUNTANT)
                .orElseThrow());
        Protocol deaf = privateWith(cyclic, List.of(RunOptions.EPSILON));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DeclaredObserverRun(deaf).settings(rdp, 1.0));
        assertTrue(e.getMessage().contains("does not read --accountant, so the campaign cannot calibrate it with the rdp"
                + " accountant"), e.getMessage());
        // At the default accounting such a protocol prices itself as every protocol does by default.
        assertTrue(new DeclaredObserverRun(deaf).settings(workload(), 1.0).get(RunOptions.ACCOUNTANT).isEmpty());
    }

    @Test
    void aDeclaredObserverOfARunWithoutTheTapIsRefused() {
        Protocol sgd = ProtocolRegistry.standard().get("sgd");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DeclaredObserverRun(sgd).run(workload(), Double.POSITIVE_INFINITY));
        assertTrue(e.getMessage().contains("does not hand out their releases; implement ObservableRun"), e.getMessage());
    }

    private static RunWorkload workload() {
        return workload(new CampaignSettings(7L, 8, 0.1, 1.0, 1e-5, 3));
    }

    private static RunWorkload workload(CampaignSettings settings) {
        int n = 30;
        int side = 4;
        SplittableRandom random = new SplittableRandom(5);
        double[] pixels = new double[n * side * side];
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = random.nextDouble();
        }
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            labels[i] = i % CLASSES;
        }
        LabeledData all = new LabeledData("synthetic", Nd4j.create(pixels, new long[] {n, side * side}, DataType.FLOAT),
                labels, CLASSES);
        return new RunWorkload(all, all.subset(new int[] {0, 1, 2, 3, 5}), TARGETS, new ImageShape(1, side, side),
                settings);
    }

    private static Protocol renamed(Protocol p, String name) {
        return new Delegate(p) {
            @Override
            public String name() {
                return name;
            }
        };
    }

    /** The protocol as if it were private and read the given options besides its own. */
    private static Protocol privateWith(Protocol p, List<RunOption<?>> extra) {
        return new Delegate(p) {
            @Override
            public boolean isPrivate() {
                return true;
            }

            @Override
            public List<RunOption<?>> options() {
                List<RunOption<?>> all = new java.util.ArrayList<>(p.options());
                extra.stream().filter(o -> !all.contains(o)).forEach(all::add);
                return all;
            }
        };
    }

    private static Protocol withoutBatchSize(Protocol p) {
        return new Delegate(p) {
            @Override
            public List<RunOption<?>> options() {
                return p.options().stream().filter(o -> o != RunOptions.BATCH_SIZE).toList();
            }
        };
    }

    /** A protocol that is another one, for tests that change one of its answers. */
    private static class Delegate implements Protocol {
        private final Protocol p;

        Delegate(Protocol p) {
            this.p = p;
        }

        @Override
        public String name() {
            return p.name();
        }

        @Override
        public String family() {
            return p.family();
        }

        @Override
        public String summary() {
            return p.summary();
        }

        @Override
        public boolean isPrivate() {
            return p.isPrivate();
        }

        @Override
        public List<ObserverDeclaration> observers() {
            return p.observers();
        }

        @Override
        public List<RunOption<?>> options() {
            return p.options();
        }

        @Override
        public MemoryEstimate memory(RunSettings settings, RunInputs inputs) {
            return p.memory(settings, inputs);
        }

        @Override
        public TrainingRun create(RunSettings settings, RunInputs inputs) {
            return p.create(settings, inputs);
        }
    }
}
