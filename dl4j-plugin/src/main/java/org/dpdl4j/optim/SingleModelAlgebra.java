package org.dpdl4j.optim;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * {@link LayerAlgebra} for one model, using exactly the ND4J calls of DL4J's own dense and output
 * layers (same operations, orders and memory layouts), so that without clipping and noise the result
 * is bit-for-bit DL4J's gradient.
 */
final class SingleModelAlgebra implements LayerAlgebra {
    private final LayerViews views;

    SingleModelAlgebra(DenseNetworkSpec spec) {
        this.views = new LayerViews(spec.layers());
    }

    @Override
    public INDArray weights(INDArray params, DenseLayerSpec layer) {
        return views.weights(params, layer);
    }

    @Override
    public INDArray linear(INDArray input, INDArray weights, INDArray params, DenseLayerSpec layer) {
        INDArray z = Nd4j.createUninitialized(weights.dataType(), input.size(0), weights.size(1));
        input.castTo(z.dataType()).mmuli(weights, z);
        if (layer.hasBias()) {
            z.addiRowVector(views.bias(params, layer));
        }
        return z;
    }

    @Override
    public INDArray backToInput(INDArray delta, INDArray weights) {
        INDArray eps = Nd4j.createUninitialized(delta.dataType(), new long[]{weights.size(0), delta.size(0)}, 'f');
        return weights.mmuli(delta.transpose(), eps).transpose();
    }

    @Override
    public void writeGradients(INDArray input, INDArray delta, INDArray gradOut, DenseLayerSpec layer) {
        INDArray weightGrad = weights(gradOut, layer);
        Nd4j.gemm(input.castTo(weightGrad.dataType()), delta, weightGrad, true, false, 1.0, 0.0);
        if (layer.hasBias()) {
            delta.sum(views.bias(gradOut, layer), 0);
        }
    }

    @Override
    public INDArray rows(INDArray activations) {
        return activations;
    }

    @Override
    public INDArray unrows(INDArray rows, INDArray shapeSource) {
        return rows;
    }

    @Override
    public INDArray squaredRowNorms(INDArray activations) {
        return RowNorms.squared(activations, 1);
    }

    @Override
    public void scaleRows(INDArray activations, INDArray factors) {
        activations.muliColumnVector(factors.reshape(factors.length(), 1));
    }
}
