package org.dpdl4j.protocol.decentralized;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;

/** Decor's synthetic least-squares task in double precision, small enough for unit tests. */
final class DecentralizedFixtures {
    private DecentralizedFixtures() {
    }

    static MultiLayerNetwork leastSquares(int d) {
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(d, 1, false,
                ModelOptions.defaults().withDataType(DataType.DOUBLE)));
        net.init();
        net.params().assign(1.0);   // x^0 = 1, as in the paper's synthetic task
        return net;
    }

    /** Node i: rows of A_i = ((i+1)/sqrt(n)) I_d, targets b_i ~ N(0, 1/(i+1)^2). */
    static List<NodeData> data(int n, int d, long seed) {
        List<NodeData> out = new ArrayList<>();
        var random = Nd4j.getRandomFactory().getNewRandomInstance(seed);
        for (int i = 0; i < n; i++) {
            INDArray a = Nd4j.eye(d).castTo(DataType.DOUBLE).muli((i + 1) / Math.sqrt(n));
            INDArray b = random.nextGaussian(new long[]{d, 1}).castTo(DataType.DOUBLE).muli(1.0 / (i + 1));
            out.add(new NodeData(a, b));
        }
        return out;
    }

    static DecentralizedConfig config(DecentralizedAlgorithm algo, double sigmaCdp, double sigmaCor, long rounds) {
        return new DecentralizedConfig(algo, ProtectedUnit.USER, LocalObjective.SUM, 1.0, sigmaCdp, sigmaCor,
                new LearningRate.Constant(1.668e-3), 0.0, 1, SamplingScheme.FULL_BATCH, rounds, 7, DecorCompatibility.NONE);
    }
}
