package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The DL4J face of the linear model: which loss a layer means, and X in DL4J's parameter layout. */
class LinearModelTest {

    @Test
    void theFlatParametersAreWhatTheNetworkHolds() {
        for (MultiLayerNetwork net : new MultiLayerNetwork[]{LassoInstances.leastSquares(5, 3, false),
                LassoInstances.leastSquares(5, 3, true), LassoInstances.softmax(5, 3)}) {
            LinearModel m = LinearModel.of(net);
            INDArray x = Nd4j.rand(DataType.DOUBLE, m.rows(), m.outputs());
            MultiLayerNetwork holding = m.withMatrix(x);
            assertEquals(holding.params().reshape(-1), m.flat(x));
            assertEquals(x, m.toMatrix(holding));
        }
    }

    @Test
    void theLayerNamesTheLoss() {
        assertEquals(SmoothLoss.LEAST_SQUARES, LinearModel.of(LassoInstances.leastSquares(4, 2, false)).loss());
        assertEquals(SmoothLoss.LOGISTIC, LinearModel.of(LassoInstances.softmax(4, 2)).loss());
        assertTrue(LinearModel.of(LassoInstances.softmax(4, 2)).bias());
        MultiLayerNetwork mlp = new MultiLayerNetwork(org.dpdl4j.models.MlpModel.configuration(4, java.util.List.of(3), 2,
                org.nd4j.linalg.activations.Activation.RELU, org.dpdl4j.models.ModelOptions.defaults()));
        mlp.init();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinearModel.of(mlp));
        assertTrue(e.getMessage().contains("linear model"), e.getMessage());
    }

    @Test
    void runsReportWhetherTheirStepsMeetTheSufficientCondition() {
        CompositeProblem p = CompositeProblem.of(LassoInstances.agents(4, 10, 5, 3, 1), SmoothLoss.LEAST_SQUARES, Penalty.l1(0.1), false);
        CompositeRun safe = PrimalDualRunBuilder.of(PrimalDualAlgorithm.RECAL).model(LassoInstances.leastSquares(5, 3, false)).problem(p)
                .graph(org.dpdl4j.graph.Topologies.ring(4)).iterations(4).build();
        assertEquals("holds", safe.resolved().get("stepCondition"));
        CompositeRun bold = PrimalDualRunBuilder.of(PrimalDualAlgorithm.RECAL).model(LassoInstances.leastSquares(5, 3, false)).problem(p)
                .graph(org.dpdl4j.graph.Topologies.ring(4)).iterations(4).stepScale(3).build();
        assertTrue(String.valueOf(bold.resolved().get("stepCondition")).startsWith("violated"), String.valueOf(bold.resolved()));
    }
}
