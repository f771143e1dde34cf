package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A DL4J input preprocessor (reshapes between flat rows and images, permutations): no parameters, each example
 * on its own, forward and backward passes DL4J's own.
 */
public final class PreprocessorStage implements ExampleLayer {
    private final InputPreProcessor preprocessor;
    private long batch;

    public PreprocessorStage(InputPreProcessor preprocessor) {
        this.preprocessor = preprocessor;
    }

    @Override
    public INDArray forward(INDArray input) {
        batch = input.size(0);
        return preprocessor.preProcess(input, (int) batch, LayerWorkspaceMgr.noWorkspaces());
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        return inputGradient ? preprocessor.backprop(epsilon, (int) batch, LayerWorkspaceMgr.noWorkspaces()) : null;
    }
}
