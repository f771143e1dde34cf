package org.dpdl4j.optim;

import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.StepFunction;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.deeplearning4j.optimize.stepfunctions.NegativeDefaultStepFunction;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.runtime.RoundWorkspace;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One differentially private gradient step on a DL4J {@link MultiLayerNetwork} or {@link ComputationGraph}, around
 * the network's own updater (whatever {@code IUpdater} it was configured with: Sgd, Adam, Nesterovs, ...):
 * <ol>
 *   <li>per-example gradients clipped to norm C and summed, from one batched pass ({@link ExampleGradients}: the
 *       fused dense engine, or the per-layer one for convolutions, embeddings and graphs);</li>
 *   <li>Gaussian noise N(0, (z C)^2) added to the sum by the {@link NoiseSource};</li>
 *   <li>division by the <i>expected</i> batch size (a data-independent divisor, as the privacy analysis of
 *       Poisson sampling requires);</li>
 *   <li>DL4J's updater (learning rate, momentum, Adam moments, regularization, gradient normalization)
 *       and parameter step, exactly as {@code net.fit} does them.</li>
 * </ol>
 * With C = infinity, z = 0 and a fixed batch this is {@code net.fit(batch)}: bit for bit for dense networks on the CPU,
 * to rounding for the others (whose layers DL4J computes in another order) and on a GPU ({@link ComputeDevice}).
 * It does no sampling and no accounting; {@link PrivateTrainer} adds both.
 */
public final class DpOptimizer {
    private final TrainableNetwork net;
    private final double clipNorm;
    private final double noiseMultiplier;
    private final double divisor;
    private final NoiseSource noise;
    private final StepFunction stepFunction = new NegativeDefaultStepFunction();
    private final RoundWorkspace workspace = new RoundWorkspace();
    private final List<StepObserver> observers = new ArrayList<>();
    /**
     * Where each step's per-example norms and loss sum are copied out of the step's workspace: persistent arrays
     * reused by every step, because an allocation outside a workspace (with JavaCPP's memory accounting) costs
     * as much as the whole clipping arithmetic of a small model.
     */
    private final PrefixViews normsOut = new PrefixViews();
    private final INDArray lossOut;
    /** Flat views of the parameter and gradient vectors for the step function, rebuilt if the network swaps arrays. */
    private INDArray paramsSource;
    private INDArray gradSource;
    private INDArray paramsFlat;
    private INDArray gradFlat;

    /**
     * @param net             an initialised network (validated by {@link DpModelValidator})
     * @param clipNorm        C &gt; 0, or infinity for no clipping (then the noise multiplier must be 0)
     * @param noiseMultiplier z &gt;= 0: noise std = z * C
     * @param divisor         the expected batch size the noisy sum is divided by
     * @param noise           the noise source (use the secure one for real guarantees)
     */
    public DpOptimizer(MultiLayerNetwork net, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise) {
        this(net, clipNorm, noiseMultiplier, divisor, noise, ComputeDevice.AUTO);
    }

    /**
     * As above, with the per-example clipping on {@code device} ({@link ComputeDevice#AUTO}: a GPU engine when one is
     * installed and usable, the CPU otherwise). Noise and the updater's step stay as described above, on the host.
     *
     * @throws DeviceUnavailableException when {@code device} cannot compute this network here (the message says why)
     */
    public DpOptimizer(MultiLayerNetwork net, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise,
                       ComputeDevice device) {
        this(TrainableNetwork.of(net, device), clipNorm, noiseMultiplier, divisor, noise);
    }

    /**
     * A private step on a {@link ComputationGraph} with one input and one output, made of the layers and per-example
     * vertices {@link org.dpdl4j.optim.layers.LayeredGradients} supports; otherwise as the constructor above.
     */
    public DpOptimizer(ComputationGraph graph, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise) {
        this(TrainableNetwork.of(graph, ComputeDevice.AUTO), clipNorm, noiseMultiplier, divisor, noise);
    }

    private DpOptimizer(TrainableNetwork net, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise) {
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("clip norm C must be > 0, got " + clipNorm);
        }
        if (!(noiseMultiplier >= 0) || Double.isInfinite(noiseMultiplier)) {
            throw new IllegalArgumentException("noise multiplier must be a finite number >= 0, got " + noiseMultiplier);
        }
        if (Double.isInfinite(clipNorm) && noiseMultiplier > 0) {
            throw new IllegalArgumentException("noise std = multiplier * C is infinite without clipping; set a finite clip norm");
        }
        if (!(divisor > 0) || Double.isInfinite(divisor)) {
            throw new IllegalArgumentException("batch-size divisor must be a positive finite number, got " + divisor);
        }
        this.net = net;
        this.clipNorm = clipNorm;
        this.noiseMultiplier = noiseMultiplier;
        this.divisor = divisor;
        this.noise = noise;
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            this.lossOut = Nd4j.create(net.params().dataType(), 1);
        }
    }

    /**
     * Applies one private step on the given batch (possibly empty: then only noise moves the model).
     *
     * @return what the batched pass measured (norms, loss sum); {@code null} for an empty batch. Its arrays belong
     *         to the optimizer and are overwritten by the next step: {@code dup()} what you keep.
     */
    public ClippedBatch step(INDArray features, INDArray labels) {
        return step(features, labels, null);
    }

    /**
     * As {@link #step(INDArray, INDArray)}, with the squared L2 norm of each example's features given by the
     * caller (computed once for a dataset and gathered with each batch, as {@link PrivateTrainer} does), which
     * saves the clipping its one reduction over the features.
     *
     * @param featureSquaredNorms null, or ||x_i||^2 for each row of {@code features}: shape [b] or [b, 1]
     */
    public ClippedBatch step(INDArray features, INDArray labels, INDArray featureSquaredNorms) {
        INDArray grad = net.gradientView();
        ClippedBatch batch = null;
        Collection<TrainingListener> listeners = net.listeners();
        if (!listeners.isEmpty() && features.size(0) > 0) {
            List<TrainingListener> reading = ForwardPassListeners.of(listeners);
            if (!reading.isEmpty()) {
                net.announceForwardPass(features, reading);
            }
        }
        // The batched pass's temporaries live in a workspace reset every step; only the gradient (a persistent
        // view) and the small per-example results (copied out) survive it.
        try (MemoryWorkspace ws = workspace.open()) {
            if (features.size(0) == 0) {
                grad.assign(0.0);
            } else {
                ClippedBatch inside = net.engine().sumClipped(net.params(), features, labels, featureSquaredNorms, clipNorm, grad);
                batch = new ClippedBatch(keepNorms(inside.norms()), lossOut.assign(inside.lossSums()), clipNorm);
            }
            noise.addGaussian(grad, noiseStd());
            if (!HostBuffers.divideVector(grad, divisor)) {
                grad.divi(divisor);
            }
        }

        int iteration = net.iteration();
        int epoch = net.epoch();
        if (!observers.isEmpty()) {
            StepTap tap = new StepTap(iteration, net.params(), grad, noiseStd() / divisor, (int) features.size(0),
                    clipNorm, divisor);
            for (StepObserver observer : observers) {
                observer.onStep(tap);
            }
        }
        if (!listeners.isEmpty()) {
            for (TrainingListener listener : listeners) {
                listener.onBackwardPass(net.model());
            }
            net.showGradient();   // what the listeners see: the privatised gradient the updater is about to use
            for (TrainingListener listener : listeners) {
                listener.onGradientCalculation(net.model());
            }
        }
        net.update(iteration, epoch);
        refreshFlatViews(grad);
        stepFunction.step(paramsFlat, gradFlat);

        double score = batch == null ? Double.NaN : batch.lossSums().getDouble(0) / Math.max(1, features.size(0));
        net.setScore(score);
        for (TrainingListener listener : listeners) {
            listener.iterationDone(net.model(), iteration, epoch);
        }
        net.setIteration(iteration + 1);
        net.applyConstraints(iteration + 1, epoch);
        return batch;
    }

    private void refreshFlatViews(INDArray grad) {
        INDArray params = net.params();
        // By identity of the arrays the network hands out (their buffers may be wrapped anew on every call).
        if (params != paramsSource || grad != gradSource) {
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                paramsSource = params;
                gradSource = grad;
                paramsFlat = params.reshape(params.length());
                gradFlat = grad.reshape(grad.length());
            }
        }
    }

    /**
     * Adds an observer of every step's released (noisy, divided) gradient, called before the updater uses it.
     * It sees live views that are valid only during the call; it must not modify them.
     */
    public void addObserver(StepObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    /** Copies a step's norms into the optimizer's persistent array (one view per batch size, see {@link PrefixViews}). */
    private INDArray keepNorms(INDArray norms) {
        if (norms == null) {
            return null;
        }
        long b = norms.length();
        return normsOut.first(norms.dataType(), b).assign(norms.rank() == 1 ? norms : norms.reshape(b));
    }

    /** Standard deviation of the noise added to the clipped sum: z * C (0 when z = 0, even without clipping). */
    public double noiseStd() {
        return noiseMultiplier == 0 ? 0.0 : noiseMultiplier * clipNorm;
    }

    /**
     * The network, when it is a {@link MultiLayerNetwork}.
     *
     * @throws IllegalStateException for a computation graph (use {@link #model()})
     */
    public MultiLayerNetwork network() {
        if (net.model() instanceof MultiLayerNetwork m) {
            return m;
        }
        throw new IllegalStateException("this optimizer trains a ComputationGraph; use model()");
    }

    /** Calls the network's listeners' {@code onEpochStart}, as {@code fit} does before an epoch. */
    public void startEpoch() {
        for (TrainingListener l : net.listeners()) {
            l.onEpochStart(net.model());
        }
    }

    /** Calls the listeners' {@code onEpochEnd} and counts the epoch in the network, as {@code fit} does after one. */
    public void endEpoch() {
        for (TrainingListener l : net.listeners()) {
            l.onEpochEnd(net.model());
        }
        net.incrementEpoch();
    }

    /** The network being trained: a {@link MultiLayerNetwork} or a {@link ComputationGraph}. */
    public org.deeplearning4j.nn.api.Model model() {
        return net.model();
    }

    /**
     * Computes the per-example clipping on {@code device} from the next step on.
     *
     * @throws DeviceUnavailableException when that device cannot compute this network here
     */
    public void useDevice(ComputeDevice device) {
        net.useDevice(device);
    }

    /** Releases the per-example engine's resources (a GPU engine's device memory); the optimizer takes no step after. */
    public void close() {
        net.closeEngine();
    }

    public double clipNorm() {
        return clipNorm;
    }

    public double noiseMultiplier() {
        return noiseMultiplier;
    }

    public double divisor() {
        return divisor;
    }

    public NoiseSource noiseSource() {
        return noise;
    }
}
