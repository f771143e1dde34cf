package org.dpdl4j.cli.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.cli.report.MetricsCsv;
import org.dpdl4j.cli.report.ProgressBar;
import org.dpdl4j.cli.report.Provenance;
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
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.privacy.noise.SecureNoiseStreams;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.protocol.federated.Mu2Constants;
import org.dpdl4j.protocol.federated.Mu2Setup;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

/**
 * {@code dpdl4j reproduce mu2}: the grid of Tables 1-2 of the DP-mu^2-FL paper (Reshef and Levy, ICML 2024) -
 * MNIST softmax regression, (M, T) in {(1, 60000), (10, 6000), (100, 600)}, epsilon in {4, 8, 16}, untrusted
 * and trusted server - with the setup the spec infers (ball of diameter 0.1, pixels in [0, 1], constants from the
 * data, delta = 1e-5, step size of spec 4.5), plus a non-private reference run. Writes mu2.csv, mu2.png and
 * README.md (results next to the paper's numbers, every chosen constant, the checks) to {@code --out}, replacing
 * the files of an earlier reproduction there.
 */
@Command(name = "mu2", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reproduce Tables 1-2 of DP-mu^2-FL (MNIST softmax regression, untrusted and trusted server).",
                "Each configuration trains from scratch with one pass over the data; the whole grid takes a few minutes per",
                "configuration with M = 1 (60000 rounds) on a small machine."})
public final class Mu2ReproduceCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", defaultValue = "results/mu2", paramLabel = "DIR", description = "Output directory; default ${DEFAULT-VALUE}.")
    private Path out;

    @Mixin
    DataDirOption data;

    @Option(names = "--machines", split = ",", defaultValue = "1,10,100", paramLabel = "M", description = "Machine counts; default ${DEFAULT-VALUE}.")
    private List<Integer> machines;

    @Option(names = "--epsilons", split = ",", defaultValue = "4,8,16", paramLabel = "EPS", description = "Privacy levels; default ${DEFAULT-VALUE}.")
    private List<Double> epsilons;

    @Option(names = "--trust", split = ",", defaultValue = "untrusted,trusted", paramLabel = "T",
            description = "Server trust models; default ${DEFAULT-VALUE}.")
    private List<String> trust;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of the split and of the seeded noise of the first "
            + "run; default ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--seeds", defaultValue = "5", paramLabel = "N", description = "Runs per configuration, with seeds S, S+1, ...; the "
            + "tables and checks use their mean (the accuracy of these tiny-signal models moves by several points between seeds); "
            + "default ${DEFAULT-VALUE}.")
    private int seeds;

    @Option(names = "--delta", defaultValue = "1e-5", paramLabel = "DELTA", description = "delta (not given by the paper); default ${DEFAULT-VALUE}.")
    private double delta;

    @Option(names = "--diameter", defaultValue = "0.1", paramLabel = "D", description = "Diameter of the parameter ball (inferred by the spec); default ${DEFAULT-VALUE}.")
    private double diameter;

    @Option(names = "--noise", defaultValue = "seeded", paramLabel = "SOURCE",
            description = "seeded (reproducible; the default, for a reproduction) or secure.")
    private String noise;

    @Option(names = "--examples", paramLabel = "N", description = "Use only the first N training examples (quick checks); default: all 60000.")
    private Integer examples;

    @Option(names = "--fresh", description = "Discard the runs already in --out instead of resuming after the last finished one.")
    private boolean fresh;

    @Option(names = "--reference", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run non-private mu^2-SGD with M = 1 (the floor of this constrained setup); default ${DEFAULT-VALUE}.")
    private boolean reference;

    @Override
    public Integer call() throws IOException {
        List<ServerTrust> trusts = trusts();
        for (double e : epsilons) {
            if (!(e > 0) || Double.isInfinite(e)) {
                throw new IllegalArgumentException("--epsilons must be positive finite numbers, got " + e);
            }
        }
        if (!noise.equals("seeded") && !noise.equals("secure")) {
            throw new IllegalArgumentException("unknown --noise '" + noise + "'; use seeded or secure");
        }
        if (seeds < 1) {
            throw new IllegalArgumentException("--seeds must be at least 1, got " + seeds);
        }
        long startNanos = System.nanoTime();
        Provenance provenance = Provenance.capture(Map.of("split and noise", seed, "seeds", (long) seeds), spec.commandLine().getParseResult().originalArgs());
        TrainTest tt = Datasets.mnist(data.resolve(), PixelScaling.UNIT_INTERVAL);
        LabeledData train = subset(tt.train());
        INDArray testX = tt.test().features();
        INDArray testY = tt.test().labelMatrix(LabelEncoding.ONE_HOT).castTo(testX.dataType());
        INDArray trainY = train.labelMatrix(LabelEncoding.ONE_HOT).castTo(train.features().dataType());
        MultiLayerNetwork probe = network();
        Mu2Constants constants = Mu2Constants.fromData(PerExampleGradients.of(probe).spec(), train.features(), diameter);
        for (int m : machines) {
            if (m < 1 || m > train.size()) {
                throw new IllegalArgumentException("--machines " + m + ": each of the M machines needs at least one of the " + train.size()
                        + " training examples");
            }
        }
        long totalRounds = seeds * (machines.stream().mapToLong(m -> (long) trusts.size() * epsilons.size() * (train.size() / m)).sum()
                + (reference ? train.size() : 0));
        List<Mu2Cell> cells = new ArrayList<>();
        Files.createDirectories(out);
        Path csvFile = out.resolve("mu2.csv");
        if (fresh && Files.deleteIfExists(csvFile)) {
            spec.commandLine().getOut().println("Discarding the earlier mu2.csv in " + out);
        }
        Map<String, Mu2Cell> finished = Mu2FinishedRuns.read(csvFile, delta, constants);
        if (!finished.isEmpty()) {
            spec.commandLine().getOut().println("Resuming: " + finished.size() + " finished runs in " + csvFile + " are kept (use --fresh to start over)");
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
                                cells.add(done);
                                bar.step(rounds);
                                continue;
                            }
                            Mu2Setup setup = Mu2Setup.calibrated(t, constants, m, rounds, 1, probe.numParams(), eps, delta, s);
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
        Mu2Report report = new Mu2Report(cells, constants, delta, seed, noise, train.size(), provenance, minutes);
        report.write(out);
        spec.commandLine().getOut().print(report.table().render());
        spec.commandLine().getOut().println("Results: " + out.toAbsolutePath() + " (mu2.csv, mu2.png, README.md)");
        spec.commandLine().getOut().flush();
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
        NoiseStreams streams = noise.equals("seeded") ? new SeededNoiseStreams(seed)
                : new SecureNoiseStreams(Graph.of(setup.config().trust() == ServerTrust.UNTRUSTED ? m : 1));
        long t0 = System.nanoTime();
        long clippedRounds = 0;
        try (Mu2Trainer trainer = new Mu2Trainer(net, data, setup.config(), streams)) {
            while (trainer.round() < setup.config().rounds()) {
                trainer.step();
                clippedRounds += trainer.lastStep().clippedMachines() > 0 ? 1 : 0;
                bar.step();
            }
            net.setParams(trainer.model().reshape(1, net.numParams()));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double testLoss = net.score(new DataSet(testX, testY), false);
        double accuracy = net.output(testX, false).argMax(1).eq(testY.argMax(1)).castTo(DataType.DOUBLE).meanNumber().doubleValue();
        double trainLoss = net.score(new DataSet(train.features(), trainY), false);
        double achieved = setup.privacy() != null ? setup.privacy().epsilon(setup.config().rounds()) : Double.NaN;
        double[] paper = setup.privacy() != null ? Mu2PaperTables.of(setup.config().trust(), m, epsilon) : null;
        return new Mu2Cell(trustName, m, setup.config().rounds(), epsilon, achieved, setup.sigma(), setup.stepSize(), testLoss, accuracy,
                trainLoss, clippedRounds, seconds, paper != null ? paper[0] : Double.NaN, paper != null ? paper[1] : Double.NaN, seed, 1, 0, 0);
    }
}
