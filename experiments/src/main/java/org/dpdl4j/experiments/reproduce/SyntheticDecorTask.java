package org.dpdl4j.experiments.reproduce;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.RegressionData;
import org.dpdl4j.data.synthetic.DecorLeastSquares;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.LocalObjective;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decor's synthetic least-squares task: 16 users, d = 10, {@code f_i(x) = 1/2 ||A_i x - b_i||^2} with
 * {@code A_i = ((i+1)/4) I}, full local gradients, user-level privacy, C = 1, eta = 1.668e-3, T = 3500,
 * x^0 = 1; metric: the optimality gap {@code (1/n) sum_i ||x_i - x*||^2} averaged over the last 199
 * rounds, as the reference script does. The problem instance is drawn once (from the instance seed);
 * seeds change the noise only, as in the reference.
 */
final class SyntheticDecorTask implements DecorTask {
    private final DecorLeastSquares problem;

    SyntheticDecorTask(long instanceSeed) {
        this.problem = DecorLeastSquares.generate(instanceSeed);
    }

    @Override
    public DecorTaskSettings settings() {
        return new DecorTaskSettings("synthetic", List.of(1.0, 5.0, 10.0, 20.0, 30.0), 5, 3500, problem.dim(), ProtectedUnit.USER, SamplingScheme.FULL_BATCH, LocalObjective.SUM, 0, "optimality gap", true);
    }

    @Override
    public List<NodeData> nodes(long seed) {
        List<NodeData> out = new ArrayList<>();
        for (RegressionData user : problem.userData()) {
            out.add(new NodeData(user.features().castTo(DataType.DOUBLE), user.targets().castTo(DataType.DOUBLE)));
        }
        return out;
    }

    @Override
    public MultiLayerNetwork template(long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(problem.dim(), 1, false,
                ModelOptions.defaults().withDataType(DataType.DOUBLE).withSeed(seed)));
        net.init();
        net.params().assign(1.0);
        return net;
    }

    @Override
    public Hyper hyper(DecorSetting setting, double epsilon) {
        return new Hyper(new LearningRate.Constant(1.668e-3), 1.0);
    }

    @Override
    public double runAndMeasure(DecentralizedTrainer trainer) {
        long t = trainer.plannedSteps();   // the rounds the noise was calibrated for (the task's T unless --rounds)
        double sum = 0;
        int count = 0;
        while (trainer.round() < t) {
            trainer.step();
            if (trainer.round() >= t - 199 && trainer.round() <= t - 1) {
                sum += problem.optimalityGap(trainer.params());
                count++;
            }
        }
        return sum / count;
    }

    @Override
    public Map<Double, Map<String, String>> paperValues() {
        return new PaperTable("CDP", "Decor complete", "Decor torus", "Decor ring", "LDP complete", "LDP torus", "LDP ring")
                .row(1, "89.9", "104", "179", "167", "2060", "1750", "1840")
                .row(5, "0.807", "0.805", "1.55", "1.79", "30.9", "25.6", "56.0")
                .row(10, "0.0891", "0.0942", "0.240", "0.366", "4.82", "9.13", "6.52")
                .row(20, "0.0125", "0.0165", "0.0514", "0.114", "0.850", "0.916", "1.21")
                .row(30, "0.00593", "0.00826", "0.0273", "0.0537", "0.296", "0.352", "0.387")
                .build();
    }
}
