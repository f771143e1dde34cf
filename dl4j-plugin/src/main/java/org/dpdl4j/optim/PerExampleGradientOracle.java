package org.dpdl4j.optim;

import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The ground truth for per-example clipping: DL4J's own backpropagation run on one example at a time,
 * in double precision. It is 50-200x slower than the batched engines ({@link ExampleGradients}) and exists to check it -
 * including on your own models: {@link #compare} reports how far the fast path is from the truth.
 */
public final class PerExampleGradientOracle {
    private PerExampleGradientOracle() {
    }

    /** Per-example gradients of a computation graph with one input and one output, as rows of a [b, p] DOUBLE matrix. */
    public static INDArray perExampleGradients(ComputationGraph graph, INDArray features, INDArray labels) {
        ComputationGraph dbl = graph.convertDataType(DataType.DOUBLE);
        return oneAtATime(features, labels, dbl.numParams(), (x, y) -> {
            dbl.setInputs(x);
            dbl.setLabels(y);
            dbl.computeGradientAndScore();
            return dbl.gradient().gradient();
        });
    }

    /** Per-example gradients as rows of a [b, p] DOUBLE matrix (DL4J's flattened parameter layout). */
    public static INDArray perExampleGradients(MultiLayerNetwork net, INDArray features, INDArray labels) {
        MultiLayerNetwork dbl = net.convertDataType(DataType.DOUBLE);
        return oneAtATime(features, labels, dbl.numParams(), (x, y) -> {
            dbl.setInput(x);
            dbl.setLabels(y);
            dbl.computeGradientAndScore();
            return dbl.gradient().gradient();
        });
    }

    /** DL4J's gradient for each example of a batch on its own, in double precision, as the rows of a [b, p] matrix. */
    private static INDArray oneAtATime(INDArray features, INDArray labels, long numParams,
                                       java.util.function.BinaryOperator<INDArray> gradientOf) {
        INDArray x = features.castTo(DataType.DOUBLE);
        INDArray y = labels.castTo(DataType.DOUBLE);
        long b = x.size(0);
        INDArray out = Nd4j.create(DataType.DOUBLE, b, numParams);
        for (long i = 0; i < b; i++) {
            // Example i with every dimension kept (rank-4 images stay rank 4).
            INDArray xi = x.get(NDArrayIndex.interval(i, i + 1)).dup();
            INDArray yi = y.get(NDArrayIndex.interval(i, i + 1)).dup();
            out.putRow(i, gradientOf.apply(xi, yi).reshape(numParams));
        }
        return out;
    }

    /** Sum over examples of {@code g_i * min(1, C / ||g_i||)}, as a DOUBLE vector of length p. */
    public static INDArray clippedSum(INDArray perExampleGradients, double clipNorm) {
        INDArray norms = perExampleGradients.norm2(1);
        INDArray factors = Transforms.min(Transforms.pow(norms, -1.0, true).muli(clipNorm), 1.0, false);
        return perExampleGradients.mulColumnVector(factors.reshape(factors.length(), 1)).sum(0);
    }

    /**
     * Compares the fast per-example engine with this oracle on one batch.
     *
     * @return the largest error of the per-example norms relative to the largest norm of the batch, and the
     *         relative error (in L2) of the clipped gradient sum; in double precision both should be below
     *         1e-10, in float below 1e-5
     */
    public static Comparison compare(MultiLayerNetwork net, INDArray features, INDArray labels, double clipNorm) {
        return compare(perExampleGradients(net, features, labels), ExampleGradients.of(net), net.params(),
                features, labels, clipNorm);
    }

    /** As {@link #compare(MultiLayerNetwork, INDArray, INDArray, double)}, for a graph with one input and one output. */
    public static Comparison compare(ComputationGraph graph, INDArray features, INDArray labels, double clipNorm) {
        return compare(perExampleGradients(graph, features, labels), ExampleGradients.of(graph), graph.params(),
                features, labels, clipNorm);
    }

    /** Compares an engine on one batch with the true per-example gradients of that batch. */
    public static Comparison compare(INDArray truth, ExampleGradients engine, INDArray params, INDArray features,
                                     INDArray labels, double clipNorm) {
        INDArray truthNorms = truth.norm2(1);
        INDArray truthSum = clippedSum(truth, clipNorm);
        INDArray grad = Nd4j.create(params.dataType(), 1, params.length());
        INDArray x = features.castTo(params.dataType());
        INDArray y = labels.castTo(params.dataType());
        engine.sumClipped(params, x, y, null, clipNorm, grad);
        INDArray norms = engine.sumClipped(params, x, y, null, Double.MAX_VALUE,
                Nd4j.create(params.dataType(), 1, params.length())).norms();
        // Relative to the largest norm of the batch: an example whose gradient is 1e-7 of the others' has no
        // meaningful relative precision in float, and it does not matter for the clipped sum.
        double normError = Transforms.abs(norms.castTo(DataType.DOUBLE).reshape(truthNorms.length()).sub(truthNorms))
                .maxNumber().doubleValue() / Math.max(truthNorms.maxNumber().doubleValue(), 1e-300);
        double sumError = grad.castTo(DataType.DOUBLE).reshape(truthSum.length()).sub(truthSum).norm2Number().doubleValue()
                / Math.max(truthSum.norm2Number().doubleValue(), 1e-300);
        return new Comparison(normError, sumError);
    }

    /**
     * @param maxNormRelativeError  max over examples of |fast norm - true norm|, over the largest true norm
     * @param sumRelativeError      ||fast clipped sum - true clipped sum|| / ||true clipped sum||
     */
    public record Comparison(double maxNormRelativeError, double sumRelativeError) {
    }
}
