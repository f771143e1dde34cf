package org.dpdl4j.audit;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ComputeDevice;
import org.dpdl4j.optim.ExampleGradients;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * What the training data contributes, in expectation over the batch sampling, to a DP-SGD step's released gradient
 * at given parameters: {@code q * sum_i clip_C(g_i(theta)) / B} over the data set's examples (not the canaries).
 *
 * <p>The auditor of a privacy audit may know every training example but the canaries (that is the adversary DP
 * protects against), and it sees the parameters of every step; subtracting this from each released gradient removes
 * the data's coherent share of a canary's score (about {@code C |mean clipped gradient| / sqrt(p)} per step, the same
 * sign step after step), which in a small network can hide the canaries entirely. The guarantee of the audit is
 * unaffected: the score still depends only on what the run released and on data independent of the coins.
 *
 * <p>It costs one pass over the data per step ({@code 1/q} times a training step), in chunks of at most
 * {@link #CHUNK} examples.
 */
public final class ExpectedDataGradient {
    /** Examples per batched pass. */
    static final int CHUNK = 1024;
    private final MultiLayerNetwork copy;
    private final ExampleGradients engine;
    private final INDArray features;
    private final INDArray labels;
    private final double clipNorm;
    private final double scale;
    private final INDArray chunkSum;
    private final INDArray total;

    /**
     * @param network      the trained network (copied: its architecture is what matters, the parameters come per call)
     * @param features     the training examples' features (the canaries excluded)
     * @param labels       their labels
     * @param clipNorm     the run's clip C
     * @param samplingRate the run's q
     * @param divisor      the run's expected batch size B
     */
    public ExpectedDataGradient(MultiLayerNetwork network, INDArray features, INDArray labels, double clipNorm,
                                double samplingRate, double divisor) {
        if (features.size(0) != labels.size(0)) {
            throw new IllegalArgumentException("one label row per example is needed: " + features.size(0) + " feature rows, "
                    + labels.size(0) + " label rows");
        }
        this.copy = network.clone();
        this.engine = ExampleGradients.of(copy, ComputeDevice.CPU);
        this.features = features;
        this.labels = labels;
        this.clipNorm = clipNorm;
        this.scale = samplingRate / divisor;
        this.chunkSum = Nd4j.create(copy.params().dataType(), copy.params().shape());
        this.total = Nd4j.create(copy.params().dataType(), copy.params().shape());
    }

    /**
     * The expected data share of the released gradient at {@code parameters} ([1, p] or [p]); the returned array is
     * reused by the next call.
     */
    public INDArray at(INDArray parameters) {
        copy.params().assign(parameters.reshape(copy.params().shape()));
        total.assign(0);
        long n = features.size(0);
        for (long start = 0; start < n; start += CHUNK) {
            long end = Math.min(n, start + CHUNK);
            INDArray x = features.get(NDArrayIndex.interval(start, end), NDArrayIndex.all());
            INDArray y = labels.get(NDArrayIndex.interval(start, end), NDArrayIndex.all());
            engine.sumClipped(copy.params(), x, y, null, clipNorm, chunkSum);
            total.addi(chunkSum);
        }
        return total.muli(scale);
    }
}
