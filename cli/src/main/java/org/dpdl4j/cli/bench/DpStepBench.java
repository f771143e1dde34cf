package org.dpdl4j.cli.bench;

import org.dpdl4j.cli.Converters;

import org.dpdl4j.experiments.bench.PairedTiming;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.DpOptimizer;
import org.dpdl4j.privacy.noise.LookAheadNoiseSource;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.privacy.noise.SecureNoiseSource;
import org.dpdl4j.privacy.noise.SeededNoiseSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Sgd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * A full DP-SGD step (per-example clipping, secure noise, DL4J updater) against a plain DL4J
 * {@code fit} step, same model, same batch; the clipping on the device {@code --device} names (the plain step always runs
 * on ND4J's backend).
 */
@Command(name = "dp-step", mixinStandardHelpOptions = true,
        description = "DP-SGD step (clipping + secure noise + updater) over a plain DL4J fit step, same model and batch.")
final class DpStepBench implements Callable<Integer> {
    @Option(names = "--model", defaultValue = "mlp", description = "mlp (784-128-10, MNIST-shaped), logistic (123 inputs, a9a-shaped) or cnn (the private tanh CNN on 28x28 images); default ${DEFAULT-VALUE}.")
    String model;

    @Option(converter = Converters.PositiveInt.class, names = "--batch-size", defaultValue = "256", description = "Batch size; default ${DEFAULT-VALUE}.")
    int batch;

    @Option(converter = Converters.PositiveInt.class, names = "--blocks", defaultValue = "15", description = "Interleaved measurement blocks; default ${DEFAULT-VALUE}.")
    int blocks;

    @Option(converter = Converters.PositiveInt.class, names = "--steps-per-block", defaultValue = "40", description = "Steps per block; default ${DEFAULT-VALUE}.")
    int perBlock;

    @Option(converter = Converters.NonNegativeInt.class, names = "--warmup", defaultValue = "2000", description = "Untimed steps of each kind first, at least (JIT compilation, workspace sizing); the warm-up then goes "
            + "on until the JIT compilers are nearly idle; default ${DEFAULT-VALUE}.")
    int warmup;

    @Option(names = "--device", defaultValue = "auto", description = "Where the DP step clips per example: auto (default:"
            + " dpdl4j's CUDA engine when a usable GPU is there), cpu, cuda or cuda:N (GPU N; refused, saying what is"
            + " missing, without one).")
    String device;

    @Option(names = "--noise", defaultValue = "secure", description = "secure (default: drawn one step ahead on a background thread, as PrivateTrainer does), secure-inline (same, on the calling thread) or seeded.")
    String noise;

    @Override
    public Integer call() {
        ModelKind kind = switch (model) {
            case "mlp" -> ModelKind.MLP;
            case "logistic" -> ModelKind.LOGISTIC;
            case "cnn" -> ModelKind.CNN;
            default -> throw new IllegalArgumentException("--model must be mlp, logistic or cnn, got " + model);
        };
        int nIn = kind == ModelKind.LOGISTIC ? 123 : 784;
        int nOut = kind == ModelKind.LOGISTIC ? 1 : 10;
        ModelOptions options = ModelOptions.defaults().withUpdater(new Sgd(0.01));
        MultiLayerNetwork plain = kind.network(nIn, nOut, options);
        MultiLayerNetwork priv = kind.network(nIn, nOut, options);
        INDArray x = Nd4j.rand(DataType.FLOAT, batch, nIn);
        INDArray y = Nd4j.zeros(DataType.FLOAT, batch, nOut);
        for (int i = 0; i < batch; i++) {
            y.putScalar(i, nOut == 1 ? 0 : i % nOut, nOut == 1 ? i % 2 : 1);
        }
        DataSet ds = new DataSet(x, y);
        NoiseSource source = switch (noise) {
            case "secure" -> new LookAheadNoiseSource();
            case "secure-inline" -> SecureNoiseSource.fromSecureRandom();
            case "seeded" -> SeededNoiseSource.forKey(new NoiseKey(1, "bench", 0, 0));
            default -> throw new IllegalArgumentException("--noise must be secure, secure-inline or seeded, got " + noise);
        };
        ComputeDevice where = ComputeDevice.parse(device);
        DpOptimizer dp = new DpOptimizer(priv, 1.0, 1.1, batch, source, where);
        // What PrivateTrainer hands the step with each batch: the batch's feature norms, gathered from the
        // dataset's, which it computes once (data only).
        INDArray xNormsSq = x.mul(x).sum(1);
        PairedTiming.Result r;
        // As PrivateTrainer's epochs: on a device that keeps the training, the parameters stay there between steps.
        try (DpOptimizer.KeepOnDevice keep = dp.keepOnDevice()) {
            r = PairedTiming.measure("fit", () -> plain.fit(ds), "dp-step", () -> dp.step(x, y, xNormsSq), warmup, blocks, perBlock);
        }
        System.out.printf("model=%s (%d parameters) batch=%d noise=%s device=%s OMP_NUM_THREADS=%s%n", model,
                plain.numParams(), batch, source.description(), where.label(), System.getenv().getOrDefault("OMP_NUM_THREADS", "unset"));
        System.out.println("training: " + dp.deviceResidence());
        System.out.println(r.format());
        System.out.printf("ratio=%.3f%n", r.ratio());
        return 0;
    }
}
