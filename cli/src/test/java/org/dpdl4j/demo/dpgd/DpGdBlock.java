package org.dpdl4j.demo.dpgd;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.runtime.engine.BlockWorker;
import org.dpdl4j.runtime.engine.Rows;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A block of {@code dp-gd}'s examples where it is placed: sent the parameters of a step, it returns the clipped
 * gradient sum of its examples. It holds no randomness, so a step rerun elsewhere returns the same.
 */
final class DpGdBlock implements BlockWorker<Rows, DpGdBlockOutput> {
    private final INDArray features;
    private final INDArray labels;
    private final double clip;
    private final PerExampleGradients gradients;
    private final INDArray sum;

    DpGdBlock(DpGdBlockPlan plan) {
        MultiLayerNetwork net = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(plan.model()));
        net.init();
        this.features = plan.features().toArray();
        this.labels = plan.labels().toArray();
        this.clip = plan.clip();
        this.gradients = PerExampleGradients.of(net);
        this.sum = Nd4j.createUninitialized(net.params().dataType(), 1, net.numParams());
    }

    @Override
    public DpGdBlockOutput step(long round, Rows parameters) {
        ClippedBatch batch = gradients.clippedSum(parameters.toArray(), features, labels, null, clip, sum);
        return new DpGdBlockOutput(Rows.of(sum), batch.lossSums().sumNumber().doubleValue());
    }

    @Override
    public void close() {
        // nothing outside the JVM's heap to release
    }
}
