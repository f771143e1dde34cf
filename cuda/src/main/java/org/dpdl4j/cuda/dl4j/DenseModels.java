package org.dpdl4j.cuda.dl4j;

import org.dpdl4j.cuda.engine.Activation;
import org.dpdl4j.cuda.engine.DenseLayer;
import org.dpdl4j.cuda.engine.DenseModel;
import org.dpdl4j.cuda.engine.KernelSource;
import org.dpdl4j.cuda.engine.OutputLoss;
import org.dpdl4j.optim.DenseLayerSpec;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.optim.HostActivation;
import org.dpdl4j.optim.HostOutputLoss;
import org.nd4j.linalg.api.buffer.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * A DL4J dense network as the engine's {@link DenseModel}. The engine computes what dpdl4j's host engine computes: the
 * activations and losses with a host kernel ({@link HostActivation}, {@link HostOutputLoss}) are read from them, so the
 * two engines support the same networks by construction.
 */
final class DenseModels {
    private DenseModels() {
    }

    /** Null when the engine computes the network; else why not. */
    static String whyNot(DenseNetworkSpec spec) {
        if (spec.dataType() != DataType.FLOAT) {
            return "the CUDA engine computes float32 networks; this one is " + spec.dataType()
                    + " (build it with dataType(DataType.FLOAT))";
        }
        List<DenseLayerSpec> layers = spec.layers();
        for (int l = 0; l + 1 < layers.size(); l++) {
            DenseLayerSpec layer = layers.get(l);
            if (HostActivation.of(layer.activation()) == null) {
                return "layer " + layer.index() + "'s activation " + layer.activation() + " has no CUDA kernel (identity,"
                        + " ReLU, leaky ReLU, tanh and sigmoid have)";
            }
            if (layer.nIn() > Integer.MAX_VALUE || layer.nOut() > Integer.MAX_VALUE) {
                return "layer " + layer.index() + " is too wide for the CUDA engine";
            }
        }
        if (HostOutputLoss.of(spec.output().activation(), spec.loss()) == null) {
            return "the output layer's activation " + spec.output().activation() + " with loss " + spec.loss()
                    + " has no CUDA kernel (softmax with MCXENT, sigmoid with XENT, and L2/MSE after a supported activation"
                    + " have)";
        }
        if (spec.numParams() > KernelSource.MAX_ELEMENTS) {
            return "the network has " + spec.numParams() + " parameters; the CUDA engine takes at most "
                    + KernelSource.MAX_ELEMENTS + " (one kernel launch's elements)";
        }
        return null;
    }

    /** The engine's model of a network {@link #whyNot} accepts. */
    static DenseModel of(DenseNetworkSpec spec) {
        String why = whyNot(spec);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        List<DenseLayer> layers = new ArrayList<>();
        for (DenseLayerSpec l : spec.layers()) {
            HostActivation f = HostActivation.of(l.activation());
            layers.add(new DenseLayer((int) l.nIn(), (int) l.nOut(), f == null ? Activation.IDENTITY : activation(f),
                    l.hasBias(), l.weightOffset()));
        }
        return new DenseModel(layers, loss(HostOutputLoss.of(spec.output().activation(), spec.loss())), spec.numParams());
    }

    static Activation activation(HostActivation f) {
        if (f instanceof HostActivation.LeakyRelu r) {
            return Activation.leakyRelu(r.slope());
        }
        if (f instanceof HostActivation.Tanh) {
            return Activation.TANH;
        }
        if (f instanceof HostActivation.Sigmoid) {
            return Activation.SIGMOID;
        }
        return Activation.IDENTITY;
    }

    static OutputLoss loss(HostOutputLoss loss) {
        if (loss instanceof HostOutputLoss.SoftmaxCrossEntropy s) {
            return OutputLoss.softmaxCrossEntropy(s.clipEps());
        }
        if (loss instanceof HostOutputLoss.SigmoidCrossEntropy s) {
            return OutputLoss.sigmoidCrossEntropy(s.clipEps());
        }
        HostOutputLoss.SquaredError s = (HostOutputLoss.SquaredError) loss;
        return OutputLoss.squaredError(activation(s.activation()), s.mean());
    }
}
