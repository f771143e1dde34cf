package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.data.synthetic.FeatureNorm;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class LocalModelsTest {

    @Test
    void theHessianIsTheDerivativeOfTheGradient() {
        PersonalizedProblem problem = Instances.problem(Instances.generated(4, 6, FeatureNorm.L1, 3), 1.0);
        INDArray theta = Nd4j.createFromArray(0.3, -1.2, 2.0, 0.0, 0.7, -0.4);
        INDArray h = problem.localHessian(1, theta);
        double step = 1e-6;
        for (int c = 0; c < 6; c++) {
            INDArray up = theta.dup();
            up.putScalar(c, theta.getDouble(c) + step);
            INDArray down = theta.dup();
            down.putScalar(c, theta.getDouble(c) - step);
            INDArray column = problem.localGradient(1, up).sub(problem.localGradient(1, down)).divi(2 * step);
            assertEquals(0, column.sub(h.getColumn(c)).norm2Number().doubleValue(), 1e-8, "column " + c);
        }
        assertEquals(0, h.sub(h.transpose()).norm2Number().doubleValue(), 1e-15, "symmetric");
    }

    @Test
    void everyLocalModelIsAStationaryPointEvenOnLocallyPrivateData() {
        BelletProblem task = Instances.generated(10, 20, FeatureNorm.L1, 8);
        List<AgentData> clean = Instances.train(task);
        List<AgentData> noisy = new ArrayList<>();
        SeededNoiseStreams streams = new SeededNoiseStreams(2);
        for (int i = 0; i < clean.size(); i++) {
            noisy.add(LocalDataPerturbation.perturb(clean.get(i), 1.0, streams.privateNoise(i, -2)));
        }
        for (List<AgentData> agents : List.of(clean, noisy)) {
            PersonalizedProblem problem = new PersonalizedProblem(agents, task.similarity(), PersonalizedProblem.inverseSizes(agents), 1.0);
            INDArray local = LocalModels.solve(problem);
            for (int i = 0; i < problem.agentCount(); i++) {
                double norm = problem.localGradient(i, local.getRow(i)).norm2Number().doubleValue();
                assertTrue(norm <= LocalModels.TOLERANCE, "agent " + i + ": gradient norm " + norm);
            }
        }
    }
}
