package org.dpdl4j.attacks.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** Many closed-form objectives of one shape share one workspace: a campaign of attacks does not accumulate memory. */
class MatchingWorkspaceTest {

    @Test
    void objectivesOfOneShapeReuseTheirWorkspace() {
        MultiLayerNetwork net = TestNetworks.mlp(12, new int[] {5}, 3, Activation.SIGMOID, 1, DataType.DOUBLE);
        TargetNetwork target = TargetNetwork.of(net);
        MatchingProblem problem = new MatchingProblem(target, target.split(Nd4j.rand(DataType.DOUBLE, 1,
                net.numParams())), 1, LabelTreatment.optimised(), false);
        double[] point = new double[problem.layout().dimension()];
        double[] gradient = new double[point.length];
        new DenseGradientMatching(problem, DataType.DOUBLE).evaluate(point, gradient);
        int workspaces = Nd4j.getWorkspaceManager().getAllWorkspacesForCurrentThread().size();
        for (int k = 0; k < 20; k++) {
            new DenseGradientMatching(problem, DataType.DOUBLE).evaluate(point, gradient);
        }
        assertEquals(workspaces, Nd4j.getWorkspaceManager().getAllWorkspacesForCurrentThread().size(),
                "one workspace per shape and thread, however many objectives ran");
    }
}
