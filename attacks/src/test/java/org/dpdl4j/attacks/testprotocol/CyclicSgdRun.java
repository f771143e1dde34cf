package org.dpdl4j.attacks.testprotocol;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.RandomStreams;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.ObservableRun;
import org.dpdl4j.runtime.ObservedRelease;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.TrainingSet;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The run of {@code cyclic-sgd}: step t takes the next {@code batch} examples of a seeded permutation (wrapping
 * around) and sets theta &lt;- theta - eta g, g the gradient of their mean loss as DL4J computes it. The receiver of
 * the update sees theta - theta+ = eta g, released with its rows, no noise and no clipping.
 */
final class CyclicSgdRun extends AbstractTrainingRun implements ObservableRun {
    static final String OBSERVER = "update";

    private final MultiLayerNetwork net;
    private final TrainingSet data;
    private final long rounds;
    private final int batch;
    private final double learningRate;
    private final int[] order;
    private final List<Consumer<ObservedRelease>> sinks = new ArrayList<>();

    CyclicSgdRun(MultiLayerNetwork net, TrainingSet data, long rounds, long batch, double learningRate, long seed,
                 RunSettings settings) {
        super(CyclicSgdProtocol.NAME, settings, null);
        if (batch < 1 || batch > data.size()) {
            throw new IllegalArgumentException("batch size " + batch + " must lie in 1.." + data.size());
        }
        this.net = net;
        this.data = data;
        this.rounds = rounds;
        this.batch = (int) batch;
        this.learningRate = learningRate;
        this.order = RandomStreams.permutation((int) data.size(), new SplittableRandom(seed));
    }

    @Override
    public void observe(String observer, Consumer<ObservedRelease> sink) {
        if (!OBSERVER.equals(observer)) {
            throw new IllegalArgumentException(CyclicSgdProtocol.NAME + " declares no observer '" + observer
                    + "'; it declares " + OBSERVER);
        }
        sinks.add(sink);
    }

    @Override
    protected void takeStep(long index) {
        int[] rows = new int[batch];
        for (int k = 0; k < batch; k++) {
            rows[k] = order[(int) ((index * batch + k) % order.length)];
        }
        INDArray before = net.params().dup();
        net.setInput(Nd4j.pullRows(data.features(), 1, rows));
        net.setLabels(Nd4j.pullRows(data.labels(), 1, rows));
        net.computeGradientAndScore();
        INDArray update = net.gradient().gradient().dup().muli(learningRate);
        net.params().subi(update);
        measuredLoss(net.score());
        for (Consumer<ObservedRelease> sink : sinks) {
            sink.accept(new ObservedRelease(index, before.dup(), update.dup(), learningRate, rows, 0.0,
                    Double.POSITIVE_INFINITY));
        }
    }

    @Override
    public long plannedSteps() {
        return rounds;
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
        return withParameters(net, parameters());
    }

    @Override
    public RunState state() {
        return RunState.builder().array("theta", net.params()).build();
    }

    @Override
    protected void restoreState(RunState state, long completedSteps) {
        net.params().assign(state.array("theta", net.params().shape()));
    }
}
