package org.dpdl4j.demo.dpgd;

import java.util.Arrays;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.runtime.engine.BlockWorker;
import org.dpdl4j.runtime.engine.Rows;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A block of {@code dp-gd}'s examples where it is placed: sent the parameters and the batch of a step, it returns
 * the clipped gradient sum of the batch's examples it holds (zero when it holds none). It holds no randomness, so a
 * step rerun elsewhere returns the same.
 */
final class DpGdBlock implements BlockWorker<DpGdBlockInput, DpGdBlockOutput> {
    private final int first;
    private final INDArray features;
    private final INDArray labels;
    private final double clip;
    private final PerExampleGradients gradients;
    private final INDArray sum;

    DpGdBlock(DpGdBlockPlan plan) {
        MultiLayerNetwork net = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(plan.model()));
        net.init();
        this.first = plan.first();
        this.features = plan.features().toArray();
        this.labels = plan.labels().toArray();
        this.clip = plan.clip();
        this.gradients = PerExampleGradients.of(net);
        this.sum = Nd4j.createUninitialized(net.params().dataType(), 1, net.numParams());
    }

    @Override
    public DpGdBlockOutput step(long round, DpGdBlockInput input) {
        long held = features.rows();
        int[] local = Arrays.stream(input.rows()).filter(r -> r >= first && r < first + held).map(r -> r - first).toArray();
        if (local.length == 0) {
            sum.assign(0);
            return new DpGdBlockOutput(Rows.of(sum), 0);
        }
        boolean all = local.length == held;
        INDArray x = all ? features : Nd4j.pullRows(features, 1, local);
        INDArray y = all ? labels : Nd4j.pullRows(labels, 1, local);
        ClippedBatch batch = gradients.clippedSum(input.parameters().toArray(), x, y, null, clip, sum);
        return new DpGdBlockOutput(Rows.of(sum), batch.lossSums().sumNumber().doubleValue());
    }

    @Override
    public void close() {
        // nothing outside the JVM's heap to release
    }
}
