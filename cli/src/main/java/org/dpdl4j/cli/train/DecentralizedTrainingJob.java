package org.dpdl4j.cli.train;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cli.report.MetricsCsv;
import org.dpdl4j.cli.report.ProgressBar;
import org.dpdl4j.cli.report.Series;
import org.dpdl4j.cli.report.TerminalTable;
import org.dpdl4j.cli.report.TrainingCurves;
import org.dpdl4j.data.RegressionData;
import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.graph.TopologySpec;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedCalibration;
import org.dpdl4j.protocol.decentralized.DecentralizedCheckpoint;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedPrivacy;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.DecorCompatibility;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.protocol.decentralized.NoisePairChoice;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decentralized training on a graph: D-SGD, Decor, and the LDP and CDP baselines. Metrics are those of
 * the Decor paper: the optimality gap on the synthetic task, the training loss of the average model on
 * a9a, the test accuracy of the average model on MNIST (and covtype).
 */
final class DecentralizedTrainingJob implements TrainingJob {

    @Override
    public Set<String> algorithms() {
        return Set.of("dsgd", "decor", "ldp", "cdp");
    }

    @Override
    public Set<String> options() {
        return Set.of("--epsilon", "--delta", "--clip", "--sampling", "--noise", "--topology", "--nodes", "--rounds",
                "--adversary", "--partition", "--unit", "--sigma-cdp", "--sigma-cor", "--noise-pair", "--lr-decay",
                "--reference-compat", "--eval-every", "--checkpoint-every", "--resume");
    }

    /** Everything resolved for one run, as written to config.json. */
    record Resolved(String algorithm, String topology, int nodes, double algebraicConnectivity, String adversary, String unit,
                    String sampling, int batchSize, long rounds, double learningRate, double learningRateDecay, double weightDecay,
                    double clipNorm, double sigmaCdp, double sigmaCor, double epsilonTarget, double delta, String noise,
                    boolean referenceCompatibility, String partition) {
    }

    @Override
    public void run(TrainSettings settings, RunContext ctx) throws Exception {
        CommonOptions.Common c = settings.common();
        PrivacyOptions.Privacy p = settings.privacy();
        DecentralizedOptions.Decentralized d = settings.decentralized();
        DecentralizedAlgorithm algo = DecentralizedAlgorithm.valueOf(c.algorithm().toUpperCase(Locale.ROOT));
        DatasetDefaults defaults = DatasetDefaults.of(c.dataset());
        Workload w = Workload.load(c);

        Graph graph = algo == DecentralizedAlgorithm.CDP ? cdpGraph(d) : TopologySpec.resolve(d.topology(), d.nodes(), c.seed());
        if (!graph.isConnected()) {
            throw new IllegalArgumentException("the " + d.topology() + " graph with " + graph.vertexCount()
                    + " nodes is disconnected; gossip cannot reach consensus. Use a connected topology");
        }
        int n = graph.vertexCount();
        MixingMatrix mixing = algo == DecentralizedAlgorithm.CDP ? MixingMatrix.averaging(graph) : MixingMatrix.metropolisHastings(graph);
        List<NodeData> data = nodeData(w, d.partition(), n, c.seed(), ctx);
        long minLocal = data.stream().mapToLong(NodeData::size).min().orElseThrow();

        boolean synthetic = w.synthetic() != null;
        ProtectedUnit unit = unit(d.unit(), defaults);
        SamplingScheme sampling = synthetic ? SamplingScheme.FULL_BATCH : sampling(p.sampling(), unit);
        int batch = synthetic ? (int) minLocal : (c.batchSize() != null ? c.batchSize() : defaults.decentralizedBatch());
        long rounds = d.rounds() != null ? d.rounds() : defaults.rounds();
        double lr = c.learningRate() != null ? c.learningRate() : defaults.learningRate();
        double decay = d.learningRateDecay() != null ? d.learningRateDecay() : defaults.learningRateDecay();
        LearningRate schedule = decay > 0 ? new LearningRate.InverseTime(lr, decay) : new LearningRate.Constant(lr);
        Adversary adversary = Adversary.parse(d.adversary());
        if (algo != DecentralizedAlgorithm.DECOR && !"eavesdropper".equals(d.adversary())) {
            throw new IllegalArgumentException("--adversary applies to Decor; " + algo.cliName() + " has a fixed threat model");
        }

        double clip = Double.NaN;
        double sigmaCdp = 0;
        double sigmaCor = 0;
        double target = Double.NaN;
        if (algo.isPrivate()) {
            if (p.clipNorm() == null) {
                throw new IllegalArgumentException("--algo " + algo.cliName() + " needs --clip C");
            }
            clip = p.clipNorm();
            boolean explicit = d.sigmaCdp() != null;
            if (explicit == (p.epsilon() != null)) {
                throw new IllegalArgumentException("give either --epsilon (the noise is calibrated to it) or --sigma-cdp"
                        + (algo == DecentralizedAlgorithm.DECOR ? " and --sigma-cor" : "") + ", not both and not neither");
            }
            if (explicit) {
                sigmaCdp = d.sigmaCdp();
                sigmaCor = d.sigmaCor() != null ? d.sigmaCor() : 0;
                if (algo == DecentralizedAlgorithm.DECOR && d.sigmaCor() == null) {
                    throw new IllegalArgumentException("Decor with --sigma-cdp also needs --sigma-cor");
                }
            } else {
                target = p.epsilon();
                DecentralizedCalibration.Result cal = DecentralizedCalibration.calibrate(algo, unit, sampling, clip, batch, minLocal,
                        rounds, target, p.delta(), graph, adversary, NoisePairChoice.parse(d.noisePair()));
                sigmaCdp = cal.sigmaCdp();
                sigmaCor = cal.sigmaCor();
            }
        } else if (p.epsilon() != null || p.clipNorm() != null || d.sigmaCdp() != null) {
            throw new IllegalArgumentException("dsgd is not private: --epsilon, --clip and --sigma-cdp do not apply");
        }
        DecorCompatibility compat = d.referenceCompatibility() ? DecorCompatibility.REFERENCE_CODE : DecorCompatibility.NONE;
        DecentralizedConfig config = new DecentralizedConfig(algo, unit, synthetic ? LocalObjective.SUM : LocalObjective.MEAN,
                clip, sigmaCdp, sigmaCor, schedule, c.weightDecay(), batch, sampling, rounds, c.seed(), compat);
        DecentralizedPrivacy privacy = algo.isPrivate() ? DecentralizedPrivacy.of(config, graph, adversary, minLocal, p.delta()) : null;

        DataType type = synthetic ? DataType.DOUBLE : DataType.FLOAT;
        MultiLayerNetwork template = new MultiLayerNetwork(w.configuration(c, ModelOptions.defaults().withSeed(c.seed())
                .withUpdater(new Sgd(lr)).withDataType(type)));
        template.init();
        if (synthetic) {
            template.params().assign(1.0);      // x^0 = 1 (Decor's synthetic task)
        }
        Resolved resolved = new Resolved(algo.cliName(), algo == DecentralizedAlgorithm.CDP ? "complete (averaging)" : d.topology(), n,
                graph.algebraicConnectivity(), algo == DecentralizedAlgorithm.DECOR ? adversary.describe() : "-", unit.name().toLowerCase(Locale.ROOT),
                sampling.name().toLowerCase(Locale.ROOT), batch, rounds, lr, decay, c.weightDecay(), clip, sigmaCdp, sigmaCor, target,
                p.delta(), p.noise(), d.referenceCompatibility(), synthetic ? "per user (synthetic)" : d.partition());
        ctx.writeConfig(Map.of("settings", settings, "resolved", resolved), Map.of("seed", c.seed()));

        NoiseStreams streams = switch (p.noise()) {
            case "secure" -> new SecureNoiseStreams(graph);
            case "seeded" -> new SeededNoiseStreams(c.seed());
            default -> throw new IllegalArgumentException("unknown --noise '" + p.noise() + "'; use secure or seeded");
        };
        long evalEvery = d.evalEvery() != null ? d.evalEvery() : Math.max(1, rounds / 50);
        List<MetricRow> rows = new ArrayList<>();
        double[] nodeMetrics;
        try (DecentralizedTrainer trainer = new DecentralizedTrainer(template, graph, mixing, data, config, streams)) {
            if (d.resume() != null) {
                long from = DecentralizedCheckpoint.restore(trainer, d.resume());
                ctx.out().println("Resumed from round " + from + " of " + d.resume());
            }
            Path checkpoint = ctx.file("checkpoint.bin");
            List<String> header = MetricRow.header("round", w, privacy != null);
            try (MetricsCsv csv = ctx.metrics(header);
                 ProgressBar bar = ctx.progress(algo.cliName() + " on " + resolved.topology(), rounds, "rounds")) {
                bar.set(trainer.round());
                while (trainer.round() < rounds) {
                    trainer.step();
                    bar.step();
                    bar.field("loss", trainer.lastBatchLoss());
                    if (privacy != null) {
                        bar.field("eps", privacy.epsilon(trainer.round()));
                    }
                    if (trainer.round() % evalEvery == 0 || trainer.round() == rounds) {
                        MetricRow row = evaluate(trainer, w, privacy);
                        rows.add(row);
                        csv.append(row.values(w, privacy != null));
                        if (w.classification()) {
                            bar.field("acc", row.testAccuracy());
                        }
                    }
                    if (d.checkpointEvery() > 0 && trainer.round() % d.checkpointEvery() == 0) {
                        DecentralizedCheckpoint.save(trainer, checkpoint);
                    }
                }
                bar.finish();
            }
            DecentralizedCheckpoint.save(trainer, checkpoint);
            nodeMetrics = perNode(trainer, w, ctx);
        }
        if (privacy != null) {
            ctx.writeText("privacy.txt", privacyText(resolved, privacy, rounds));
        }
        TerminalTable table = summary(resolved, w, rows.get(rows.size() - 1), privacy, rounds);
        double[] sorted = nodeMetrics.clone();
        java.util.Arrays.sort(sorted);
        table.addRow(w.classification() ? "node models: test accuracy min / median / max" : "node models: ||x_i - x*||^2 min / median / max",
                String.format(Locale.ROOT, "%.4g / %.4g / %.4g", sorted[0], sorted[sorted.length / 2], sorted[sorted.length - 1]));
        ctx.finish(table, curves(w, rows, algo));
    }

    /** Final metric of every node's own model (nodes.csv): test accuracy, or the distance to the optimum. */
    private static double[] perNode(DecentralizedTrainer trainer, Workload w, RunContext ctx) {
        int n = (int) trainer.params().size(0);
        double[] out = new double[n];
        List<String> header = w.classification() ? List.of("node", "local_examples", "test_loss", "test_accuracy")
                : List.of("node", "local_examples", "squared_distance_to_optimum");
        try (MetricsCsv csv = ctx.metricsFile("nodes.csv", header)) {
            double[] optimum = w.synthetic() != null ? w.synthetic().optimum() : null;
            for (int i = 0; i < n; i++) {
                INDArray row = trainer.params().getRow(i).dup();
                long size = trainer.data().get(i).size();
                if (optimum != null) {
                    double[] x = row.castTo(DataType.DOUBLE).toDoubleVector();
                    double d = 0;
                    for (int k = 0; k < x.length; k++) {
                        d += (x[k] - optimum[k]) * (x[k] - optimum[k]);
                    }
                    out[i] = d;
                    csv.append(i, size, d);
                } else {
                    Evaluation e = Evaluation.ofParams(trainer.template(), row, w.test(), w.classification());
                    out[i] = e.accuracy();
                    csv.append(i, size, e.loss(), e.accuracy());
                }
            }
        }
        return out;
    }

    private static Graph cdpGraph(DecentralizedOptions.Decentralized d) {
        int n;
        try {
            n = Integer.parseInt(d.nodes());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--nodes must be a number of nodes for the CDP baseline, got " + d.nodes());
        }
        if (!"ring".equals(d.topology())) {
            throw new IllegalArgumentException("the CDP baseline always averages on the complete graph (W = 11^T/n); drop --topology");
        }
        return Topologies.complete(n);
    }

    private static ProtectedUnit unit(String text, DatasetDefaults defaults) {
        if (text == null) {
            return defaults.exampleLevel() ? ProtectedUnit.EXAMPLE : ProtectedUnit.USER;
        }
        return switch (text) {
            case "user" -> ProtectedUnit.USER;
            case "example" -> ProtectedUnit.EXAMPLE;
            default -> throw new IllegalArgumentException("unknown --unit '" + text + "'; use user or example");
        };
    }

    private static SamplingScheme sampling(String text, ProtectedUnit unit) {
        return switch (text) {
            case "poisson" -> unit == ProtectedUnit.EXAMPLE ? SamplingScheme.POISSON : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
            case "fixed" -> SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT;
            default -> throw new IllegalArgumentException("unknown --sampling '" + text + "'; use poisson or fixed");
        };
    }

    /** Local datasets: the synthetic task's users, or the training data split over the nodes. */
    private static List<NodeData> nodeData(Workload w, String partitionText, int n, long seed, RunContext ctx) {
        List<NodeData> out = new ArrayList<>();
        if (w.synthetic() != null) {
            if (n != w.synthetic().users()) {
                throw new IllegalArgumentException("the synthetic task has " + w.synthetic().users() + " users; use --nodes "
                        + w.synthetic().users());
            }
            for (RegressionData user : w.synthetic().userData()) {
                out.add(new NodeData(user.features().castTo(DataType.DOUBLE), user.targets().castTo(DataType.DOUBLE)));
            }
            return out;
        }
        Partition partition = Partitioner.parse(partitionText).partition(w.labeled(), n, seed);
        ctx.writeText("partition.txt", partition.report());
        for (int i = 0; i < n; i++) {
            int[] rows = partition.indices(i);
            out.add(new NodeData(Nd4j.pullRows(w.train().features(), 1, rows), Nd4j.pullRows(w.train().labels(), 1, rows)));
        }
        return out;
    }


    /** Train and test loss of the average model, its test accuracy, the optimality gap of the node models, epsilon. */
    private static MetricRow evaluate(DecentralizedTrainer trainer, Workload w, DecentralizedPrivacy privacy) {
        INDArray avg = trainer.averageModel();
        Evaluation train = Evaluation.ofParams(trainer.template(), avg, w.train(), w.classification());
        Evaluation test = w.synthetic() != null ? train : Evaluation.ofParams(trainer.template(), avg, w.test(), w.classification());
        double gap = w.synthetic() != null ? w.synthetic().optimalityGap(trainer.params()) : Double.NaN;
        double eps = privacy != null ? privacy.epsilon(trainer.round()) : Double.NaN;
        return new MetricRow(trainer.round(), train.loss(), test.loss(), test.accuracy(), gap, eps);
    }


    private static String privacyText(Resolved r, DecentralizedPrivacy privacy, long rounds) {
        StringBuilder s = new StringBuilder();
        s.append("Privacy of this ").append(r.algorithm()).append(" run (").append(r.unit()).append("-level, ")
                .append(privacy.relation()).append(")\n");
        s.append("  per-round mechanism: ").append(privacy.perRound()).append('\n');
        if (privacy.kappa() != null) {
            s.append("  kappa = ").append(privacy.kappa().kappa()).append(" (").append(privacy.kappa().exactness())
                    .append(", adversary: ").append(r.adversary()).append(")\n");
        }
        s.append("  sigma_cdp = ").append(r.sigmaCdp()).append(", sigma_cor = ").append(r.sigmaCor()).append(", C = ").append(r.clipNorm()).append('\n');
        s.append(String.format(Locale.ROOT, "  after %d rounds: epsilon = %.6f at delta = %s (standard RDP conversion)%n", rounds,
                privacy.epsilon(rounds), privacy.delta()));
        s.append("  noise: ").append(r.noise()).append(r.noise().equals("seeded") ? " - NOT secure, for experiments only" : "").append('\n');
        if (r.referenceCompatibility()) {
            s.append("  WARNING: reference-code compatibility is on (pairwise noise drawn once and scaled by W_ij);"
                    + " this is not the analysed algorithm and the epsilon above does not cover it.\n");
        }
        return s.toString();
    }

    private static TerminalTable summary(Resolved r, Workload w, MetricRow last, DecentralizedPrivacy privacy, long rounds) {
        TerminalTable t = new TerminalTable("Final metrics (" + r.algorithm() + ", " + r.topology() + ", n = " + r.nodes() + ", "
                + w.name() + ")", "metric", "value");
        t.addRow("rounds", last.step() + " of " + rounds);
        t.addRow("train loss (average model)", String.format(Locale.ROOT, "%.5f", last.trainLoss()));
        if (w.classification()) {
            t.addRow("test loss (average model)", String.format(Locale.ROOT, "%.5f", last.testLoss()));
            t.addRow("test accuracy (average model)", String.format(Locale.ROOT, "%.4f", last.testAccuracy()));
        }
        if (w.synthetic() != null) {
            t.addRow("optimality gap (1/n) sum ||x_i - x*||^2", String.format(Locale.ROOT, "%.5g", last.optimalityGap()));
        }
        if (privacy != null) {
            t.addRow("epsilon (delta = " + privacy.delta() + ")", String.format(Locale.ROOT, "%.4f", privacy.epsilon(rounds)));
            t.addRow("sigma_cdp / sigma_cor", String.format(Locale.ROOT, "%.4f / %.4f", r.sigmaCdp(), r.sigmaCor()));
            t.addRow("adversary", r.adversary());
        }
        t.addRow("algebraic connectivity", String.format(Locale.ROOT, "%.4f", r.algebraicConnectivity()));
        return t;
    }

    private static TrainingCurves curves(Workload w, List<MetricRow> rows, DecentralizedAlgorithm algo) {
        double[] x = rows.stream().mapToDouble(r -> r.step()).toArray();
        List<Series> loss = new ArrayList<>();
        if (w.synthetic() != null) {
            loss.add(new Series("optimality gap", x, rows.stream().mapToDouble(r -> r.optimalityGap()).toArray()));
        } else {
            loss.add(new Series("train loss (average model)", x, rows.stream().mapToDouble(r -> r.trainLoss()).toArray()));
            loss.add(new Series("test loss (average model)", x, rows.stream().mapToDouble(r -> r.testLoss()).toArray()));
        }
        List<Series> acc = w.classification()
                ? List.of(new Series("test accuracy (average model)", x, rows.stream().mapToDouble(r -> r.testAccuracy()).toArray())) : List.of();
        return new TrainingCurves(algo.cliName() + " - " + w.name(), "round", loss, acc, w.synthetic() != null);
    }
}
