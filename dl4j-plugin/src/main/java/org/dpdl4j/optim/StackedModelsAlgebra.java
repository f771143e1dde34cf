package org.dpdl4j.optim;

import org.dpdl4j.runtime.ArrayMemory;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.broadcast.BroadcastAddOp;
import org.nd4j.linalg.factory.Nd4j;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

/**
 * {@link LayerAlgebra} for n models stacked as the rows of one {@code [n, p]} parameter matrix, with
 * activations {@code [n, b, k]}: every step is one batched matrix product over all models.
 *
 * <p>A layer's weights are a strided view of the parameter rows: DL4J stores W (nIn x nOut) column-major,
 * which read row-major is W^T (nOut x nIn), hence the reshape to [n, nOut, nIn] and the permutation.
 * (Avoid {@code get(point(k), ...)} on such permuted views: ND4J 1.0.0-M2.1 returns an empty array for
 * some k. Batched products and {@code assign} on them are exact.)
 */
final class StackedModelsAlgebra implements LayerAlgebra {

    @Override
    public INDArray weights(INDArray params, DenseLayerSpec layer) {
        return params.get(all(), interval(layer.weightOffset(), layer.weightOffset() + layer.weightCount()))
                .reshape('c', params.size(0), layer.nOut(), layer.nIn())
                .permute(0, 2, 1);
    }

    private static INDArray bias(INDArray params, DenseLayerSpec layer) {
        return params.get(all(), interval(layer.biasOffset(), layer.biasOffset() + layer.nOut()));
    }

    @Override
    public INDArray linear(INDArray input, INDArray weights, INDArray params, DenseLayerSpec layer) {
        INDArray z = Nd4j.matmul(input.castTo(weights.dataType()), weights);
        if (layer.hasBias()) {
            Nd4j.getExecutioner().exec(new BroadcastAddOp(z, bias(params, layer), z, 0, 2));
        }
        return z;
    }

    @Override
    public INDArray backToInput(INDArray delta, INDArray weights) {
        return Nd4j.matmul(delta, weights, false, true, false);
    }

    @Override
    public void writeGradients(INDArray input, INDArray delta, INDArray gradOut, DenseLayerSpec layer) {
        INDArray weightGrad = Nd4j.matmul(input.castTo(delta.dataType()), delta, true, false, false);
        weights(gradOut, layer).assign(weightGrad);
        ArrayMemory.release(weightGrad);   // as large as the models themselves
        if (layer.hasBias()) {
            bias(gradOut, layer).assign(delta.sum(1));
        }
    }

    @Override
    public INDArray rows(INDArray activations) {
        return activations.reshape('c', activations.size(0) * activations.size(1), activations.size(2));
    }

    @Override
    public INDArray unrows(INDArray rows, INDArray shapeSource) {
        return rows.reshape('c', shapeSource.size(0), shapeSource.size(1), rows.size(1));
    }

    @Override
    public INDArray squaredRowNorms(INDArray activations) {
        return RowNorms.squared(activations, 2);
    }

    @Override
    public void scaleRows(INDArray activations, INDArray factors) {
        activations.muli(factors.reshape(factors.size(0), factors.size(1), 1));
    }
}
