package org.dpdl4j.cli.bench;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.cli.Converters;
import org.dpdl4j.cli.DataDirOption;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.experiments.bench.PairedTiming;
import org.dpdl4j.experiments.reproduce.RecalReproduction;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.protocol.recal.CompositeProblem;
import org.dpdl4j.protocol.recal.CompositeRun;
import org.dpdl4j.protocol.recal.Penalty;
import org.dpdl4j.protocol.recal.PrimalDualAlgorithm;
import org.dpdl4j.protocol.recal.PrimalDualRunBuilder;
import org.dpdl4j.protocol.recal.SmoothLoss;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * DP-RECAL's iteration on the MNIST Lasso (X of 784 x 10, 8 agents of 7,500 records on a ring, every record's gradient
 * clipped, Gaussian noise on the published dual) against one synchronous DP-PG-EXTRA iteration on the same problem,
 * interleaved in blocks. A relay iteration is one agent's clipped gradient plus O(p) baton work, a synchronous one every
 * agent's gradient plus the mixing: the ratio is expected near 1/8. The noise is a fixed multiplier with zeta = 1
 * (the cost of a step does not depend on the calibration, and an open-ended benchmark run has no planned LCI).
 */
@Command(name = "recal", mixinStandardHelpOptions = true,
        description = "DP-RECAL iterations per second on the MNIST Lasso, and one relay iteration over one DP-PG-EXTRA iteration.")
final class RecalIterationBench implements Callable<Integer> {
    private static final int AGENTS = 8;
    private static final int ROWS = 60_000;
    private static final long PLANNED = 2_000_000;

    @Mixin
    DataDirOption data;

    @Option(names = "--synthetic", description = "Random pixels of MNIST's shape instead of MNIST (no data needed).")
    boolean synthetic;

    @Option(converter = Converters.PositiveInt.class, names = "--blocks", defaultValue = "15", description = "Interleaved blocks; default ${DEFAULT-VALUE}.")
    int blocks;

    @Option(converter = Converters.PositiveInt.class, names = "--iterations-per-block", defaultValue = "80",
            description = "DP-RECAL iterations per block (DP-PG-EXTRA runs an eighth of them); default ${DEFAULT-VALUE}.")
    int perBlock;

    @Override
    public Integer call() throws IOException {
        List<NodeData> agents = agents();
        CompositeProblem problem = CompositeProblem.of(agents, SmoothLoss.LEAST_SQUARES, Penalty.l1(1.0), false);
        MultiLayerNetwork model = new MultiLayerNetwork(LeastSquaresModel.configuration(784, 10, false,
                ModelOptions.defaults().withDataType(DataType.DOUBLE)));
        model.init();
        CompositeRun relay = run(PrimalDualAlgorithm.DP_RECAL, model, problem);
        CompositeRun synchronous = run(PrimalDualAlgorithm.DP_PG_EXTRA, model, problem);
        int syncPerBlock = Math.max(1, perBlock / AGENTS);
        System.out.printf(Locale.ROOT, "MNIST Lasso (%s): X of 784 x 10, %d agents x %d records, ring, clipped gradients, Gaussian noise;"
                        + " %d blocks of %d dp-recal and %d dp-pg-extra iterations, OMP_NUM_THREADS=%s%n",
                synthetic ? "synthetic pixels" : "MNIST", AGENTS, ROWS / AGENTS, blocks, perBlock, syncPerBlock,
                System.getenv().getOrDefault("OMP_NUM_THREADS", "unset"));
        System.out.println(PairedTiming.warmUp(relay::step, synchronous::step, 10).format());
        double[] relayMs = new double[blocks];
        double[] syncMs = new double[blocks];
        for (int k = 0; k < blocks; k++) {
            relayMs[k] = PairedTiming.timeBlock(relay::step, perBlock);
            syncMs[k] = PairedTiming.timeBlock(synchronous::step, syncPerBlock);
        }
        double r = PairedTiming.median(relayMs);
        double s = PairedTiming.median(syncMs);
        System.out.printf(Locale.ROOT, "dp-recal: %.3f ms per iteration (%.1f iterations/s)   dp-pg-extra: %.3f ms per iteration"
                + "   ratio dp-recal/dp-pg-extra = %.3f (1/%d = %.3f)%n", r, 1000 / r, s, r / s, AGENTS, 1.0 / AGENTS);
        return 0;
    }

    private CompositeRun run(PrimalDualAlgorithm algorithm, MultiLayerNetwork model, CompositeProblem problem) {
        return PrimalDualRunBuilder.of(algorithm).model(model).problem(problem).graph(Topologies.ring(AGENTS))
                .iterations(algorithm.isRelay() ? PLANNED : PLANNED / AGENTS).clip(5).noiseMultiplier(1).zeta(1)
                .noiseKind(NoiseKind.SEEDED).seed(1).build();
    }

    private List<NodeData> agents() throws IOException {
        INDArray x;
        INDArray y;
        if (synthetic) {
            SplittableRandom random = new SplittableRandom(1);
            x = Nd4j.rand(DataType.DOUBLE, ROWS, 784);
            y = Nd4j.zeros(DataType.DOUBLE, ROWS, 10);
            for (int i = 0; i < ROWS; i++) {
                y.putScalar(i, random.nextInt(10), 1.0);
            }
        } else {
            LabeledData train = Datasets.mnist(data.resolve(), PixelScaling.UNIT_INTERVAL).train();
            x = train.features().castTo(DataType.DOUBLE);
            y = train.labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.DOUBLE);
        }
        return RecalReproduction.equalShares(x, y, AGENTS);
    }
}
