package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A layer without parameters that treats every example on its own (pooling, activation, dropout, padding,
 * cropping, upsampling, ...): its forward and backward passes are DL4J's own, and it adds nothing to the norms.
 * A dropout layer's mask is drawn once per pass for the whole batch, independently of the data, and the backward
 * pass uses the same mask, so each example's gradient is still a function of that example alone.
 */
public final class DelegatedExampleLayer implements ExampleLayer {
    private final org.deeplearning4j.nn.api.Layer layer;
    private final DataType dataType;

    public DelegatedExampleLayer(LayerContext context) {
        this.layer = context.implementation();
        this.dataType = context.dataType();
    }

    @Override
    public INDArray forward(INDArray input) {
        return layer.activate(input.castTo(dataType), true, LayerWorkspaceMgr.noWorkspaces());
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        INDArray eps = layer.backpropGradient(epsilon, LayerWorkspaceMgr.noWorkspaces()).getSecond();
        return inputGradient ? eps : null;
    }

    @Override
    public void clear() {
        layer.clear();
    }
}
