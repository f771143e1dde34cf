package org.dpdl4j.cli.bench;

import org.dpdl4j.cli.Converters;

import org.dpdl4j.experiments.bench.PairedTiming;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.models.SoftmaxRegressionModel;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Trainer;
import org.dpdl4j.protocol.federated.NoiseSchedule;
import org.dpdl4j.protocol.federated.ParameterBall;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.memory.conf.WorkspaceConfiguration;
import org.nd4j.linalg.api.memory.enums.AllocationPolicy;
import org.nd4j.linalg.api.memory.enums.LearningPolicy;
import org.nd4j.linalg.api.memory.enums.ResetPolicy;
import org.nd4j.linalg.api.memory.enums.SpillPolicy;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;


/**
 * One mu^2-SGD round against one plain SGD round on the same model and the same fresh examples: MNIST-sized
 * softmax regression (7850 parameters), M machines with one example each per round, no noise (the noise is the
 * same for both private variants). Compared, interleaved in blocks:
 * <ul>
 *   <li><b>mu2</b>: a real {@link Mu2Trainer} round - 2M gradients in one batched pass (at x_t and x_{t-1}),
 *       increments, estimates, average, projected step, anytime average;</li>
 *   <li><b>sgd</b>: plain federated SGD with the same engine and data layout - M gradients at x_t in one batched
 *       pass, the average and a step;</li>
 *   <li><b>fit</b>: DL4J's {@code fit} on the round's M examples as one batch (one aggregated gradient, no
 *       per-machine gradients: a floor no per-machine protocol reaches for M &gt; 1).</li>
 * </ul>
 * Two gradients per example make a ratio mu2/sgd of 2 the floor for large M. On a shared machine the load drifts
 * within seconds, so the three are interleaved in many short blocks and the reported ratio is the median of the
 * per-block ratios (with its interquartile range), not a ratio of separately taken times. By default the clock is the
 * benchmark thread's CPU time: with OMP_NUM_THREADS=1 ND4J executes every op on the calling thread, so CPU time is
 * the work of the round, unaffected by the time the thread waits for a core on a loaded machine.
 */
@Command(name = "mu2-round", mixinStandardHelpOptions = true,
        description = "mu^2-SGD round over a plain SGD round (softmax regression 784 -> 10, M machines, one example each).")
final class Mu2RoundBench implements Callable<Integer> {
    private static final WorkspaceConfiguration ROUND = WorkspaceConfiguration.builder().initialSize(0).overallocationLimit(0.1)
            .policyLearning(LearningPolicy.FIRST_LOOP).policyReset(ResetPolicy.BLOCK_LEFT)
            .policyAllocation(AllocationPolicy.OVERALLOCATE).policySpill(SpillPolicy.REALLOCATE).build();

    @Option(converter = Converters.PositiveInt.class, names = "--machines", split = ",", defaultValue = "1,10,100", description = "Machine counts; default ${DEFAULT-VALUE}.")
    List<Integer> machines;

    @Option(names = "--precision", defaultValue = "FLOAT", description = "FLOAT (default) or DOUBLE.")
    DataType precision;

    @Option(names = "--clock", defaultValue = "cpu", description = "cpu (the thread's CPU time, default) or wall.")
    String clock;

    @Option(converter = Converters.PositiveInt.class, names = "--blocks", defaultValue = "31", description = "Interleaved blocks; default ${DEFAULT-VALUE}.")
    int blocks;

    @Option(converter = Converters.PositiveInt.class, names = "--examples-per-block", defaultValue = "500",
            description = "Examples per block and method (rounds per block = this / M); default ${DEFAULT-VALUE}.")
    int examplesPerBlock;

    @Override
    public Integer call() {
        if (!clock.equals("cpu") && !clock.equals("wall")) {
            throw new IllegalArgumentException("unknown --clock '" + clock + "'; use cpu or wall");
        }
        System.out.printf(Locale.ROOT, "softmax 784 -> 10 (7850 parameters), %s, %d blocks, %s clock, OMP_NUM_THREADS=%s%n", precision,
                blocks, clock, System.getenv().getOrDefault("OMP_NUM_THREADS", "unset"));
        System.out.printf(Locale.ROOT, "%5s %9s %9s %9s   %-24s %-24s%n", "M", "mu2 ms", "sgd ms", "fit ms", "mu2/sgd median [IQR]",
                "mu2/fit median [IQR]");
        for (int m : machines) {
            int perBlock = Math.max(2, examplesPerBlock / m);
            double[][] t = measure(m, perBlock);
            System.out.printf(Locale.ROOT, "%5d %9.3f %9.3f %9.3f   %-24s %-24s%n", m, PairedTiming.median(t[0]), PairedTiming.median(t[1]),
                    PairedTiming.median(t[2]), ratios(t[0], t[1]), ratios(t[0], t[2]));
        }
        return 0;
    }

    /** Median and interquartile range of the per-block ratios a / b. */
    private static String ratios(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int k = 0; k < a.length; k++) {
            r[k] = a[k] / b[k];
        }
        java.util.Arrays.sort(r);
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", PairedTiming.median(r), r[r.length / 4], r[(3 * r.length) / 4]);
    }

    /** Milliseconds per round of mu2, sgd and fit in each block. */
    private double[][] measure(int m, int perBlock) {
        int warmup = perBlock;
        int rounds = warmup + blocks * perBlock + 1;
        List<NodeData> data = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            INDArray y = Nd4j.zeros(precision, rounds, 10);
            for (int t = 0; t < rounds; t++) {
                y.putScalar(t, (i + t) % 10, 1.0);
            }
            data.add(new NodeData(Nd4j.rand(precision, rounds, 784), y));
        }
        // Round-major [rounds, M, 1, k], as the mu^2 trainer stores its data: a round's examples are one contiguous block.
        INDArray features = Nd4j.stack(1, data.stream().map(d -> d.features().reshape(rounds, 1, 784)).toArray(INDArray[]::new));
        INDArray labels = Nd4j.stack(1, data.stream().map(d -> d.labels().reshape(rounds, 1, 10)).toArray(INDArray[]::new));
        MultiLayerNetwork net = network();
        Mu2Config cfg = new Mu2Config(ServerTrust.TRUSTED, rounds, 1, 1e-6, new ParameterBall(0.1), Double.POSITIVE_INFINITY,
                NoiseSchedule.none(), 1);
        PlainSgd sgd = new PlainSgd(PerExampleGradients.of(net), features, labels, m);
        MultiLayerNetwork fitNet = network();
        int[] fitRound = {0};
        try (Mu2Trainer mu2 = Mu2Trainer.of(network(), data, cfg, new SeededNoiseStreams(1), null, null)) {
            Runnable fit = () -> {
                int t = fitRound[0]++ % rounds;
                fitNet.fit(new DataSet(features.slice(t).reshape(m, 784), labels.slice(t).reshape(m, 10)));
            };
            for (int i = 0; i < warmup; i++) {
                mu2.step();
                sgd.step();
                fit.run();
            }
            double[][] times = new double[3][blocks];
            for (int k = 0; k < blocks; k++) {
                times[0][k] = time(mu2::step, perBlock);
                times[1][k] = time(sgd::step, perBlock);
                times[2][k] = time(fit, perBlock);
            }
            return times;
        }
    }

    /** Milliseconds per call on the chosen clock. */
    private double time(Runnable r, int times) {
        if (clock.equals("wall")) {
            return PairedTiming.time(r, times);
        }
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = bean.getCurrentThreadCpuTime();
        for (int i = 0; i < times; i++) {
            r.run();
        }
        return (bean.getCurrentThreadCpuTime() - t0) / 1e6 / times;
    }

    private MultiLayerNetwork network() {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(784, 10,
                ModelOptions.defaults().withDataType(precision).withUpdater(new Sgd(1e-6))));
        net.init();
        return net;
    }

    /** Plain federated SGD with the mu^2 trainer's data layout: x <- x - eta mean_i grad f(x; z_i). */
    private static final class PlainSgd {
        private final PerExampleGradients engine;
        private final INDArray features;
        private final INDArray labels;
        private final INDArray points;
        private final INDArray grad;
        private final INDArray x;
        private final String workspace = "DPDL4J_BENCH_PLAIN_SGD";
        private int t;

        PlainSgd(PerExampleGradients engine, INDArray features, INDArray labels, int m) {
            this.engine = engine;
            this.features = features;
            this.labels = labels;
            long p = engine.spec().numParams();
            DataType type = engine.spec().dataType();
            this.points = Nd4j.zeros(type, m, p);
            this.grad = Nd4j.zeros(type, m, p);
            this.x = Nd4j.zeros(type, 1, p);
        }

        void step() {
            try (MemoryWorkspace ws = Nd4j.getWorkspaceManager().getAndActivateWorkspace(ROUND, workspace)) {
                int r = t++ % (int) features.size(0);
                points.putiRowVector(x);
                engine.clippedSum(points, features.slice(r), labels.slice(r), null, Double.POSITIVE_INFINITY, grad);
                Nd4j.getBlasWrapper().level1().axpy(x.length(), -1e-6, grad.mean(0).reshape(1, x.length()), x);
            }
        }
    }
}
