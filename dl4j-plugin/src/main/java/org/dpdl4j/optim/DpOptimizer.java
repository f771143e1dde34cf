package org.dpdl4j.optim;

import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.StepFunction;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.deeplearning4j.optimize.stepfunctions.NegativeDefaultStepFunction;
import org.dpdl4j.optim.layers.ExampleLayerRegistry;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.runtime.RoundWorkspace;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>On a device engine that keeps the training in its memory ({@link ResidentTraining}: dpdl4j's CUDA engine) and an
 * updater it applies ({@link DeviceUpdater}: Sgd, Nesterovs), steps 1 to 4 all run on the device; the noise is still
 * drawn by the {@link NoiseSource} on the host and copied in. The network's own arrays are brought up to date after
 * every {@link #step}, or, inside {@link #keepOnDevice()}, only when something reads them: {@link #network()},
 * {@link #model()}, listeners that read parameters, observers, the end of the scope. With another updater the engine
 * clips on the device and DL4J's updater runs on the host ({@link #deviceResidence()} says which and why).
 */
public final class DpOptimizer {
    private static final Logger LOG = LoggerFactory.getLogger(DpOptimizer.class);
    private final TrainableNetwork net;
    private final double clipNorm;
    private final double noiseMultiplier;
    private final double divisor;
    private final NoiseSource noise;
    private final StepFunction stepFunction = new NegativeDefaultStepFunction();
    private final RoundWorkspace workspace = new RoundWorkspace();
    private final List<StepObserver> observers = new ArrayList<>();
    /** The device's hold on the parameters and updater state, when the engine keeps them; else null. */
    private DeviceResidence residence;
    /** Why the engine's device does not keep them (null on the host's engines, or when it does). */
    private String notResident;
    /** Open {@link #keepOnDevice()} scopes. */
    private int keepScopes;
    /** The noise of a step on the device, drawn on the host: a persistent [p] array. */
    private INDArray noiseOut;
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
     * installed and usable, the CPU otherwise). The noise is drawn on the host; the updater runs on the device when the
     * engine keeps the training there (see above), on the host otherwise.
     *
     * @throws DeviceUnavailableException when {@code device} cannot compute this network here (the message says why)
     */
    public DpOptimizer(MultiLayerNetwork net, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise,
                       ComputeDevice device) {
        this(TrainableNetwork.of(net, device), clipNorm, noiseMultiplier, divisor, noise);
    }

    /**
     * As above, with the layer types {@code layers} clips per example: the standard ones plus a user's
     * ({@link ExampleLayerRegistry#with}). A network with a layer the registry handles differently from the standard
     * registry runs on the CPU's per-layer engine.
     */
    public DpOptimizer(MultiLayerNetwork net, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise,
                       ComputeDevice device, ExampleLayerRegistry layers) {
        this(TrainableNetwork.of(net, device, layers), clipNorm, noiseMultiplier, divisor, noise);
    }

    /**
     * A private step on a {@link ComputationGraph} with one input and one output, made of the layers and per-example
     * vertices {@link org.dpdl4j.optim.layers.LayeredGradients} supports; otherwise as the constructor above.
     */
    public DpOptimizer(ComputationGraph graph, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise) {
        this(TrainableNetwork.of(graph, ComputeDevice.AUTO), clipNorm, noiseMultiplier, divisor, noise);
    }

    /** As above, with the layer types {@code layers} clips per example (the standard ones plus a user's). */
    public DpOptimizer(ComputationGraph graph, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise,
                       ExampleLayerRegistry layers) {
        this(TrainableNetwork.of(graph, ComputeDevice.AUTO, layers), clipNorm, noiseMultiplier, divisor, noise);
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
        placeOnEngine();
    }

    /**
     * A private step whose per-example clipping runs on an engine the caller opened (for instance dpdl4j-cuda's on a
     * chosen backend); the optimizer takes it over and closes it. Otherwise as the constructor with a device.
     */
    public DpOptimizer(MultiLayerNetwork net, double clipNorm, double noiseMultiplier, double divisor, NoiseSource noise,
                       ExampleGradients engine) {
        this(TrainableNetwork.of(net, engine), clipNorm, noiseMultiplier, divisor, noise);
    }

    /** Keeps the training on the engine's device when the engine and the updater allow it; says why not otherwise. */
    private void placeOnEngine() {
        residence = null;
        notResident = null;
        if (!(net.engine() instanceof ResidentTraining engine)) {
            return;
        }
        if (!(net.model() instanceof MultiLayerNetwork m)) {
            notResident = "a computation graph keeps its updater on the host";
            return;
        }
        DeviceUpdater updater = DeviceUpdater.of(m);
        notResident = updater.whyNot();
        if (notResident == null) {
            residence = new DeviceResidence(engine, m, updater);
        } else {
            LOG.info("The per-example clipping runs on the device; the updater runs on the host, because {}: every step"
                    + " copies the parameters in and the gradient out.", notResident);
        }
    }

    /**
     * Where the training lives: one line, e.g. that the parameters and updater state stay on the device between steps,
     * or why the updater runs on the host while the device clips.
     */
    public String deviceResidence() {
        if (residence != null) {
            return "parameters, updater state and gradient stay on the device between steps (noise from the host's "
                    + noise.description() + ")";
        }
        return notResident == null ? "host engine" : "clipping on the device, updater on the host: " + notResident;
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
        return step(features, labels, featureSquaredNorms, null);
    }

    /**
     * As {@link #step(INDArray, INDArray, INDArray)}, with {@code beforeNoise} adding to the clipped sum what the step
     * holds besides the batch (the sampled canaries of an audit, {@link PlantedExamples}) before the noise is added.
     * It runs on the host: an engine that keeps the training on its device is refused.
     *
     * @param beforeNoise null, or what adds to the clipped sum ([1, p], the network's gradient view)
     * @throws IllegalStateException when the training lives on a device engine
     */
    public ClippedBatch step(INDArray features, INDArray labels, INDArray featureSquaredNorms,
                             java.util.function.Consumer<INDArray> beforeNoise) {
        if (beforeNoise != null && residence != null) {
            throw new IllegalStateException("planted examples (audit canaries) are added to the clipped sum on the host,"
                    + " but this optimizer keeps the training on the device: train on the CPU (device(ComputeDevice.CPU))");
        }
        ClippedBatch batch = takeStep(features, labels, featureSquaredNorms, beforeNoise);
        if (keepScopes == 0 && residence != null) {
            residence.handOut();
        }
        return batch;
    }

    /**
     * Lets the following steps keep the parameters and updater state on the device (when the engine keeps them) until
     * the scope is closed, rather than copying them into the network after every step: reads through
     * {@link #network()} and {@link #model()}, listeners that read parameters and observers still see current values,
     * and closing the outermost scope brings the network's arrays up to date. Scopes nest.
     */
    public KeepOnDevice keepOnDevice() {
        keepScopes++;
        return new KeepOnDevice();
    }

    /** A scope of {@link #keepOnDevice()}; closing it twice is harmless. */
    public final class KeepOnDevice implements AutoCloseable {
        private boolean open = true;

        private KeepOnDevice() {
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                if (--keepScopes == 0 && residence != null) {
                    residence.handOut();
                }
            }
        }
    }

    private ClippedBatch takeStep(INDArray features, INDArray labels, INDArray featureSquaredNorms,
                                  java.util.function.Consumer<INDArray> beforeNoise) {
        INDArray grad = net.gradientView();
        ClippedBatch batch = null;
        net.keepGuarded();
        Collection<TrainingListener> listeners = net.listeners();
        // Who reads the parameters or the gradient during the step: the device's copies come back for them only.
        boolean watched = !observers.isEmpty() || ParameterReadingListeners.any(listeners);
        List<TrainingListener> reading = listeners.isEmpty() || features.size(0) == 0 ? List.of()
                : ForwardPassListeners.of(listeners);
        if (residence != null) {
            residence.beforeStep();
            if (watched || !reading.isEmpty()) {
                residence.readParameters();   // the parameters the gradient is taken at
            }
        }
        if (!reading.isEmpty()) {
            net.announceForwardPass(features, reading);
        }
        int iteration = net.iteration();
        int epoch = net.epoch();
        // The batched pass's temporaries live in a workspace reset every step; only the gradient (a persistent
        // view) and the small per-example results (copied out) survive it.
        try (MemoryWorkspace ws = workspace.open()) {
            ClippedBatch inside = null;
            if (residence != null) {
                inside = residence.engine().clipAndSum(features, labels, featureSquaredNorms, clipNorm);
                residence.engine().step(deviceNoise(), divisor, residence.updater().rates(iteration, epoch));
                residence.stepped();
            } else if (features.size(0) == 0) {
                grad.assign(0.0);
            } else {
                inside = net.engine().sumClipped(net.params(), features, labels, featureSquaredNorms, clipNorm, grad);
            }
            if (inside != null && features.size(0) > 0) {
                batch = new ClippedBatch(keepNorms(inside.norms()), lossOut.assign(inside.lossSums()), clipNorm);
            }
            if (residence == null) {
                if (beforeNoise != null) {
                    beforeNoise.accept(grad);
                }
                noise.addGaussian(grad, noiseStd());
                if (!HostBuffers.divideVector(grad, divisor)) {
                    grad.divi(divisor);
                }
            }
        }
        if (residence != null && watched) {
            residence.readGradient(grad);   // the host's parameters are still those the gradient was taken at
        }

        if (!observers.isEmpty()) {
            StepTap tap = new StepTap(iteration, net.params(), grad, noiseStd() / divisor, (int) features.size(0),
                    clipNorm, divisor);
            for (StepObserver observer : observers) {
                observer.onStep(tap);
            }
        }
        if (!listeners.isEmpty()) {
            net.showBatch(features, labels);
            for (TrainingListener listener : listeners) {
                listener.onBackwardPass(net.model());
            }
            net.showGradient();   // what the listeners see: the privatised gradient the updater is about to use
            for (TrainingListener listener : listeners) {
                listener.onGradientCalculation(net.model());
            }
        }
        if (residence == null) {
            net.update(iteration, epoch);
            refreshFlatViews(grad);
            stepFunction.step(paramsFlat, gradFlat);
        } else if (watched) {
            residence.readParameters();   // the updated parameters, for iterationDone
        }

        double score = batch == null ? Double.NaN : batch.lossSums().getDouble(0) / Math.max(1, features.size(0));
        net.setScore(score);
        for (TrainingListener listener : listeners) {
            listener.iterationDone(net.model(), iteration, epoch);
        }
        if (!listeners.isEmpty()) {
            net.clearBatch();
        }
        net.setIteration(iteration + 1);
        if (residence == null) {
            net.applyConstraints(iteration + 1, epoch);   // the device path refuses networks with constraints
        }
        return batch;
    }

    /** The step's noise for the device, drawn on the host by the noise source; null when there is none. */
    private INDArray deviceNoise() {
        if (noiseStd() == 0) {
            return null;
        }
        if (noiseOut == null) {
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                noiseOut = Nd4j.create(net.params().dataType(), net.params().length());
            }
        }
        noise.writeGaussian(noiseOut, noiseStd());
        return noiseOut;
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
            handOut();
            return m;
        }
        throw new IllegalStateException("this optimizer trains a ComputationGraph; use model()");
    }

    /** Calls the network's listeners' {@code onEpochStart}, as {@code fit} does before an epoch. */
    public void startEpoch() {
        readForListeners();
        for (TrainingListener l : net.listeners()) {
            l.onEpochStart(net.model());
        }
    }

    /** Calls the listeners' {@code onEpochEnd} and counts the epoch in the network, as {@code fit} does after one. */
    public void endEpoch() {
        readForListeners();
        for (TrainingListener l : net.listeners()) {
            l.onEpochEnd(net.model());
        }
        net.incrementEpoch();
    }

    /**
     * The network being trained: a {@link MultiLayerNetwork} or a {@link ComputationGraph}, with its arrays up to date
     * (copied from the device when it keeps them; the device takes them again before the next step, so the caller may
     * also change them).
     */
    public org.deeplearning4j.nn.api.Model model() {
        handOut();
        return net.model();
    }

    /** Brings the network's parameters and updater state up to date from the device, when it keeps them. */
    public void synchronize() {
        handOut();
    }

    private void handOut() {
        if (residence != null) {
            residence.handOut();
        }
    }

    private void readForListeners() {
        if (residence != null && ParameterReadingListeners.any(net.listeners())) {
            residence.readParameters();
        }
    }

    /**
     * Computes the per-example clipping on {@code device} from the next step on.
     *
     * @throws DeviceUnavailableException when that device cannot compute this network here
     */
    public void useDevice(ComputeDevice device) {
        handOut();
        net.useDevice(device);
        placeOnEngine();
    }

    /** Releases the per-example engine's resources (a GPU engine's device memory); the optimizer takes no step after. */
    public void close() {
        handOut();
        residence = null;
        net.closeEngine();
        net.unguard();
    }

    /** The network's DL4J listeners that the private steps call. */
    Collection<TrainingListener> listeners() {
        return net.listeners();
    }

    /**
     * Refuses DL4J's own training of the network ({@code net.fit} and what calls it) from now until {@link #close()}
     * ({@link PrivateTrainingGuard}); the private steps go on as before.
     */
    void refuseNonPrivateTraining() {
        net.guard();
    }

    /** C, the per-example clipping norm. */
    public double clipNorm() {
        return clipNorm;
    }

    /** z: the noise std on the clipped sum is z C. */
    public double noiseMultiplier() {
        return noiseMultiplier;
    }

    /** The expected batch size the noisy sum is divided by. */
    public double divisor() {
        return divisor;
    }

    /** Where the noise comes from. */
    public NoiseSource noiseSource() {
        return noise;
    }
}
