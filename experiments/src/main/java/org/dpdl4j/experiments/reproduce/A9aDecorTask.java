package org.dpdl4j.experiments.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.models.LogisticRegressionModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Decor's a9a task: logistic regression on 16 users (Dirichlet(10) label split, each example on exactly
 * one user), user-level privacy (each user's mini-batch mean gradient clipped to C), batches of 64,
 * T = 5000, {@code eta_t = eta_0 / (1 + t/5000)}, weight decay 1e-5, (eta_0, C) from the reference
 * scripts; metric: training loss (binary cross-entropy) of the average model on the whole training set,
 * minus 0.3236 (the paper's estimate of the optimum).
 */
final class A9aDecorTask implements DecorTask {
    static final double OPTIMUM = 0.3236;
    private final LabeledData train;
    private final INDArray trainX;
    private final INDArray trainY;

    A9aDecorTask(DataDirectory dir) throws IOException {
        this.train = Datasets.a9a(dir).train();
        this.trainX = train.features();
        this.trainY = train.labelMatrix(LabelEncoding.BINARY);
    }

    @Override
    public DecorTaskSettings settings() {
        return new DecorTaskSettings("a9a", List.of(3.0, 7.0, 15.0, 25.0, 40.0), 4, 5000, 64, ProtectedUnit.USER, SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT, LocalObjective.MEAN, 1e-5, "training loss - 0.3236", true);
    }

    @Override
    public List<NodeData> nodes(long seed) {
        return DirichletNodes.split(train, trainY, seed);
    }

    @Override
    public MultiLayerNetwork template(long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(LogisticRegressionModel.configuration(123, ModelOptions.defaults().withSeed(seed)));
        net.init();
        return net;
    }

    @Override
    public Hyper hyper(DecorSetting s, double epsilon) {
        boolean low = epsilon <= 7;
        double[] etaClip = switch (s.algorithm()) {
            case CDP -> low ? new double[]{0.05, 0.01} : new double[]{0.01, 0.1};
            case LDP -> epsilon <= 5 ? new double[]{0.005, 0.01} : epsilon <= 10 ? new double[]{0.01, 0.01} : new double[]{0.05, 0.01};
            case DECOR -> s.topology().equals("complete") ? (low ? new double[]{0.05, 0.01} : new double[]{0.01, 0.1})
                    : epsilon <= 10 ? new double[]{0.005, 0.1} : new double[]{0.01, 0.1};
            case DSGD -> new double[]{0.05, Double.NaN};
        };
        return new Hyper(new LearningRate.InverseTime(etaClip[0], 5000), etaClip[1]);
    }

    @Override
    public double runAndMeasure(DecentralizedTrainer trainer) {
        trainer.runToEnd();   // the rounds the noise was calibrated for (the task's T unless --rounds)
        MultiLayerNetwork net = trainer.template();
        net.setParams(trainer.averageModel().reshape(1, net.numParams()));
        INDArray p = Transforms.min(Transforms.max(net.output(trainX, false), 1e-12, false), 1 - 1e-12, false).castTo(DataType.DOUBLE);
        INDArray y = trainY.castTo(DataType.DOUBLE);
        double bce = -(y.mul(Transforms.log(p, true)).add(y.rsub(1.0).mul(Transforms.log(p.rsub(1.0), false)))).meanNumber().doubleValue();
        return bce - OPTIMUM;
    }

    @Override
    public Map<Double, Map<String, String>> paperValues() {
        return new PaperTable("CDP", "Decor complete", "Decor torus", "Decor ring", "LDP complete", "LDP torus", "LDP ring")
                .row(3, "0.234", "0.253", "0.253", "0.288", "0.293", "0.293", "0.293")
                .row(7, "0.114", "0.118", "0.118", "0.128", "0.242", "0.242", "0.242")
                .row(15, "0.0647", "0.0672", "0.0673", "0.0760", "0.219", "0.219", "0.219")
                .row(25, "0.0538", "0.0548", "0.0549", "0.0604", "0.142", "0.142", "0.142")
                .row(40, "0.0498", "0.0502", "0.0502", "0.0529", "0.111", "0.111", "0.111")
                .build();
    }
}
