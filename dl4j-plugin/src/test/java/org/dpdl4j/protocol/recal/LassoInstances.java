package org.dpdl4j.protocol.recal;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.models.LeastSquaresModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.models.SoftmaxRegressionModel;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** Small random distributed Lasso instances (spec 5.6's simulation: n agents, p features, m rows each). */
final class LassoInstances {
    private LassoInstances() {
    }

    /** Gaussian features, a sparse true model, targets with a little noise; seeded. */
    static List<NodeData> agents(int n, int rows, int p, int c, long seed) {
        Random r = new Random(seed);
        double[][] truth = new double[p][c];
        for (int j = 0; j < p; j += 3) {
            for (int k = 0; k < c; k++) {
                truth[j][k] = r.nextGaussian();
            }
        }
        List<NodeData> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double[][] a = new double[rows][p];
            double[][] b = new double[rows][c];
            for (int m = 0; m < rows; m++) {
                for (int j = 0; j < p; j++) {
                    a[m][j] = r.nextGaussian();
                }
                for (int k = 0; k < c; k++) {
                    double v = 0.1 * r.nextGaussian();
                    for (int j = 0; j < p; j++) {
                        v += a[m][j] * truth[j][k];
                    }
                    b[m][k] = v;
                }
            }
            out.add(new NodeData(Nd4j.createFromArray(a), Nd4j.createFromArray(b)));
        }
        return out;
    }

    /** One-hot targets of the class with the largest score of a random linear model, for the logistic loss. */
    static List<NodeData> classification(int n, int rows, int p, int c, long seed) {
        List<NodeData> scores = agents(n, rows, p, c, seed);
        List<NodeData> out = new ArrayList<>();
        for (NodeData d : scores) {
            double[][] s = d.labels().toDoubleMatrix();
            double[][] onehot = new double[s.length][c];
            for (int m = 0; m < s.length; m++) {
                int best = 0;
                for (int k = 1; k < c; k++) {
                    best = s[m][k] > s[m][best] ? k : best;
                }
                onehot[m][best] = 1;
            }
            out.add(new NodeData(d.features(), Nd4j.createFromArray(onehot)));
        }
        return out;
    }

    static MultiLayerNetwork leastSquares(int p, int c, boolean bias) {
        MultiLayerNetwork net = new MultiLayerNetwork(LeastSquaresModel.configuration(p, c, bias,
                ModelOptions.defaults().withDataType(DataType.DOUBLE)));
        net.init();
        return net;
    }

    static MultiLayerNetwork softmax(int p, int c) {
        MultiLayerNetwork net = new MultiLayerNetwork(SoftmaxRegressionModel.configuration(p, c,
                ModelOptions.defaults().withDataType(DataType.DOUBLE)));
        net.init();
        return net;
    }
}
