package org.dpdl4j.experiments.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.DirectoryLock;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.experiments.report.MetricsCsv;
import org.dpdl4j.experiments.report.ProgressBar;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.data.partition.Partition;
import org.dpdl4j.data.partition.Partitioner;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.models.SoftmaxRegressionModel;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.protocol.federated.Mu2Constants;
import org.dpdl4j.protocol.federated.Mu2Privacy;
import org.dpdl4j.protocol.federated.Mu2Setup;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.runtime.engine.BlockEngine;
import org.dpdl4j.runtime.engine.RunEngines;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * {@code dpdl4j reproduce mu2}: the grid of Tables 1-2 of the DP-mu^2-FL paper (Reshef and Levy, ICML 2024) -
 * MNIST softmax regression, (M, T) in {(1, 60000), (10, 6000), (100, 600)}, epsilon in {4, 8, 16}, untrusted
 * and trusted server - with the setup the spec infers (ball of diameter 0.1, pixels in [0, 1], constants from the
 * data, delta = 1e-5, step size of spec 4.5), plus a non-private reference run. Writes mu2.csv, mu2.png and
 * README.md (results next to the paper's numbers, every chosen constant, the checks) to {@code --out}, replacing
 * the files of an earlier reproduction there.
 */
public final class Mu2Reproduction {
    /**
     * What to reproduce.
     *
     * @param out       output directory
     * @param data      the data directory
     * @param machines  machine counts
     * @param epsilons  privacy levels
     * @param trust     server trust models (untrusted, trusted)
     * @param seed      seed of the split and the seeded noise of the first run
     * @param seeds     runs per configuration
     * @param delta     delta
     * @param diameter  diameter of the parameter ball
     * @param noise     seeded or secure
     * @param examples  only the first N training examples, or null for all
     * @param fresh     discard the finished runs
     * @param reference also the non-private reference run
     * @param arguments the command line, for the provenance
     * @param engine    where the machines' part of each round runs ({@code --engine}, {@code --master}, {@code --blocks})
     * @param accountant how the noise is calibrated and the runs priced ({@code AccountantFactory.NAMES}; null: the default)
     */
    public record Settings(Path out, DataDirectory data, List<Integer> machines, List<Double> epsilons, List<String> trust, long seed,
                           int seeds, double delta, double diameter, NoiseKind noise, Integer examples, boolean fresh, boolean reference,
                           List<String> arguments, RunSettings engine, String accountant) {
        public Settings {
            engine = engine == null ? RunSettings.empty() : engine;
            accountant = accountant == null ? AccountantFactory.TIGHTEST : accountant;
            AccountantFactory.named(accountant);   // refuses an unknown name before anything runs
        }
    }

    private final Path out;
    private final DataDirectory data;
    private final List<Integer> machines;
    private final List<Double> epsilons;
    private final List<String> trust;
    private final long seed;
    private final int seeds;
    private final double delta;
    private final double diameter;
    private final NoiseKind noise;
    private final Integer examples;
    private final boolean fresh;
    private final boolean reference;
    private final List<String> arguments;
    private final RunSettings engineSettings;
    private final String accountant;
    private final AccountantFactory accountants;
    /** The cluster every run of the grid is lent, or null for the local engine. */
    private BlockEngine cluster;

    public Mu2Reproduction(Settings s) {
        this.out = s.out();
        this.data = s.data();
        this.machines = s.machines();
        this.epsilons = s.epsilons();
        this.trust = s.trust();
        this.seed = s.seed();
        this.seeds = s.seeds();
        this.delta = s.delta();
        this.diameter = s.diameter();
        this.noise = s.noise();
        this.examples = s.examples();
        this.fresh = s.fresh();
        this.reference = s.reference();
        this.arguments = s.arguments();
        this.engineSettings = s.engine();
        this.accountant = s.accountant();
        this.accountants = AccountantFactory.named(s.accountant());
    }

    /** Runs the grid (or what is left of it) and writes mu2.csv, mu2.png and README.md. */
    public int run(PrintWriter pw) throws IOException {
        List<ServerTrust> trusts = trusts();
        for (double e : epsilons) {
            if (!(e > 0) || Double.isInfinite(e)) {
                throw new IllegalArgumentException("--epsilons must be positive finite numbers, got " + e);
            }
        }
        if (seeds < 1) {
            throw new IllegalArgumentException("--seeds must be at least 1, got " + seeds);
        }
        pw.println(NoiseNotice.of(noise, "--noise secure"));
        pw.flush();
        long startNanos = System.nanoTime();
        Provenance provenance = Provenance.capture(Map.of("split and noise", seed, "seeds", (long) seeds), arguments);
        TrainTest tt = Datasets.mnist(data, PixelScaling.UNIT_INTERVAL);
        LabeledData train = subset(tt.train());
        INDArray testX = tt.test().features();
        INDArray testY = tt.test().labelMatrix(LabelEncoding.ONE_HOT).castTo(testX.dataType());
        INDArray trainY = train.labelMatrix(LabelEncoding.ONE_HOT).castTo(train.features().dataType());
        MultiLayerNetwork probe = network();
        // Pixels in [0, 1]: ||x|| <= sqrt(784), a public bound (spec 4.6's constants), never one read off the images.
        Mu2Constants constants = Mu2Constants.fromFeatureBound(PerExampleGradients.of(probe).spec(),
                Mu2Constants.defaultFeatureBound(train.features().size(1)), diameter);
        for (int m : machines) {
            if (m < 1 || m > train.size()) {
                throw new IllegalArgumentException("--machines " + m + ": each of the M machines needs at least one of the " + train.size()
                        + " training examples");
            }
        }
        long totalRounds = seeds * (machines.stream().mapToLong(m -> (long) trusts.size() * epsilons.size() * (train.size() / m)).sum()
                + (reference ? train.size() : 0));
        try (RunDirectory claim = RunDirectory.claim(out, "dpdl4j reproduce mu2", "dpdl4j reproduce mu2",
                RunDirectory.Reuse.SAME_COMMAND);
             BlockEngine engine = RunEngines.connect(engineSettings, "dpdl4j reproduce mu2").orElse(null)) {
            cluster = engine;
            if (engine != null) {
                pw.println("The machines of every run: " + engine.describe());
                pw.flush();
            }
            return grid(pw, trusts, startNanos, provenance, train, testX, testY, trainY, probe, constants, totalRounds);
        } finally {
            cluster = null;
        }
    }

    private int grid(PrintWriter pw, List<ServerTrust> trusts, long startNanos, Provenance provenance, LabeledData train, INDArray testX,
                     INDArray testY, INDArray trainY, MultiLayerNetwork probe, Mu2Constants constants, long totalRounds) throws IOException {
        List<Mu2Cell> cells = new ArrayList<>();
        Path csvFile = out.resolve("mu2.csv");
        if (fresh) {
            // set aside (unread) until this run's files are whole: a crash before then loses no finished row
            EarlierRows.setAside(csvFile, pw);
        }
        if (fresh) {
            DirectoryAccounting.forget(out);
        }
        // Every run here is calibrated and priced by one accounting, that of the rows already in the directory, and made
        // with the settings that its rows do not record.
        DirectoryAccounting.claim(out, accountant, Map.of("delta", Double.toString(delta), "noise", noise.cliName(),
                        "seed", Long.toString(seed), "diameter", Double.toString(diameter), "examples", Integer.toString(train.size())),
                List.of("mu2.csv"), "pass --accountant %s", "--fresh to discard the earlier rows");
        Map<String, Mu2Cell> finished = Mu2FinishedRuns.read(csvFile, delta, constants);
        if (!finished.isEmpty()) {
            pw.println("Resuming: " + finished.size() + " finished runs in " + csvFile + " are kept (use --fresh to start over)");
        }
        try (MetricsCsv csv = Files.isRegularFile(csvFile) ? MetricsCsv.resume(csvFile, Mu2Report.CSV_HEADER)
                : MetricsCsv.create(csvFile, Mu2Report.CSV_HEADER);
             ProgressBar bar = ProgressBar.builder("reproduce mu2", totalRounds).unit("rounds").build()) {
            for (long s = seed; s < seed + seeds; s++) {
                for (int m : machines) {
                    List<NodeData> data = split(train, trainY, m, s);
                    long rounds = data.stream().mapToLong(NodeData::size).min().orElseThrow();
                    for (ServerTrust t : trusts) {
                        for (double eps : epsilons) {
                            String name = t.name().toLowerCase(Locale.ROOT);
                            Mu2Cell done = finished.get(Mu2FinishedRuns.key(name, m, eps, s));
                            if (done != null) {
                                Mu2FinishedRuns.requireNoise(csvFile, done, Mu2Privacy.calibrate(t, constants.sensitivityBound(), m,
                                        rounds, eps, delta, accountants));
                                cells.add(done);
                                bar.step(rounds);
                                continue;
                            }
                            Mu2Setup setup = Mu2Setup.calibrated(t, constants, m, rounds, 1, probe.numParams(), eps, delta, s,
                                    accountants);
                            bar.field("run", name + " M=" + m + " eps=" + eps + " seed=" + s);
                            Mu2Cell cell = run(setup, name, eps, data, train, trainY, testX, testY, bar, s);
                            csv.append(Mu2Report.csvRow(cell, constants, delta));
                            cells.add(cell);
                        }
                    }
                }
                if (reference) {
                    Mu2Cell done = finished.get(Mu2FinishedRuns.key("none", 1, Double.POSITIVE_INFINITY, s));
                    if (done != null) {
                        cells.add(done);
                        bar.step(train.size());
                        continue;
                    }
                    List<NodeData> data = split(train, trainY, 1, s);
                    Mu2Setup setup = Mu2Setup.nonPrivate(constants, 1, data.get(0).size(), 1, probe.numParams(), s);
                    bar.field("run", "non-private M=1 seed=" + s);
                    Mu2Cell cell = run(setup, "none", Double.POSITIVE_INFINITY, data, train, trainY, testX, testY, bar, s);
                    csv.append(Mu2Report.csvRow(cell, constants, delta));
                    cells.add(cell);
                }
            }
            bar.finish();
        }
        double minutes = (System.nanoTime() - startNanos) / 6e10;
        Mu2Report report = new Mu2Report(cells, constants, delta, seed, noise, train.size(), provenance, minutes, accountant);
        report.write(out);
        EarlierRows.discardSetAside(csvFile);   // this run's files are whole: what a fresh run replaced goes
        pw.print(report.table().render());
        pw.println("Results: " + out.toAbsolutePath() + " (mu2.csv, mu2.png, README.md, " + DirectoryLock.LISTED + ")");
        pw.flush();
        return 0;
    }

    private LabeledData subset(LabeledData all) {
        if (examples == null) {
            return all;
        }
        if (examples < 1 || examples > all.size()) {
            throw new IllegalArgumentException("--examples must lie in [1, " + all.size() + "], got " + examples);
        }
        return all.subset(IntStream.range(0, examples).toArray());
    }

    private List<ServerTrust> trusts() {
        List<ServerTrust> out = new ArrayList<>();
        for (String t : trust) {
            out.add(switch (t.trim().toLowerCase(Locale.ROOT)) {
                case "untrusted" -> ServerTrust.UNTRUSTED;
                case "trusted" -> ServerTrust.TRUSTED;
                default -> throw new IllegalArgumentException("unknown --trust '" + t + "'; use untrusted and/or trusted");
            });
        }
        return out;
    }

    /** Softmax regression 784 -> 10 in float, starting at 0 (the centre of the ball). */
    private static MultiLayerNetwork network() {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(784, 10,
                ModelOptions.defaults().withDataType(DataType.FLOAT)));
        net.init();
        net.params().assign(0);
        return net;
    }

    /** A random equal split (iid partition with the run's seed); machine i processes its part in this random order. */
    private List<NodeData> split(LabeledData train, INDArray labels, int m, long seed) {
        Partition partition = Partitioner.iid().partition(train, m, seed);
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            int[] rows = partition.indices(i);
            out.add(new NodeData(train.features().getRows(rows), labels.getRows(rows)));
        }
        return out;
    }

    private Mu2Cell run(Mu2Setup setup, String trustName, double epsilon, List<NodeData> data, LabeledData train, INDArray trainY,
                        INDArray testX, INDArray testY, ProgressBar bar, long seed) {
        MultiLayerNetwork net = network();
        int m = data.size();
        long t0 = System.nanoTime();
        long clippedRounds = 0;
        double achieved;
        NoiseKind kind = noise;
        try (Mu2Trainer trainer = setup.privacy() != null ? setup.trainer(net, data, kind, Double.NaN, accountants, RunSettings.empty())
                : Mu2Trainer.of(net, data, setup.config(), kind.streams(1, seed), null, PrivacyBudget.unlimited(delta))) {
            if (cluster != null) {
                trainer.distribute(cluster.lent());
            }
            while (trainer.round() < setup.config().rounds()) {
                trainer.step();
                clippedRounds += trainer.lastStep().clippedMachines() > 0 ? 1 : 0;
                bar.step();
            }
            net.setParams(trainer.parameters().reshape(1, net.numParams()));
            achieved = trainer.ledger().map(l -> l.epsilon()).orElse(Double.NaN);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double testLoss = net.score(new DataSet(testX, testY), false);
        double accuracy = net.output(testX, false).argMax(1).eq(testY.argMax(1)).castTo(DataType.DOUBLE).meanNumber().doubleValue();
        double trainLoss = net.score(new DataSet(train.features(), trainY), false);
        double[] paper = setup.privacy() != null ? Mu2PaperTables.of(setup.config().trust(), m, epsilon) : null;
        return new Mu2Cell(trustName, m, setup.config().rounds(), epsilon, achieved, setup.sigma(), setup.stepSize(), testLoss, accuracy,
                trainLoss, clippedRounds, seconds, paper != null ? paper[0] : Double.NaN, paper != null ? paper[1] : Double.NaN, seed, 1, 0, 0);
    }
}
