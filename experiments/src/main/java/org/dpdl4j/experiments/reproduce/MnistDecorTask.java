package org.dpdl4j.experiments.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Decor's MNIST task: the 784-128-10 ReLU MLP on 16 users (Dirichlet(10) split), example-level privacy
 * (per-example clipping to C, mean over batches of 64 drawn by Poisson sampling), T = 1000,
 * {@code eta_t = eta_0/(1 + t/5000)}, weight decay 1e-5, (eta_0, C) from the reference scripts; metric:
 * test accuracy of the average model on the 10,000 test images.
 */
final class MnistDecorTask implements DecorTask {
    private final TrainTest data;
    private final INDArray trainY;
    private final INDArray testX;
    private final INDArray testY;

    private final boolean referenceEpsilon;

    /** @param referenceEpsilon whether the targets are the reference code's values (the figure) or proper epsilons */
    MnistDecorTask(DataDirectory dir, boolean referenceEpsilon) throws IOException {
        this.referenceEpsilon = referenceEpsilon;
        this.data = Datasets.mnist(dir, PixelScaling.STANDARDIZED);
        this.trainY = data.train().labelMatrix(LabelEncoding.ONE_HOT);
        this.testX = data.test().features();
        this.testY = data.test().labelMatrix(LabelEncoding.ONE_HOT);
    }

    /** The figure's epsilons: the reference code's example-level value (see ReferenceCodeEpsilon), not (eps, delta)-DP. */
    @Override
    public DecorTaskSettings settings() {
        return new DecorTaskSettings("mnist", referenceEpsilon ? List.of(1e-3, 1e-2, 0.1, 1.0) : List.of(1.0, 3.0, 6.0, 12.0), 3, 1000, 64, ProtectedUnit.EXAMPLE, SamplingScheme.POISSON, LocalObjective.MEAN, 1e-5, "test accuracy", false);
    }

    @Override
    public List<NodeData> nodes(long seed) {
        return DirichletNodes.split(data.train(), trainY, seed);
    }

    @Override
    public MultiLayerNetwork template(long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(MlpModel.paperConfiguration(784, 10, ModelOptions.defaults().withSeed(seed)));
        net.init();
        return net;
    }

    /**
     * The reference table (spec 3.7) is indexed by the figure's reference-code epsilons 1e-3 .. 1. Runs
     * calibrated to a proper (epsilon, delta) use the column of the reference level with about the same
     * noise: with this workload's split, reference values 1e-3, 1e-2, 0.1 and 1 correspond to proper
     * epsilons of about 1.2, 3.5, 6.5 and 11.3 (C = 1, delta = 1e-5).
     */
    @Override
    public Hyper hyper(DecorSetting s, double epsilon) {
        double level = referenceEpsilon ? epsilon : epsilon <= 2 ? 1e-3 : epsilon <= 5 ? 1e-2 : epsilon <= 9 ? 0.1 : 1.0;
        boolean tiny = level <= 1e-2 + 1e-12;
        boolean tenth = Math.abs(level - 0.1) < 1e-9;
        double[] etaClip;
        if (tiny) {
            etaClip = new double[]{1, 1};
        } else {
            etaClip = switch (s.algorithm()) {
                case CDP -> new double[]{5, 1};
                case LDP -> !tenth && s.topology().equals("torus") ? new double[]{0.5, 1} : new double[]{1, 1};
                case DECOR -> switch (s.topology()) {
                    case "complete" -> new double[]{5, 1};
                    case "torus" -> tenth ? new double[]{5, 1} : new double[]{1, 5};
                    default -> tenth ? new double[]{2, 1} : new double[]{1, 1.5};
                };
                case DSGD -> new double[]{1, Double.NaN};
            };
        }
        return new Hyper(new LearningRate.InverseTime(etaClip[0], 5000), etaClip[1]);
    }

    @Override
    public double runAndMeasure(DecentralizedTrainer trainer) {
        trainer.runToEnd();   // the rounds the noise was calibrated for (the task's T unless --rounds)
        MultiLayerNetwork net = trainer.template();
        net.setParams(trainer.averageModel().reshape(1, net.numParams()));
        INDArray out = net.output(testX, false);
        return out.argMax(1).eq(testY.argMax(1)).castTo(DataType.DOUBLE).meanNumber().doubleValue();
    }

    /** The paper's Figure 1 values, indexed by the reference code's epsilon: shown only beside runs calibrated to it. */
    @Override
    public Map<Double, Map<String, String>> paperValues() {
        if (!referenceEpsilon) {
            return Map.of();
        }
        return new PaperTable("CDP", "Decor complete", "Decor torus", "Decor ring", "LDP complete", "LDP torus", "LDP ring")
                .row(1e-3, "0.918±0.002", "0.916±0.001", "0.916±0.001", "0.912±0.000", "0.818±0.008", "0.820±0.008", "0.825±0.007")
                .row(1e-2, "0.925±0.001", "0.925±0.001", "0.925±0.001", "0.919±0.002", "0.892±0.002", "0.893±0.002", "0.894±0.002")
                .row(0.1, "0.931±0.002", "0.930±0.002", "0.931±0.001", "0.929±0.002", "0.908±0.002", "0.908±0.002", "0.908±0.002")
                .row(1, "0.936±0.002", "0.930±0.002", "0.932±0.001", "0.928±0.001", "0.915±0.002", "0.914±0.001", "0.915±0.002")
                .build();
    }
}
