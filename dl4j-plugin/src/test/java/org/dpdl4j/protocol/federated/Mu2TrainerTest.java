package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunAssertions;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.CheckpointException;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 4.7 oracles 4 and 5 (sensitivity, M = 1), the trainer's rounds, checkpoints and refusals. */
class Mu2TrainerTest {
    /** A run of the configuration, accounted (when it adds noise) with the logistic task's constants. */
    private static Mu2Trainer trainer(MultiLayerNetwork net, List<NodeData> data, Mu2Config cfg, NoiseStreams streams) {
        return trainer(net, data, cfg, streams, PrivacyBudget.unlimited(1e-5));
    }

    private static Mu2Trainer trainer(MultiLayerNetwork net, List<NodeData> data, Mu2Config cfg, NoiseStreams streams,
                                      PrivacyBudget budget) {
        return Mu2Trainer.of(net, data, cfg, streams, privacy(cfg, data.size()), budget);
    }

    /** The accounting of a noisy configuration with the logistic task's constants (null without noise). */
    private static Mu2Privacy privacy(Mu2Config cfg, int machines) {
        return cfg.noise().isPrivate()
                ? Mu2Privacy.of(cfg.trust(), logisticConstants().sensitivityBound(), machines, cfg.noise(), 1e-5) : null;
    }

    private static final int N_IN = 6;
    private static final double R = 3.0;          // ||x|| = R for every example
    private static final double D = 2.0;

    /** Logistic regression with ||(x, 1)|| = sqrt(R^2 + 1): G = sqrt(R^2+1), L = (R^2+1)/4, constants that hold. */
    private static Mu2Constants logisticConstants() {
        double r2 = R * R + 1;
        return Mu2Constants.given(Math.sqrt(r2), r2 / 4, D);
    }

    private static List<NodeData> logisticMachines(int machines, int perMachine, long seed) {
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < machines; i++) {
            out.add(new NodeData(FederatedFixtures.onSphere(seed + i, perMachine, N_IN, R), FederatedFixtures.binary(seed + 100 + i, perMachine)));
        }
        return out;
    }

    @Test
    void everyIncrementIsBoundedBySAlongRealTrajectories() {
        Mu2Constants c = logisticConstants();
        int machines = 3;
        long rounds = 60;
        // A large step keeps the iterates moving across the whole ball, where the bound is tightest.
        Mu2Config cfg = Mu2Config.of(ServerTrust.UNTRUSTED, rounds, 1, 0.05, c, NoiseSchedule.constant(0.5), 1);
        double largest = 0;
        try (Mu2Trainer trainer = trainer(FederatedFixtures.logistic(N_IN, 2), logisticMachines(machines, 60, 5), cfg,
                new SeededNoiseStreams(1))) {
            assertEquals(c.sensitivityBound(), trainer.machines().clip(), "a private run clips every q at S");
            for (int t = 0; t < rounds; t++) {
                trainer.step();
                largest = Math.max(largest, trainer.lastStep().maxNormQ());
                assertTrue(trainer.lastStep().maxNormQ() <= c.sensitivityBound() * (1 + 1e-12),
                        "round " + (t + 1) + ": ||q|| = " + trainer.lastStep().maxNormQ() + " > S = " + c.sensitivityBound());
            }
        }
        assertTrue(largest > 0.25 * c.sensitivityBound(), "the bound is exercised, not vacuous: max ||q|| = " + largest);
    }

    @Test
    void replayedOnANeighbouringDatasetMessagesDifferOnlyAfterTheChangeAndByAtMost2S() {
        Mu2Constants c = logisticConstants();
        int t0 = 7;                                   // the replaced example is used in round t0
        int rounds = 20;
        NodeData data = logisticMachines(1, rounds, 9).get(0);
        INDArray altered = data.features().dup();
        altered.putRow(t0 - 1, altered.getRow(t0 - 1).neg());
        INDArray alteredLabels = data.labels().dup();
        alteredLabels.putScalar(t0 - 1, 0, 1.0 - alteredLabels.getDouble(t0 - 1, 0));
        MultiLayerNetwork net = FederatedFixtures.logistic(N_IN, 4);

        // Run on S and record the public query points.
        Mu2Iterates server = new Mu2Iterates(net.params(), c.domain());
        Mu2Machines original = new Mu2Machines(PerExampleGradients.of(net), 1, c.qClip());
        Mu2Machines neighbour = new Mu2Machines(PerExampleGradients.of(net), 1, c.qClip());
        SeededNoiseStreams noise = new SeededNoiseStreams(3);
        double sigma = 2.0;
        for (int t = 1; t <= rounds; t++) {
            INDArray x = server.x().dup();
            INDArray prev = server.previous().dup();
            original.accumulate(x, prev, t, data.features().getRow(t - 1, true).reshape(1, 1, N_IN),
                    data.labels().getRow(t - 1, true).reshape(1, 1, 1));
            neighbour.accumulate(x, prev, t, altered.getRow(t - 1, true).reshape(1, 1, N_IN),
                    alteredLabels.getRow(t - 1, true).reshape(1, 1, 1));
            INDArray m = original.dhat().dup();
            INDArray mPrime = neighbour.dhat().dup();
            noise.privateNoise(0, t).addGaussian(m, sigma);
            noise.privateNoise(0, t).addGaussian(mPrime, sigma);
            double gap = m.sub(mPrime).norm2Number().doubleValue();
            if (t < t0) {
                assertEquals(0.0, gap, 0.0, "round " + t + " precedes the change: identical messages");
            } else {
                assertTrue(gap <= 2 * c.sensitivityBound() * (1 + 1e-12), "round " + t + ": gap " + gap + " > 2S");
                assertTrue(gap > 0, "round " + t + ": the change is visible");
            }
            server.advance(m, 0.05);
        }
    }

    @Test
    void withOneMachineBothTrustModelsDrawTheSameNoiseAndGiveTheSameIterates() {
        Mu2Constants c = logisticConstants();
        long rounds = 30;
        double sigmaUntrusted = Mu2Privacy.calibrate(ServerTrust.UNTRUSTED, c.sensitivityBound(), 1, rounds, 2.0, 1e-5);
        double sigmaTrusted = Mu2Privacy.calibrate(ServerTrust.TRUSTED, c.sensitivityBound(), 1, rounds, 2.0, 1e-5);
        assertEquals(sigmaUntrusted, sigmaTrusted, 0.0, "same noise scale at M = 1");
        List<NodeData> data = logisticMachines(1, 40, 2);
        INDArray[] models = new INDArray[2];
        int i = 0;
        for (ServerTrust trust : ServerTrust.values()) {
            Mu2Config cfg = Mu2Config.of(trust, rounds, 1, 1e-3, c, NoiseSchedule.constant(sigmaUntrusted), 8);
            try (Mu2Trainer trainer = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(8))) {
                trainer.run(rounds);
                models[i++] = trainer.parameters();
            }
        }
        assertArrayEquals(models[0].toDoubleVector(), models[1].toDoubleVector(), 0.0);
        assertFalse(models[0].equalsWithEps(FederatedFixtures.logistic(N_IN, 2).params().reshape(models[0].length()), 1e-9),
                "the model moved");
    }

    @Test
    void trustedNoiseIsSharedOnceWhileUntrustedMachinesEachAddTheirOwn() {
        Mu2Constants c = logisticConstants();
        int machines = 4;
        List<NodeData> data = logisticMachines(machines, 10, 3);
        double sigma = 5.0;
        Mu2Config untrusted = Mu2Config.of(ServerTrust.UNTRUSTED, 1, 1, 1e-3, c, NoiseSchedule.constant(sigma), 1);
        try (Mu2Trainer trainer = trainer(FederatedFixtures.logistic(N_IN, 2), data, untrusted, new SeededNoiseStreams(1))) {
            trainer.step();
            INDArray noiseRows = trainer.lastMessages().sub(trainer.machines().dhat());
            for (int i = 1; i < machines; i++) {
                assertFalse(noiseRows.getRow(i).equalsWithEps(noiseRows.getRow(0), 1e-6), "independent noise per machine");
            }
        }
        Mu2Config trusted = Mu2Config.of(ServerTrust.TRUSTED, 1, 1, 1e-3, c, NoiseSchedule.constant(sigma), 1);
        try (Mu2Trainer trainer = trainer(FederatedFixtures.logistic(N_IN, 2), data, trusted, new SeededNoiseStreams(1))) {
            trainer.step();
            assertEquals(0.0, trainer.lastMessages().sub(trainer.machines().dhat()).norm2Number().doubleValue(), 0.0,
                    "a trusted server receives the raw estimates");
        }
    }

    @Test
    void resumedRunEqualsAnUninterruptedOne(@TempDir Path dir) {
        Mu2Constants c = logisticConstants();
        List<NodeData> data = logisticMachines(3, 20, 4);
        Mu2Config cfg = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, c, NoiseSchedule.constant(0.3), 5);
        Path ckpt = dir.resolve("mu2.ckpt");
        RunAssertions.assertResumeEqualsUninterrupted(
                () -> trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5)), 8, 20, ckpt);
        Mu2Config trusted = Mu2Config.of(ServerTrust.TRUSTED, 20, 1, 0.01, c, NoiseSchedule.constant(0.3), 5);
        try (Mu2Trainer t = trainer(FederatedFixtures.logistic(N_IN, 2), data, trusted, new SeededNoiseStreams(5))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunCheckpoint.resume(t, RunCheckpoint.read(ckpt), ResumePolicy.strict()));
            assertTrue(e.getMessage().contains("mu2-untrusted") && e.getMessage().contains("mu2-trusted"), e.getMessage());
        }
    }

    /**
     * A checkpoint of an earlier version holds its rounds as zCDP statements, calibrated with the papers' closed form:
     * this version would go on with other noise, so the resume is refused, naming the choice; allowed, the saved rounds
     * stay in their own segment of the ledger and are priced conservatively with the new ones.
     */
    @Test
    void aCheckpointWhoseRoundsAreZcdpStatementsIsAMechanismChange(@TempDir Path dir) {
        List<NodeData> data = logisticMachines(3, 20, 4);
        Mu2Config cfg = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, logisticConstants(), NoiseSchedule.constant(0.3), 5);
        Path ckpt = dir.resolve("mu2.ckpt");
        try (Mu2Trainer first = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5))) {
            for (int t = 0; t < 4; t++) {
                first.step();
            }
            RunCheckpoint.save(first, ckpt);
        }
        RunCheckpoint.Saved current = RunCheckpoint.read(ckpt);
        Mu2Privacy privacy = privacy(cfg, data.size());
        org.dpdl4j.privacy.ledger.PrivacyLedger zcdp = new org.dpdl4j.privacy.ledger.PrivacyLedger();
        for (var e : current.ledger().orElseThrow().ledger().entries()) {
            zcdp.add(new org.dpdl4j.privacy.ledger.LedgerEntry(new org.dpdl4j.privacy.accounting.ZCdpEvent(privacy.rho(1)), e.count(),
                    e.party(), e.mechanism(), e.secureNoise(), e.segment()));
        }
        var ledger = current.ledger().orElseThrow();
        RunCheckpoint.Saved earlier = new RunCheckpoint.Saved(current.file(), current.protocol(), current.completedSteps(),
                current.plannedSteps(), current.settings(), java.util.Optional.of(new org.dpdl4j.privacy.ledger.LedgerJson.Saved(
                ledger.relation(), ledger.budget(), zcdp, ledger.accountant())), current.state(), current.notes(), current.writtenAt());
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5))) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(second, earlier, ResumePolicy.strict()));
            assertTrue(e.getMessage().contains("recorded as zCDP statements by an earlier version")
                    && e.getMessage().contains("Start a new run"), e.getMessage());
            assertEquals(0, second.completedSteps());
        }
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5))) {
            assertTrue(RunCheckpoint.resume(second, earlier, ResumePolicy.allowingChanges()).newSegment());
            second.step();
            double rho = 5 * privacy.rho(1);
            assertEquals(ZCdp.epsilon(rho, 1e-5), second.epsilon(), 1e-9 * second.epsilon(),
                    "zCDP prices the mixed ledger, a valid bound on both kinds of rounds");
            assertTrue(second.privacyStatement().contains("resumed under changed settings"), second.privacyStatement());
        }
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5))) {
            assertEquals(4, RunCheckpoint.resume(second, current, ResumePolicy.strict()).fromStep(),
                    "this version's own checkpoint goes on");
        }
    }

    @Test
    void aResumeNeverUsesAnExampleTwice(@TempDir Path dir) {
        Mu2Constants c = logisticConstants();
        List<NodeData> data = logisticMachines(3, 20, 4);
        Path ckpt = dir.resolve("mu2.ckpt");
        Mu2Config twos = Mu2Config.of(ServerTrust.UNTRUSTED, 10, 2, 0.01, c, NoiseSchedule.constant(0.3), 5);
        RunSettings batchTwo = RunSettings.empty().with(RunOptions.BATCH_SIZE, 2L);
        try (Mu2Trainer first = withSettings(data, twos, batchTwo)) {
            for (int t = 0; t < 4; t++) {
                first.step();
            }
            RunCheckpoint.save(first, ckpt);
        }
        // Rounds 1..4 used rows 0..7 of every machine; batches of 1 would take rows 4..7 again in rounds 5..8. Refused
        // from the settings (a command line's run) and, without them (a library run), from the saved state.
        Mu2Config ones = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, c, NoiseSchedule.constant(0.3), 5);
        try (Mu2Trainer second = withSettings(data, ones, RunSettings.empty().with(RunOptions.BATCH_SIZE, 1L))) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(second, RunCheckpoint.read(ckpt), ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("belongs to another run") && e.getMessage().contains("batch-size: 2 -> 1"), e.getMessage());
            assertEquals(0, second.completedSteps());
        }
        Path library = dir.resolve("library.ckpt");
        try (Mu2Trainer first = trainer(FederatedFixtures.logistic(N_IN, 2), data, twos, new SeededNoiseStreams(5))) {
            for (int t = 0; t < 4; t++) {
                first.step();
            }
            RunCheckpoint.save(first, library);
        }
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, ones, new SeededNoiseStreams(5))) {
            double[] start = second.parameters().toDoubleVector();
            Exception e = assertThrows(Exception.class,
                    () -> RunCheckpoint.resume(second, RunCheckpoint.read(library), ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("took 2 example(s) per machine and round, this one 1"), e.getMessage());
            assertEquals(0, second.completedSteps());
            org.junit.jupiter.api.Assertions.assertArrayEquals(start, second.parameters().toDoubleVector(), 0.0, "nothing restored");
        }
        RunSettings otherSplit = batchTwo.with(RunOptions.PARTITION, "dirichlet:0.5");
        try (Mu2Trainer second = withSettings(data, twos, otherSplit)) {
            CheckpointException e = assertThrows(CheckpointException.class,
                    () -> RunCheckpoint.resume(second, RunCheckpoint.read(ckpt), ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("partition: (not set) -> dirichlet:0.5"), e.getMessage());
        }
    }

    /**
     * Every message carries the machines' estimates, which hold the saved rounds' increments clipped at the saved S: a
     * resume (under changed settings) that prices its rounds at a smaller S is refused, a larger S goes on, and a
     * checkpoint that does not record its S cannot be priced.
     */
    @Test
    void aResumePricedAtASmallerClipThanTheSavedEstimatesIsRefused(@TempDir Path dir) {
        List<NodeData> data = logisticMachines(3, 20, 4);
        Mu2Constants c = logisticConstants();
        Mu2Config cfg = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, c, NoiseSchedule.constant(0.3), 5);
        Path ckpt = dir.resolve("mu2.ckpt");
        try (Mu2Trainer first = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5))) {
            for (int t = 0; t < 4; t++) {
                first.step();
            }
            RunCheckpoint.save(first, ckpt);
        }
        Mu2Constants smaller = Mu2Constants.given(c.lipschitz() / 2, c.smoothness(), c.diameter());
        Mu2Config cut = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, smaller, NoiseSchedule.constant(0.3), 5);
        try (Mu2Trainer second = Mu2Trainer.of(FederatedFixtures.logistic(N_IN, 2), data, cut, new SeededNoiseStreams(5),
                Mu2Privacy.of(ServerTrust.UNTRUSTED, smaller.sensitivityBound(), 3, cut.noise(), 1e-5), PrivacyBudget.unlimited(1e-5))) {
            Exception e = assertThrows(Exception.class,
                    () -> RunCheckpoint.resume(second, RunCheckpoint.read(ckpt), ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("clipped their increments at S = " + cfg.qClip())
                    && e.getMessage().contains("start a new run"), e.getMessage());
            assertEquals(0, second.completedSteps());
        }
        Mu2Constants larger = Mu2Constants.given(c.lipschitz() * 2, c.smoothness(), c.diameter());
        Mu2Config wider = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, larger, NoiseSchedule.constant(0.3), 5);
        try (Mu2Trainer second = Mu2Trainer.of(FederatedFixtures.logistic(N_IN, 2), data, wider, new SeededNoiseStreams(5),
                Mu2Privacy.of(ServerTrust.UNTRUSTED, larger.sensitivityBound(), 3, wider.noise(), 1e-5), PrivacyBudget.unlimited(1e-5))) {
            assertEquals(4, RunCheckpoint.resume(second, RunCheckpoint.read(ckpt), ResumePolicy.allowingChanges()).fromStep());
        }
        // A run that clips below its S (a library's choice) carries the saved, larger clip on: a third segment priced at
        // that lower clip is refused too.
        Mu2Config below = new Mu2Config(cfg.trust(), cfg.rounds(), cfg.batchSize(), cfg.stepSize(), cfg.domain(), cfg.qClip() / 4,
                cfg.noise(), cfg.seed());
        Path chained = dir.resolve("chained.ckpt");
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, below, new SeededNoiseStreams(5))) {
            RunCheckpoint.resume(second, RunCheckpoint.read(ckpt), ResumePolicy.allowingChanges());
            second.step();
            RunCheckpoint.save(second, chained);
        }
        Mu2Constants quarter = Mu2Constants.given(c.lipschitz() / 4, c.smoothness() / 4, c.diameter());
        Mu2Config third = Mu2Config.of(ServerTrust.UNTRUSTED, 20, 1, 0.01, quarter, NoiseSchedule.constant(0.3), 5);
        try (Mu2Trainer second = Mu2Trainer.of(FederatedFixtures.logistic(N_IN, 2), data, third, new SeededNoiseStreams(5),
                Mu2Privacy.of(ServerTrust.UNTRUSTED, quarter.sensitivityBound(), 3, third.noise(), 1e-5), PrivacyBudget.unlimited(1e-5))) {
            Exception e = assertThrows(Exception.class,
                    () -> RunCheckpoint.resume(second, RunCheckpoint.read(chained), ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("clipped their increments at S = " + cfg.qClip()), e.getMessage());
        }
        RunCheckpoint.Saved saved = RunCheckpoint.read(ckpt);
        java.util.Map<String, String> numbers = new java.util.HashMap<>(saved.state().numbers());
        numbers.remove("clip");
        RunState.Builder without = RunState.builder();
        saved.state().arrays().forEach(without::array);
        numbers.forEach((name, value) -> {
            if (value.matches("-?\\d+")) {
                without.number(name, Long.parseLong(value));
            } else {
                without.number(name, Double.parseDouble(value));
            }
        });
        RunCheckpoint.Saved older = new RunCheckpoint.Saved(saved.file(), saved.protocol(), saved.completedSteps(),
                saved.plannedSteps(), saved.settings(), saved.ledger(), without.build(), saved.notes(), saved.writtenAt());
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5))) {
            Exception e = assertThrows(Exception.class, () -> RunCheckpoint.resume(second, older, ResumePolicy.strict()));
            assertTrue(e.getMessage().contains("does not record the clip S") && e.getMessage().contains("start a new run"),
                    e.getMessage());
        }
        // a finished checkpoint of an earlier version is still reopened to write its outputs again: no round is priced
        Mu2Config four = Mu2Config.of(ServerTrust.UNTRUSTED, 4, 1, 0.01, c, NoiseSchedule.constant(0.3), 5);
        try (Mu2Trainer second = trainer(FederatedFixtures.logistic(N_IN, 2), data, four, new SeededNoiseStreams(5))) {
            assertEquals(4, RunCheckpoint.reopen(second, older).fromStep());
            assertFalse(second.state().numbers().containsKey("clip"), "a clip it never knew is not recorded");
        }
    }

    private static Mu2Trainer withSettings(List<NodeData> data, Mu2Config cfg, RunSettings settings) {
        Mu2Privacy privacy = privacy(cfg, data.size());
        return new Mu2Trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5), privacy,
                new org.dpdl4j.privacy.ledger.RunLedger(org.dpdl4j.privacy.ledger.LedgerAccounting.standard(privacy.relation()),
                        PrivacyBudget.unlimited(1e-5), false), settings);
    }

    @Test
    void theBudgetStopsTheRunBeforeItIsExceeded() {
        List<NodeData> data = logisticMachines(2, 40, 6);
        Mu2Config cfg = Mu2Config.of(ServerTrust.TRUSTED, 40, 1, 0.01, logisticConstants(), NoiseSchedule.constant(0.8), 5);
        Mu2Privacy privacy = privacy(cfg, data.size());
        // Every round is the same Gaussian mechanism (mu^2 = 2 rho): epsilon after k rounds on the exact curve.
        double rho = privacy.rho(1);
        double budget = RunAssertions.between(GaussianPrivacyCurve.epsilon(Math.sqrt(22 * rho), 1e-5),
                GaussianPrivacyCurve.epsilon(Math.sqrt(24 * rho), 1e-5));
        try (Mu2Trainer t = trainer(FederatedFixtures.logistic(N_IN, 2), data, cfg, new SeededNoiseStreams(5),
                new PrivacyBudget(budget, 1e-5))) {
            RunAssertions.assertStopsAtBudget(t, 11);
            assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(2 * privacy.rho(11)), 1e-5), t.epsilon(), 1e-12 * t.epsilon());
            assertTrue(t.epsilon() < ZCdp.epsilon(privacy.rho(11), 1e-5), "tighter than the papers' zCDP conversion");
        }
    }

    @Test
    void theClipBoundsEveryIncrementWhenTheConstantsDoNotHold() {
        MultiLayerNetwork mlp = FederatedFixtures.mlp(N_IN, 5, 3, 1);
        IllegalArgumentException derive = assertThrows(IllegalArgumentException.class,
                () -> Mu2Constants.fromFeatureBound(PerExampleGradients.of(mlp).spec(), 1.0, D));
        assertTrue(derive.getMessage().contains("--lipschitz") && derive.getMessage().contains("2 layers"), derive.getMessage());
        // A non-convex model, and a convex one whose given G and L are far below the truth (the data's norm is 5 sqrt(N_IN)
        // times larger): in both every increment enters the estimate with norm <= S, so the sensitivity 2S holds.
        Mu2Constants given = Mu2Constants.given(0.2, 0.1, D);
        List<NodeData> mlpData = List.of(new NodeData(FederatedFixtures.gaussian(2, 30, N_IN).muli(5), FederatedFixtures.oneHot(3, 30, 3)));
        assertClipBinds(mlp, mlpData, given);
        assertClipBinds(FederatedFixtures.logistic(N_IN, 2), List.of(new NodeData(FederatedFixtures.onSphere(4, 30, N_IN, 20 * R),
                FederatedFixtures.binary(5, 30))), given);
    }

    private static void assertClipBinds(MultiLayerNetwork net, List<NodeData> data, Mu2Constants constants) {
        Mu2Config cfg = Mu2Config.of(ServerTrust.UNTRUSTED, 30, 1, 0.05, constants, NoiseSchedule.constant(0.5), 1);
        Mu2Privacy privacy = Mu2Privacy.of(cfg.trust(), constants.sensitivityBound(), 1, cfg.noise(), 1e-5);
        try (Mu2Trainer trainer = Mu2Trainer.of(net, data, cfg, new SeededNoiseStreams(1), privacy, PrivacyBudget.unlimited(1e-5))) {
            long clipped = 0;
            for (int t = 0; t < 30; t++) {
                trainer.step();
                clipped += trainer.lastStep().clippedMachines();
            }
            assertTrue(clipped > 0, "the small S is binding");
            // Every increment entered the estimate with norm <= S, so ||dhat_T|| <= T S.
            assertTrue(trainer.machines().dhat().norm2Number().doubleValue() <= 30 * constants.sensitivityBound() * (1 + 1e-12));
        }
    }

    @Test
    void featureBoundsGiveTheConstantsOfSpec46() {
        Mu2Constants softmax = Mu2Constants.fromFeatureBound(PerExampleGradients.of(FederatedFixtures.softmax(N_IN, 3, 1)).spec(), R, 0.1);
        assertEquals(Math.sqrt(2 * (R * R + 1)), softmax.lipschitz(), 1e-12);
        assertEquals((R * R + 1) / 2, softmax.smoothness(), 1e-12);
        Mu2Constants logistic = Mu2Constants.fromFeatureBound(PerExampleGradients.of(FederatedFixtures.logistic(N_IN, 2)).spec(), R, D);
        assertEquals(logisticConstants().lipschitz(), logistic.lipschitz(), 1e-12);
        assertEquals(logisticConstants().smoothness(), logistic.smoothness(), 1e-12);
        // MNIST: pixels in [0, 1], B = sqrt(784): G = sqrt(2 * 785) and L = 785 / 2, as in spec 4.6
        assertEquals(28.0, Mu2Constants.defaultFeatureBound(784), 0.0);
        assertTrue(softmax.describe().contains("public feature bound"), softmax.describe());
        for (double bad : new double[]{0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> Mu2Constants.fromFeatureBound(
                    PerExampleGradients.of(FederatedFixtures.logistic(N_IN, 2)).spec(), bad, D));
        }
    }

    @Test
    void badInputIsRefusedWithTheReason() {
        Mu2Constants c = logisticConstants();
        Mu2Config cfg = Mu2Config.of(ServerTrust.UNTRUSTED, 50, 1, 0.01, c, NoiseSchedule.constant(1), 1);
        IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class,
                () -> trainer(FederatedFixtures.logistic(N_IN, 2), logisticMachines(2, 30, 1), cfg, new SeededNoiseStreams(1)));
        assertTrue(tooFew.getMessage().contains("machine 0 has 30 examples") && tooFew.getMessage().contains("at most 30 rounds"),
                tooFew.getMessage());
        IllegalArgumentException wrongWidth = assertThrows(IllegalArgumentException.class,
                () -> trainer(FederatedFixtures.logistic(N_IN + 1, 2), logisticMachines(2, 60, 1), cfg, new SeededNoiseStreams(1)));
        assertTrue(wrongWidth.getMessage().contains("features but the model takes"), wrongWidth.getMessage());
        for (ParameterBall domain : List.of(ParameterBall.unbounded(), new ParameterBall(D))) {
            IllegalArgumentException unclipped = assertThrows(IllegalArgumentException.class,
                    () -> new Mu2Config(ServerTrust.UNTRUSTED, 10, 1, 0.1, domain, Double.POSITIVE_INFINITY, NoiseSchedule.constant(1), 1));
            assertTrue(unclipped.getMessage().contains("give a finite clip"), unclipped.getMessage());
        }
        Mu2Config looseClip = new Mu2Config(ServerTrust.UNTRUSTED, 30, 1, 0.01, new ParameterBall(D), 2 * c.sensitivityBound(),
                NoiseSchedule.constant(1), 1);
        IllegalArgumentException beyondS = assertThrows(IllegalArgumentException.class,
                () -> trainer(FederatedFixtures.logistic(N_IN, 2), logisticMachines(2, 30, 1), looseClip, new SeededNoiseStreams(1)));
        assertTrue(beyondS.getMessage().contains("the run clips them at"), beyondS.getMessage());
        IllegalArgumentException infiniteD = assertThrows(IllegalArgumentException.class,
                () -> Mu2Constants.given(1, 1, Double.POSITIVE_INFINITY));
        assertTrue(infiniteD.getMessage().contains("finite diameter"), infiniteD.getMessage());
        IllegalArgumentException noRounds = assertThrows(IllegalArgumentException.class,
                () -> Mu2Config.of(ServerTrust.TRUSTED, 0, 1, 0.1, c, NoiseSchedule.none(), 1));
        assertTrue(noRounds.getMessage().contains("rounds T must be >= 1"), noRounds.getMessage());
    }
}
