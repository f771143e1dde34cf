package org.dpdl4j.cli.train;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cli.report.MetricsCsv;
import org.dpdl4j.cli.report.ProgressBar;
import org.dpdl4j.cli.report.Series;
import org.dpdl4j.cli.report.TerminalTable;
import org.dpdl4j.cli.report.TrainingCurves;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.protocol.federated.FederatedCheckpoint;
import org.dpdl4j.protocol.federated.FederatedTrainer;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Sgd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Federated training with a server: DP-mu^2-FL with an untrusted or trusted server, FedAvg, DP-FedAvg with
 * local or central noise, and GOPA averaging. The model is evaluated on the training and test sets every
 * {@code --eval-every} rounds; epsilon so far is shown on the progress bar and written with the metrics.
 */
final class FederatedTrainingJob implements TrainingJob {
    private static final Set<String> MU2 = Set.of("mu2-untrusted", "mu2-trusted");

    @Override
    public Set<String> algorithms() {
        return Set.of("mu2-untrusted", "mu2-trusted", "fedavg", "dp-fedavg-local", "dp-fedavg-central", "gopa");
    }

    @Override
    public Set<String> options() {
        return Set.of("--epsilon", "--delta", "--clip", "--noise-multiplier", "--noise", "--rounds", "--eval-every", "--checkpoint-every",
                "--resume", "--machines", "--split", "--pixels", "--diameter", "--lipschitz", "--smoothness", "--init", "--local-steps",
                "--client-rate", "--client-sampling", "--weighting", "--server-lr", "--gopa-k", "--colluding-fraction",
                "--colluding-sets", "--pairwise-multiplier");
    }

    @Override
    public void run(TrainSettings settings, RunContext ctx) throws Exception {
        CommonOptions.Common c = settings.common();
        boolean mu2 = MU2.contains(c.algorithm());
        rejectForeignOptions(settings, mu2);
        validateBeforeLoading(settings, mu2);
        FederatedData data = FederatedData.load(c, settings.federated(), mu2, ctx);
        MultiLayerNetwork template = new MultiLayerNetwork(data.workload().configuration(c, ModelOptions.defaults().withSeed(c.seed())
                .withUpdater(new Sgd(0.1)).withDataType(DataType.FLOAT)));
        template.init();
        FederatedPlan plan = mu2 ? Mu2Plan.of(settings, data, template) : FedAvgPlan.of(settings, data, template);
        ctx.writeConfig(Map.of("settings", settings, "resolved", plan.resolved()), Map.of("seed", c.seed()));

        DecentralizedOptions.Decentralized d = settings.decentralized();
        List<double[]> rows = new ArrayList<>();
        try (FederatedTrainer trainer = plan.trainer()) {
            long rounds = trainer.plannedRounds();
            long evalEvery = d.evalEvery() != null ? d.evalEvery() : Math.max(1, rounds / 50);
            if (evalEvery < 1) {
                throw new IllegalArgumentException("--eval-every must be at least 1, got " + evalEvery);
            }
            if (d.resume() != null) {
                long from = FederatedCheckpoint.restore(trainer, d.resume());
                ctx.out().println("Resumed from round " + from + " of " + d.resume());
            }
            Path checkpoint = ctx.file("checkpoint.bin");
            List<String> header = new ArrayList<>(List.of("round", "train_loss", "test_loss", "test_accuracy", "round_loss"));
            if (plan.isPrivate()) {
                header.add("epsilon");
            }
            try (MetricsCsv csv = ctx.metrics(header); ProgressBar bar = ctx.progress(plan.label(), rounds, "rounds")) {
                bar.set(trainer.round());
                double windowLoss = 0;
                long windowCount = 0;
                while (trainer.round() < rounds) {
                    trainer.step();
                    bar.step();
                    if (!Double.isNaN(trainer.lastLoss())) {
                        windowLoss += trainer.lastLoss();
                        windowCount++;
                    }
                    if (plan.isPrivate()) {
                        bar.field("eps", plan.epsilon().applyAsDouble(trainer.round()));
                    }
                    if (trainer.round() % evalEvery == 0 || trainer.round() == rounds) {
                        double[] row = evaluate(trainer, data.workload(), plan, windowCount == 0 ? Double.NaN : windowLoss / windowCount);
                        windowLoss = 0;
                        windowCount = 0;
                        rows.add(row);
                        List<Object> values = new ArrayList<>(List.of((long) row[0], row[1], row[2], row[3], row[4]));
                        if (plan.isPrivate()) {
                            values.add(row[5]);
                        }
                        csv.append(values);
                        bar.field("loss", row[2]).field("acc", row[3]);
                    }
                    if (d.checkpointEvery() > 0 && trainer.round() % d.checkpointEvery() == 0) {
                        FederatedCheckpoint.save(trainer, checkpoint);
                    }
                }
                bar.finish();
            }
            FederatedCheckpoint.save(trainer, checkpoint);
            if (plan.isPrivate()) {
                String statement = plan.statement().apply(trainer.round());
                if (settings.privacy().seededNoise()) {
                    statement = "WARNING: --noise seeded: the noise is reproducible from the seed and NOT secure; the epsilon below"
                            + " describes the noise level, not a real guarantee.\n" + statement;
                }
                ctx.writeText("privacy.txt", statement);
                ctx.out().println();
                ctx.out().print(statement);
            }
            ctx.finish(summary(c, data, plan, rows.get(rows.size() - 1), trainer), curves(c.algorithm(), data.workload(), rows));
        }
    }

    /** Options of the other family are errors, not silent no-ops. */
    private static void rejectForeignOptions(TrainSettings s, boolean mu2) {
        FederatedOptions.Federated f = s.federated();
        if (mu2 && (f.localSteps() != 5 || f.clientRate() != 1 || !f.clientSampling().equals("poisson") || !f.weighting().equals("uniform")
                || f.serverRate() != 1 || f.gopaK() != 3 || f.colludingFraction() != 0 || !f.colludingSets().equals("worst")
                || f.pairwiseMultiplier() != null || s.privacy().clipNorm() != null)) {
            throw new IllegalArgumentException("mu2 processes every example once with all machines in every round: --clip, --local-steps,"
                    + " --client-rate, --client-sampling, --weighting, --server-lr and the GOPA options do not apply"
                    + " (its clip is S = G + 2LD, from --lipschitz, --smoothness and --diameter)");
        }
        if (!mu2 && (f.diameter() != 0.1 || f.lipschitz() != null || f.smoothness() != null || f.init() != null)) {
            throw new IllegalArgumentException("--diameter, --lipschitz, --smoothness and --init apply to mu2-untrusted and mu2-trusted only");
        }
        if (!mu2 && !s.common().algorithm().equals("gopa") && (f.gopaK() != 3 || f.colludingFraction() != 0
                || !f.colludingSets().equals("worst"))) {
            throw new IllegalArgumentException("--gopa-k, --colluding-fraction and --colluding-sets apply to gopa only");
        }
    }

    /** Checks that need no data, so a mistake is reported before a long data load. */
    private static void validateBeforeLoading(TrainSettings s, boolean mu2) {
        PrivacyOptions.Privacy p = s.privacy();
        if (p.epsilon() != null) {
            ZCdp.rho(p.epsilon(), p.delta());   // refuses a non-positive or infinite epsilon and a delta outside (0, 1)
        }
        if (s.federated().machines() < 1) {
            throw new IllegalArgumentException("--machines must be at least 1, got " + s.federated().machines());
        }
        if (mu2) {
            Mu2Plan.validate(s);
        } else {
            FedAvgPlan.validate(s);
        }
    }

    /** round, train loss, test loss, test accuracy, mean loss measured during the rounds since the last evaluation, epsilon. */
    private static double[] evaluate(FederatedTrainer trainer, Workload w, FederatedPlan plan, double roundLoss) {
        Evaluation train = Evaluation.ofParams(trainer.template(), trainer.model(), w.train(), w.classification());
        Evaluation test = Evaluation.ofParams(trainer.template(), trainer.model(), w.test(), w.classification());
        double eps = plan.isPrivate() ? plan.epsilon().applyAsDouble(trainer.round()) : Double.NaN;
        return new double[]{trainer.round(), train.loss(), test.loss(), test.accuracy(), roundLoss, eps};
    }

    private static TerminalTable summary(CommonOptions.Common c, FederatedData data, FederatedPlan plan, double[] last,
                                         FederatedTrainer trainer) {
        TerminalTable t = new TerminalTable("Final metrics (" + c.algorithm() + ", " + data.workload().name() + ", "
                + data.workload().model().cliName() + ")", "metric", "value");
        t.addRow("rounds", (long) last[0] + " of " + trainer.plannedRounds());
        t.addRow("train loss", String.format(Locale.ROOT, "%.5f", last[1]));
        t.addRow("test loss", String.format(Locale.ROOT, "%.5f", last[2]));
        t.addRow("test accuracy", String.format(Locale.ROOT, "%.4f", last[3]));
        if (plan.isPrivate()) {
            t.addRow("epsilon", String.format(Locale.ROOT, "%.4f", last[5]));
        }
        plan.summary().forEach(t::addRow);
        return t;
    }

    private static TrainingCurves curves(String algorithm, Workload w, List<double[]> rows) {
        double[] x = rows.stream().mapToDouble(r -> r[0]).toArray();
        List<Series> loss = List.of(new Series("train loss", x, rows.stream().mapToDouble(r -> r[1]).toArray()),
                new Series("test loss", x, rows.stream().mapToDouble(r -> r[2]).toArray()));
        List<Series> acc = List.of(new Series("test accuracy", x, rows.stream().mapToDouble(r -> r[3]).toArray()));
        return new TrainingCurves(algorithm + " - " + w.name(), "round", loss, acc, false);
    }
}
