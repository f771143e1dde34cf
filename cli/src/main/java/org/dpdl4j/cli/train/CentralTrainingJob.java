package org.dpdl4j.cli.train;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.cli.report.MetricsCsv;
import org.dpdl4j.cli.report.ProgressBar;
import org.dpdl4j.cli.report.Series;
import org.dpdl4j.cli.report.TerminalTable;
import org.dpdl4j.cli.report.TrainingCurves;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.PrivacyBudgetExceededException;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Centralised training: plain mini-batch SGD with DL4J's {@code fit}, or central DP-SGD
 * ({@code --privacy central}: per-example clipping, Gaussian noise, Poisson sampling, RDP accounting).
 */
final class CentralTrainingJob implements TrainingJob {

    @Override
    public Set<String> algorithms() {
        return Set.of("sgd");
    }

    @Override
    public Set<String> options() {
        return Set.of("--privacy", "--epsilon", "--delta", "--clip", "--noise-multiplier", "--sampling", "--noise");
    }

    @Override
    public void run(TrainSettings settings, RunContext ctx) throws Exception {
        CommonOptions.Common c = settings.common();
        PrivacyOptions.Privacy p = settings.privacy();
        boolean dp = switch (p.mode()) {
            case "none" -> false;
            case "central" -> true;
            default -> throw new IllegalArgumentException("unknown --privacy '" + p.mode() + "'; use none or central");
        };
        if (!dp && (p.epsilon() != null || p.clipNorm() != null || p.noiseMultiplier() != null)) {
            throw new IllegalArgumentException("--epsilon, --clip and --noise-multiplier need --privacy central");
        }
        DatasetDefaults defaults = DatasetDefaults.of(c.dataset());
        Workload w = Workload.load(c);
        int epochs = c.epochs() != null ? c.epochs() : (w.synthetic() != null ? 500 : defaults.epochs());
        int batch = c.batchSize() != null ? c.batchSize() : (w.synthetic() != null ? (int) w.train().size() : defaults.batchSize());
        double lr = c.learningRate() != null ? c.learningRate() : (w.synthetic() != null ? 0.2 : defaults.learningRate());
        DataType type = w.synthetic() != null ? DataType.DOUBLE : DataType.FLOAT;
        String updater = c.updater() != null ? c.updater() : defaults.updater();
        ModelOptions options = ModelOptions.defaults().withSeed(c.seed()).withUpdater(Updaters.of(updater, lr))
                .withWeightDecay(c.weightDecay()).withDataType(type);
        MultiLayerNetwork net = new MultiLayerNetwork(w.configuration(c, options));
        net.init();
        ctx.writeConfig(Map.of("settings", settings, "resolved", Map.of("epochs", epochs, "batchSize", batch, "learningRate", lr, "updater", updater,
                "model", w.model().cliName(), "parameters", net.numParams())), Map.of("seed", c.seed()));

        List<String> header = MetricRow.header("epoch", w, dp);
        PrivateTrainer trainer = dp ? privateTrainer(net, p, w, epochs, batch, c.seed()) : null;
        String stopped = null;
        List<MetricRow> rows = new ArrayList<>();
        long stepsPerEpoch = dp ? trainer.sampler().stepsPerEpoch() : (w.train().size() + batch - 1) / batch;
        try (MetricsCsv csv = ctx.metrics(header);
             ProgressBar bar = ctx.progress(dp ? "DP-SGD" : "SGD", epochs * stepsPerEpoch, "steps")) {
            SplittableRandom shuffle = new SplittableRandom(c.seed());
            for (int e = 1; e <= epochs && stopped == null; e++) {
                if (dp) {
                    try {
                        for (long s = 0; s < stepsPerEpoch; s++) {
                            trainer.step();
                            bar.step();
                        }
                        net.incrementEpochCount();
                    } catch (PrivacyBudgetExceededException ex) {
                        stopped = ex.getMessage();
                    }
                    bar.field("eps", trainer.epsilon());
                } else {
                    plainEpoch(net, w.train(), batch, shuffle, bar);
                }
                MetricRow row = evaluate(net, w, e, dp ? trainer.epsilon() : Double.NaN);
                rows.add(row);
                bar.field("loss", row.trainLoss());
                if (w.classification()) {
                    bar.field("acc", row.testAccuracy());
                }
                csv.append(row.values(w, dp));
            }
            bar.finish();
        }
        ModelSerializer.writeModel(net, ctx.file("model.zip").toFile(), false);
        if (stopped != null) {
            ctx.out().println(stopped);
        }
        if (dp) {
            String statement = trainer.statement().text();
            ctx.writeText("privacy.txt", statement);
            ctx.out().println();
            ctx.out().print(statement);
            ctx.out().flush();
        }
        ctx.finish(summary(settings, w, rows.get(rows.size() - 1), dp ? trainer : null, epochs), curves(w, rows));
    }

    private static PrivateTrainer privateTrainer(MultiLayerNetwork net, PrivacyOptions.Privacy p, Workload w, int epochs,
                                                 int batch, long seed) {
        if (p.clipNorm() == null) {
            throw new IllegalArgumentException("--privacy central needs --clip C (the per-example clipping norm)");
        }
        if ((p.epsilon() == null) == (p.noiseMultiplier() == null)) {
            throw new IllegalArgumentException("--privacy central needs exactly one of --epsilon (target) and --noise-multiplier");
        }
        DpSgdConfig cfg = p.epsilon() != null
                ? DpSgdConfig.forTarget(p.clipNorm(), p.epsilon(), p.delta(), batch, epochs)
                : DpSgdConfig.withNoise(p.clipNorm(), p.noiseMultiplier(), p.delta(), batch, epochs);
        cfg = cfg.withSampling(switch (p.sampling()) {
            case "poisson" -> SamplingScheme.POISSON;
            case "fixed" -> SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
            default -> throw new IllegalArgumentException("unknown --sampling '" + p.sampling() + "'; use poisson or fixed");
        });
        INDArray x = w.train().features().castTo(net.params().dataType());
        INDArray y = w.train().labels().castTo(net.params().dataType());
        return switch (p.noise()) {
            case "secure" -> PrivateTrainer.create(net, cfg, x, y);
            case "seeded" -> PrivateTrainer.create(net, cfg, x, y, SeededNoiseSource.forKey(new NoiseKey(seed, "dp-sgd", 0, 0)),
                    new SplittableRandom(new NoiseKey(seed, "sampling", 0, 0).seed()));
            default -> throw new IllegalArgumentException("unknown --noise '" + p.noise() + "'; use secure or seeded");
        };
    }

    private static void plainEpoch(MultiLayerNetwork net, Workload.Split train, int batch, SplittableRandom shuffle, ProgressBar bar) {
        int n = (int) train.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = shuffle.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        DataType type = net.params().dataType();
        for (int start = 0; start < n; start += batch) {
            int[] rows = java.util.Arrays.copyOfRange(order, start, Math.min(n, start + batch));
            net.fit(new DataSet(Nd4j.pullRows(train.features(), 1, rows).castTo(type), Nd4j.pullRows(train.labels(), 1, rows).castTo(type)));
            bar.step();
        }
        net.incrementEpochCount();
    }

    private static MetricRow evaluate(MultiLayerNetwork net, Workload w, int epoch, double epsilon) {
        Evaluation train = Evaluation.of(net, w.train(), w.classification());
        Evaluation test = Evaluation.of(net, w.test(), w.classification());
        double gap = w.synthetic() != null
                ? w.synthetic().optimalityGap(org.nd4j.linalg.factory.Nd4j.tile(net.params().reshape(1, net.numParams()), w.synthetic().users(), 1))
                : Double.NaN;
        return new MetricRow(epoch, train.loss(), test.loss(), test.accuracy(), gap, epsilon);
    }


    private static TerminalTable summary(TrainSettings s, Workload w, MetricRow last, PrivateTrainer trainer, int epochs) {
        TerminalTable t = new TerminalTable("Final metrics (" + w.name() + ", " + w.model().cliName() + ")", "metric", "value");
        t.addRow("epochs", last.step() + " of " + epochs);
        t.addRow("train loss", String.format("%.4f", last.trainLoss()));
        t.addRow("test loss", String.format("%.4f", last.testLoss()));
        if (w.classification()) {
            t.addRow("test accuracy", String.format("%.4f", last.testAccuracy()));
        }
        if (w.synthetic() != null) {
            t.addRow("optimality gap", String.format("%.4g", last.optimalityGap()));
        }
        if (trainer != null) {
            t.addRow("epsilon (delta = " + s.privacy().delta() + ")", String.format("%.4f", trainer.epsilon()));
            t.addRow("noise multiplier", String.format("%.4f", trainer.noiseMultiplier()));
            t.addRow("steps", trainer.steps());
        }
        return t;
    }

    private static TrainingCurves curves(Workload w, List<MetricRow> rows) {
        double[] x = rows.stream().mapToDouble(r -> r.step()).toArray();
        List<Series> loss = List.of(new Series("train loss", x, rows.stream().mapToDouble(r -> r.trainLoss()).toArray()),
                new Series("test loss", x, rows.stream().mapToDouble(r -> r.testLoss()).toArray()));
        List<Series> acc = w.classification() ? List.of(new Series("test accuracy", x, rows.stream().mapToDouble(r -> r.testAccuracy()).toArray()))
                : List.of();
        return new TrainingCurves(w.name() + " - " + w.model().cliName(), "epoch", loss, acc, !w.classification());
    }
}
