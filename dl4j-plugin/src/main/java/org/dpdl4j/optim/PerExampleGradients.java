package org.dpdl4j.optim;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.util.Arrays;
import java.util.List;

/**
 * Per-example gradient norms and the sum of per-example clipped gradients of a dense network, from one
 * batched forward/backward pass, without materialising any per-example gradient ("ghost norms").
 *
 * <p>For a dense layer with input a_i and output-side error delta_i of example i, the example's weight
 * gradient is the outer product a_i delta_i^T, so its squared norm is ||a_i||^2 ||delta_i||^2 and the bias
 * adds ||delta_i||^2. Summing over layers gives ||g_i||^2 exactly. With c_i = min(1, C/||g_i||), the sum
 * of clipped weight gradients is A^T diag(c) Delta: the deltas are scaled before the usual weight-gradient
 * product, so clipping costs two row-norm reductions per layer on top of a plain backward pass.
 *
 * <p>Works for one model (features [b, nIn], parameters [1, p]) with DL4J's own operations, and for n
 * models stacked as rows of an [n, p] matrix (features [n, b, nIn]) with batched products. An optional
 * example mask ([b] or [n, b], 1 = real example, 0 = padding) lets models with different batch sizes
 * share one padded tensor.
 *
 * <p>Losses are DL4J's per-example losses: the gradient computed here is of the <i>sum</i> of the
 * per-example losses (DL4J's {@code computeGradientAndScore} convention); dividing by the batch size is
 * left to the caller.
 */
public final class PerExampleGradients implements ExampleGradients {
    private final DenseNetworkSpec spec;
    private final SingleModelAlgebra single;

    /** The engine for a network already validated into {@code spec}. */
    public PerExampleGradients(DenseNetworkSpec spec) {
        this.spec = spec;
        this.single = new SingleModelAlgebra(spec);
    }

    /** Validates the network (see {@link DpModelValidator}) and builds the engine for it. */
    public static PerExampleGradients of(MultiLayerNetwork net) {
        return new PerExampleGradients(DpModelValidator.validate(net));
    }

    /** The layers, loss and data type the engine computes. */
    public DenseNetworkSpec spec() {
        return spec;
    }

    /**
     * Computes the sum of clipped per-example gradients into {@code gradOut}.
     *
     * @param params   [1, p] (or [p]) for one model with rank-2 features, [n, p] with rank-3 features
     * @param features [b, nIn] or [n, b, nIn]
     * @param labels   [b, k] or [n, b, k] in the layout the loss expects
     * @param mask     null, or [b] / [n, b] with 1 for real examples and 0 for padding
     * @param clipNorm C &gt; 0, or {@link Double#POSITIVE_INFINITY} for no clipping
     * @param gradOut  same shape as params; overwritten with the clipped gradient sum
     */
    public ClippedBatch clippedSum(INDArray params, INDArray features, INDArray labels, INDArray mask,
                                   double clipNorm, INDArray gradOut) {
        return clippedSum(params, features, labels, mask, null, clipNorm, gradOut);
    }

    /**
     * As {@link #clippedSum(INDArray, INDArray, INDArray, INDArray, double, INDArray)}, with the squared L2
     * norm of each example's features supplied by the caller. They depend on the data only, so a trainer can
     * compute them once for its dataset and gather them with each batch; the row-norm reduction over the
     * features is then left out of every step (for a linear model it is a large part of the clipping cost).
     *
     * @param featureSquaredNorms null, or ||x_i||^2 per example: shape [b] (or [n, b] for stacked models)
     */
    public ClippedBatch clippedSum(INDArray params, INDArray features, INDArray labels, INDArray mask,
                                   INDArray featureSquaredNorms, double clipNorm, INDArray gradOut) {
        if (!(clipNorm > 0)) {
            throw new IllegalArgumentException("clip norm must be > 0 (or +infinity for no clipping), got " + clipNorm);
        }
        LayerAlgebra algebra = checkShapes(params, features, labels, mask, gradOut);
        if (featureSquaredNorms != null && featureSquaredNorms.length() != features.length() / spec.nIn()) {
            throw new IllegalArgumentException("feature squared norms of shape " + Arrays.toString(featureSquaredNorms.shape())
                    + " do not match the batch " + Arrays.toString(Arrays.copyOf(features.shape(), features.rank() - 1))
                    + ": give one squared norm per example");
        }
        List<DenseLayerSpec> layers = spec.layers();
        int depth = layers.size();
        INDArray[] inputs = new INDArray[depth];
        INDArray[] preOut = new INDArray[depth];
        INDArray[] weights = new INDArray[depth];

        INDArray a = features;
        for (int l = 0; l < depth; l++) {
            DenseLayerSpec layer = layers.get(l);
            inputs[l] = a;
            weights[l] = algebra.weights(params, layer);
            preOut[l] = algebra.linear(a, weights[l], params, layer);
            if (l < depth - 1) {
                INDArray z = algebra.rows(preOut[l]);
                a = algebra.unrows(layer.activation().getActivation(z.dup(), true), preOut[l]);
            }
        }

        DenseLayerSpec out = spec.output();
        INDArray outRows = algebra.rows(preOut[depth - 1]);
        INDArray labelRows = algebra.rows(labels).castTo(outRows.dataType());
        INDArray scores = spec.loss().computeScoreArray(labelRows, outRows, out.activation(), null);
        INDArray[] deltas = new INDArray[depth];
        INDArray outDelta = spec.loss().computeGradient(labelRows, outRows, out.activation(), null);
        deltas[depth - 1] = algebra.unrows(outDelta, preOut[depth - 1]);
        INDArray exampleScores = algebra.unrows(scores, preOut[depth - 1]).reshape(maskShape(features));
        if (mask != null) {
            INDArray m = mask.castTo(outDelta.dataType()).reshape(maskShape(features));
            algebra.scaleRows(deltas[depth - 1], m);
            exampleScores = exampleScores.mul(m);
        }
        for (int l = depth - 1; l > 0; l--) {
            INDArray eps = algebra.rows(algebra.backToInput(deltas[l], weights[l]));
            INDArray zRows = algebra.rows(preOut[l - 1]);
            deltas[l - 1] = algebra.unrows(layers.get(l - 1).activation().backprop(zRows, eps).getFirst(), preOut[l - 1]);
        }

        INDArray norms = null;
        INDArray factors = null;
        if (!Double.isInfinite(clipNorm)) {
            norms = exampleNorms(algebra, inputs, featureSquaredNorms, deltas);
            // c = min(1, C / norm); a zero norm gives C / 0 = +inf, hence 1.
            factors = Transforms.min(norms.rdiv(clipNorm), 1.0, false);
            for (int l = 0; l < depth; l++) {
                algebra.scaleRows(deltas[l], factors);
            }
        }
        for (int l = 0; l < depth; l++) {
            algebra.writeGradients(inputs[l], deltas[l], gradOut, layers.get(l));
        }
        INDArray lossSums = exampleScores.rank() == 1 ? exampleScores.sum(true, 0).reshape(1) : exampleScores.sum(1);
        return new ClippedBatch(norms, lossSums, clipNorm);
    }

    /** ||g_i|| = sqrt(sum over layers of (||a_i||^2 + [bias]) ||delta_i||^2), in the network's data type. */
    private INDArray exampleNorms(LayerAlgebra algebra, INDArray[] inputs, INDArray featureSquaredNorms, INDArray[] deltas) {
        INDArray sq = null;
        for (int l = 0; l < inputs.length; l++) {
            INDArray inputSq = l == 0 && featureSquaredNorms != null
                    ? shaped(featureSquaredNorms, maskShape(inputs[0])).castTo(deltas[l].dataType())
                    : algebra.squaredRowNorms(inputs[l]).castTo(deltas[l].dataType());
            // Not in place: the caller's feature norms must stay as they are.
            INDArray term = (spec.layers().get(l).hasBias() ? inputSq.add(1.0) : inputSq).mul(algebra.squaredRowNorms(deltas[l]));
            sq = sq == null ? term : sq.addi(term);
        }
        return Transforms.sqrt(sq, false);
    }

    @Override
    public ClippedBatch sumClipped(INDArray params, INDArray features, INDArray labels, INDArray featureSquaredNorms,
                                   double clipNorm, INDArray gradOut) {
        return clippedSum(params, features, labels, null, featureSquaredNorms, clipNorm, gradOut);
    }

    /**
     * Per-example gradient norms only ([b] or [n, b]), from the same batched pass (the gradient sum is
     * computed too, into a scratch array).
     */
    public INDArray norms(INDArray params, INDArray features, INDArray labels, INDArray mask) {
        INDArray scratch = Nd4j.create(params.dataType(), params.shape());
        return clippedSum(params, features, labels, mask, Double.MAX_VALUE, scratch).norms();
    }

    private static INDArray shaped(INDArray a, long[] shape) {
        return Arrays.equals(a.shape(), shape) ? a : a.reshape(shape);
    }

    private static long[] maskShape(INDArray features) {
        return features.rank() == 2 ? new long[]{features.size(0)} : new long[]{features.size(0), features.size(1)};
    }

    private LayerAlgebra checkShapes(INDArray params, INDArray features, INDArray labels, INDArray mask, INDArray gradOut) {
        long p = spec.numParams();
        if (features.rank() != 2 && features.rank() != 3) {
            throw new IllegalArgumentException("features must be [batch, " + spec.nIn() + "] or [models, batch, "
                    + spec.nIn() + "], got shape " + Arrays.toString(features.shape()));
        }
        boolean stacked = features.rank() == 3;
        long models = stacked ? features.size(0) : 1;
        long lastDim = features.size(features.rank() - 1);
        if (lastDim != spec.nIn()) {
            throw new IllegalArgumentException("features have " + lastDim + " columns but the network's first layer takes "
                    + spec.nIn() + " inputs");
        }
        if (params.length() != models * p || (stacked && (params.rank() != 2 || params.size(0) != models))) {
            throw new IllegalArgumentException("parameters have shape " + Arrays.toString(params.shape()) + " but "
                    + (stacked ? "[" + models + ", " + p + "]" : "[1, " + p + "]") + " was expected");
        }
        if (stacked ? !Arrays.equals(gradOut.shape(), params.shape()) : gradOut.length() != p) {
            throw new IllegalArgumentException("gradient array has shape " + Arrays.toString(gradOut.shape())
                    + " but the parameters have shape " + Arrays.toString(params.shape()));
        }
        if (labels.rank() != features.rank() || labels.size(0) != features.size(0)
                || (stacked && labels.size(1) != features.size(1))) {
            throw new IllegalArgumentException("labels of shape " + Arrays.toString(labels.shape())
                    + " do not match features of shape " + Arrays.toString(features.shape()));
        }
        if (mask != null && mask.length() != (stacked ? models * features.size(1) : features.size(0))) {
            throw new IllegalArgumentException("example mask of shape " + Arrays.toString(mask.shape())
                    + " does not match the batch " + Arrays.toString(Arrays.copyOf(features.shape(), features.rank() - 1)));
        }
        return stacked ? new StackedModelsAlgebra() : single;
    }
}
