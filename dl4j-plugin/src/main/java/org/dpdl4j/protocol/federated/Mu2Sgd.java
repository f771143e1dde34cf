package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.PerExampleGradients;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Objects;

/**
 * mu^2-SGD (Levy 2023; spec 4.2) as an optimizer of one DL4J network: anytime averaging with
 * {@code alpha_t = t}, corrected momentum with {@code beta_t = 1/t}, projection onto a ball. Each
 * {@link #step} takes a fresh batch, computes the gradients at the current and the previous query point on
 * that same batch (one batched pass), and leaves the network's parameters at the new query point
 * {@code x_{t+1}}, where the next batch's gradient will be taken and where the model should be evaluated.
 *
 * <pre>{@code
 * Mu2Sgd opt = new Mu2Sgd(net, 1e-3, new ParameterBall(0.1));
 * for (DataSet batch : onePass) opt.step(batch.getFeatures(), batch.getLabels());
 * }</pre>
 *
 * Each example should be seen once (the method's guarantees are for a single pass over fresh samples).
 */
public final class Mu2Sgd {
    private final MultiLayerNetwork net;
    private final Mu2Machines machine;
    private final Mu2Iterates iterates;
    private final double stepSize;

    /** mu^2-SGD without clipping. */
    public Mu2Sgd(MultiLayerNetwork net, double stepSize, ParameterBall domain) {
        this(net, stepSize, domain, Double.POSITIVE_INFINITY);
    }

    /**
     * @param net      an initialised dense network (validated like every per-example engine); its parameters are
     *                 projected onto the domain and become {@code x_1}
     * @param stepSize eta &gt; 0
     * @param domain   the ball K (or {@link ParameterBall#unbounded()})
     * @param qClip    clip of each weighted increment q, or {@code +Infinity}
     */
    public Mu2Sgd(MultiLayerNetwork net, double stepSize, ParameterBall domain, double qClip) {
        this.net = Objects.requireNonNull(net, "network");
        if (!(stepSize > 0) || Double.isInfinite(stepSize)) {
            throw new IllegalArgumentException("step size eta must be a positive finite number, got " + stepSize);
        }
        this.stepSize = stepSize;
        this.machine = new Mu2Machines(PerExampleGradients.of(net), 1, qClip);
        this.iterates = new Mu2Iterates(net.params(), domain);
        machine.moveTo(iterates.x());
        net.params().assign(iterates.x().reshape(net.params().shape()));
    }

    /**
     * One step on a fresh batch ([b, nIn] features, [b, k] labels); the increment uses the batch-mean gradient.
     *
     * @return the loss of the batch at the query point before the step, and the increment's norm
     */
    public Mu2Machines.MomentumStep step(INDArray features, INDArray labels) {
        if (features.rank() != 2 || labels.rank() != 2 || features.size(0) != labels.size(0) || features.size(0) == 0) {
            throw new IllegalArgumentException("a step needs features [b, nIn] and labels [b, k] with the same b >= 1, got "
                    + java.util.Arrays.toString(features.shape()) + " and " + java.util.Arrays.toString(labels.shape()));
        }
        long b = features.size(0);
        Mu2Machines.MomentumStep s = machine.accumulate(iterates.t(), features.reshape(1, b, features.size(1)),
                labels.reshape(1, b, labels.size(1)));
        iterates.advance(machine.dhat(), stepSize);
        machine.moveTo(iterates.x());
        net.params().assign(iterates.x().reshape(net.params().shape()));
        return s;
    }

    /** The weighted estimate {@code dhat_t = alpha_t d_t} after the last step ([1, p] live view). */
    public INDArray weightedEstimate() {
        return machine.dhat();
    }

    /** The iterates (x_t, x_{t-1}, w_t) and the round index. */
    public Mu2Iterates iterates() {
        return iterates;
    }

    public MultiLayerNetwork network() {
        return net;
    }
}
