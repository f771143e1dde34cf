package org.dpdl4j.protocol.central;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.EpochRun;
import org.dpdl4j.runtime.NetworkState;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Plain (non-private) mini-batch training with DL4J's own {@code fit}: every epoch shuffles the examples (with a
 * generator seeded once from the run's seed) and fits consecutive batches of the order. A step is one batch.
 * No privacy: it keeps no ledger.
 */
public final class MinibatchSgdRun extends AbstractTrainingRun implements EpochRun {
    /** The protocol name. */
    public static final String PROTOCOL = "sgd";

    private final MultiLayerNetwork net;
    private final INDArray features;
    private final INDArray labels;
    private final int batchSize;
    private final long seed;
    private final long stepsPerEpoch;
    private final long plannedSteps;
    private SplittableRandom shuffle;
    private int[] order;

    /**
     * @param net       an initialised network with its updater
     * @param features  training features, one row per example
     * @param labels    training labels, one row per example
     * @param batchSize examples per batch (the last batch of an epoch may be smaller)
     * @param epochs    planned passes over the data (a fraction plans part of the last epoch)
     * @param seed      seed of the shuffles
     * @param settings  the run's settings
     */
    public MinibatchSgdRun(MultiLayerNetwork net, INDArray features, INDArray labels, int batchSize, double epochs, long seed,
                           RunSettings settings) {
        super(PROTOCOL, settings, null);
        this.net = Objects.requireNonNull(net, "network");
        this.features = Objects.requireNonNull(features, "features");
        this.labels = Objects.requireNonNull(labels, "labels");
        long n = features.size(0);
        if (labels.size(0) != n) {
            throw new IllegalArgumentException("features have " + n + " rows but labels have " + labels.size(0));
        }
        if (batchSize < 1 || batchSize > n) {
            throw new IllegalArgumentException("batch size must lie in [1, " + n + "] (the number of training examples), got " + batchSize);
        }
        if (!(epochs > 0) || Double.isInfinite(epochs)) {
            throw new IllegalArgumentException("epochs must be a positive finite number, got " + epochs);
        }
        this.batchSize = batchSize;
        this.seed = seed;
        this.stepsPerEpoch = (n + batchSize - 1) / batchSize;
        this.plannedSteps = (long) Math.ceil(epochs * stepsPerEpoch - 1e-9);
        this.shuffle = new SplittableRandom(seed);
    }

    @Override
    protected void takeStep(long index) {
        long inEpoch = index % stepsPerEpoch;
        if (inEpoch == 0) {
            order = nextOrder();
        }
        int n = order.length;
        int start = (int) (inEpoch * batchSize);
        int[] rows = Arrays.copyOfRange(order, start, Math.min(n, start + batchSize));
        DataType type = net.params().dataType();
        net.fit(new DataSet(Nd4j.pullRows(features, 1, rows).castTo(type), Nd4j.pullRows(labels, 1, rows).castTo(type)));
        measuredLoss(net.score());
        if (inEpoch == stepsPerEpoch - 1) {
            net.incrementEpochCount();
        }
    }

    /** A uniformly random order of the examples (Fisher-Yates) from the run's shuffle stream. */
    private int[] nextOrder() {
        int n = (int) features.size(0);
        int[] o = new int[n];
        for (int i = 0; i < n; i++) {
            o[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = shuffle.nextInt(i + 1);
            int t = o[i];
            o[i] = o[j];
            o[j] = t;
        }
        return o;
    }

    /** Runs one epoch (or what is left of the current one) between the listeners' epoch callbacks. */
    @Override
    public void fitEpoch() {
        for (TrainingListener l : net.getListeners()) {
            l.onEpochStart(net);
        }
        do {
            step();
        } while (completedSteps() % stepsPerEpoch != 0);
        for (TrainingListener l : net.getListeners()) {
            l.onEpochEnd(net);
        }
    }

    @Override
    public long stepsPerEpoch() {
        return stepsPerEpoch;
    }

    @Override
    public long plannedSteps() {
        return plannedSteps;
    }

    @Override
    public String stepUnit() {
        return "step";
    }

    @Override
    public INDArray parameters() {
        return net.params().dup().reshape(net.numParams());
    }

    @Override
    public MultiLayerNetwork model() {
        return net;
    }

    @Override
    public RunState state() {
        return NetworkState.of(net).build();
    }

    /** Restores the network and replays the shuffles of the epochs begun, so the run continues exactly. */
    @Override
    protected void restoreState(RunState state, long completedSteps) {
        NetworkState.restore(net, state);
        shuffle = new SplittableRandom(seed);
        long begun = (completedSteps + stepsPerEpoch - 1) / stepsPerEpoch;
        for (long e = 0; e < begun; e++) {
            order = nextOrder();
        }
    }
}
