package org.dpdl4j.protocol.recal;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.layers.BaseOutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.activations.impl.ActivationIdentity;
import org.nd4j.linalg.activations.impl.ActivationSoftmax;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;

/**
 * The DL4J face of a composite problem's linear model: a network of one output layer, either least squares
 * (identity activation, half squared error) or multinomial logistic (softmax, cross-entropy), with or without a
 * bias. The model {@code X} ([q, c]) is the layer's weights [p, c] with the bias as a last row.
 *
 * @param network the template network
 * @param loss    the loss it implies
 * @param inputs  p, the features
 * @param outputs c
 * @param bias    whether the layer has a bias (X's last row, not penalised)
 */
public record LinearModel(MultiLayerNetwork network, SmoothLoss loss, int inputs, int outputs, boolean bias) {

    /**
     * Reads a template network.
     *
     * @throws IllegalArgumentException naming what does not fit
     */
    public static LinearModel of(MultiLayerNetwork network) {
        Layout l = Layout.of(network.getLayerWiseConfigurations());
        return new LinearModel(network, l.loss(), l.inputs(), l.outputs(), l.bias());
    }

    /** What the configuration says of the model, without its parameters. */
    public Layout layout() {
        return new Layout(loss, inputs, outputs, bias);
    }

    /**
     * A linear model as its configuration describes it: enough to set a problem up and price a run before any network
     * is built.
     *
     * @param loss    the loss the output layer implies
     * @param inputs  p, the features
     * @param outputs c
     * @param bias    whether the layer has a bias
     */
    public record Layout(SmoothLoss loss, int inputs, int outputs, boolean bias) {
        /**
         * Reads a network's configuration.
         *
         * @throws IllegalArgumentException naming what does not fit
         */
        public static Layout of(MultiLayerConfiguration configuration) {
            int layers = configuration.getConfs().size();
            if (layers != 1 || !(configuration.getConf(0).getLayer() instanceof BaseOutputLayer out)) {
                throw new IllegalArgumentException("the primal-dual protocols train a linear model: one output layer (--model"
                        + " least-squares or softmax), not a network of " + layers + " layers");
            }
            SmoothLoss loss;
            if (out.getActivationFn() instanceof ActivationIdentity && isHalfSquaredError(out)) {
                loss = SmoothLoss.LEAST_SQUARES;
            } else if (out.getLossFn() instanceof LossMCXENT && out.getActivationFn() instanceof ActivationSoftmax) {
                loss = SmoothLoss.LOGISTIC;
            } else {
                throw new IllegalArgumentException("the primal-dual protocols need a least-squares output layer (identity,"
                        + " half squared error) or a softmax one (cross-entropy); got " + out.getActivationFn() + " with "
                        + out.getLossFn() + " (use --model least-squares or softmax)");
            }
            return new Layout(loss, (int) out.getNIn(), (int) out.getNOut(), out.hasBias());
        }

        /** q, X's rows. */
        public int rows() {
            return inputs + (bias ? 1 : 0);
        }

        /** @throws IllegalArgumentException when the problem's data does not fit a model of this shape */
        void requireFits(CompositeProblem problem) {
            if (problem.rows() != rows() || problem.columns() != outputs) {
                throw new IllegalArgumentException("the model has " + rows() + " x " + outputs + " parameters but the"
                        + " data needs " + problem.rows() + " x " + problem.columns());
            }
        }
    }

    /** Whether the layer's loss is {@code (1/2) ||z - y||^2} summed over outputs (checked on two examples). */
    private static boolean isHalfSquaredError(BaseOutputLayer out) {
        var fn = out.getLossFn();
        var identity = new ActivationIdentity();
        try {
            double one = fn.computeScore(Nd4j.zeros(DataType.DOUBLE, 1, 2),
                    Nd4j.createFromArray(new double[][]{{2, 0}}), identity, null, false);
            double two = fn.computeScore(Nd4j.zeros(DataType.DOUBLE, 1, 2),
                    Nd4j.createFromArray(new double[][]{{1, 1}}), identity, null, false);
            return Math.abs(one - 2) < 1e-12 && Math.abs(two - 1) < 1e-12;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** q, X's rows. */
    public int rows() {
        return inputs + (bias ? 1 : 0);
    }

    /** The network's parameters as X [q, c], in double. */
    public INDArray toMatrix(MultiLayerNetwork net) {
        INDArray w = net.getParam("0_W").castTo(DataType.DOUBLE);
        return bias ? Nd4j.vstack(w, net.getParam("0_b").castTo(DataType.DOUBLE).reshape(1, outputs)) : w.dup();
    }

    /** A copy of the template holding X. */
    public MultiLayerNetwork withMatrix(INDArray x) {
        MultiLayerNetwork net = network.clone();
        DataType type = net.params().dataType();
        net.setParam("0_W", x.get(NDArrayIndex.interval(0, inputs), NDArrayIndex.all()).castTo(type));
        if (bias) {
            net.setParam("0_b", x.getRow(inputs).reshape(1, outputs).castTo(type));
        }
        return net;
    }

    /** X as the network's flat parameter vector: W in column-major order, then the bias (DL4J's layout). */
    public INDArray flat(INDArray x) {
        DataType type = network.params().dataType();
        INDArray w = Nd4j.toFlattened('f', x.get(NDArrayIndex.interval(0, inputs), NDArrayIndex.all())).castTo(type).reshape(1, -1);
        return (bias ? Nd4j.hstack(w, x.getRow(inputs).reshape(1, outputs).castTo(type)) : w).reshape(-1);
    }
}
