package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.LogisticRegressionModel;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.models.SoftmaxRegressionModel;
import org.dpdl4j.optim.PerExampleGradientOracle;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Small models and data sets in double precision for the federated tests. */
public final class FederatedFixtures {
    private FederatedFixtures() {
    }

    public static ModelOptions doubles(long seed) {
        return ModelOptions.defaults().withDataType(DataType.DOUBLE).withSeed(seed);
    }

    public static MultiLayerNetwork softmax(int nIn, int classes, long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(nIn, classes, doubles(seed)));
        net.init();
        return net;
    }

    public static MultiLayerNetwork logistic(int nIn, long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(LogisticRegressionModel.configuration(nIn, 1, doubles(seed)));
        net.init();
        return net;
    }

    public static MultiLayerNetwork leastSquares(int nIn, long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(nIn, 1, true, doubles(seed)));
        net.init();
        return net;
    }

    public static MultiLayerNetwork mlp(int nIn, int hidden, int classes, long seed) {
        MultiLayerNetwork net = new MultiLayerNetwork(MlpModel.configuration(nIn, List.of(hidden), classes, Activation.TANH, doubles(seed)));
        net.init();
        return net;
    }

    public static INDArray gaussian(long seed, long rows, long cols) {
        return Nd4j.getRandomFactory().getNewRandomInstance(seed).nextGaussian(new long[]{rows, cols}).castTo(DataType.DOUBLE);
    }

    /** Rows rescaled to norm exactly {@code r}. */
    public static INDArray onSphere(long seed, long rows, long cols, double r) {
        INDArray x = gaussian(seed, rows, cols);
        return x.diviColumnVector(x.norm2(1).reshape(rows, 1)).muli(r);
    }

    public static INDArray oneHot(long seed, long rows, int classes) {
        Random random = new Random(seed);
        INDArray y = Nd4j.zeros(DataType.DOUBLE, rows, classes);
        for (int i = 0; i < rows; i++) {
            y.putScalar(i, random.nextInt(classes), 1.0);
        }
        return y;
    }

    public static INDArray binary(long seed, long rows) {
        Random random = new Random(seed);
        INDArray y = Nd4j.zeros(DataType.DOUBLE, rows, 1);
        for (int i = 0; i < rows; i++) {
            y.putScalar(i, 0, random.nextBoolean() ? 1.0 : 0.0);
        }
        return y;
    }

    /** {@code clients} softmax datasets with sizes {@code base + 3k} (unequal on purpose). */
    public static List<NodeData> softmaxClients(int clients, int base, int nIn, int classes, long seed) {
        List<NodeData> out = new ArrayList<>();
        for (int k = 0; k < clients; k++) {
            int m = base + 3 * k;
            out.add(new NodeData(gaussian(seed + 17L * k, m, nIn), oneHot(seed + 31L * k, m, classes)));
        }
        return out;
    }

    /** DL4J's own gradient of the mean loss over the rows, at the given parameters (a [p] DOUBLE vector). */
    public static INDArray meanGradient(MultiLayerNetwork template, INDArray params, INDArray features, INDArray labels) {
        MultiLayerNetwork probe = template.clone();
        probe.setParams(params.reshape(1, params.length()).castTo(DataType.DOUBLE));
        return PerExampleGradientOracle.perExampleGradients(probe, features, labels).mean(0);
    }
}
