package org.dpdl4j.protocol.federated;

import java.util.stream.IntStream;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.runtime.engine.BlockWorker;
import org.dpdl4j.runtime.engine.Rows;
import org.dpdl4j.runtime.engine.WorkerThread;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Machines {@code first..first+count-1} of a (DP-)mu^2-FL run, where a worker holds them: their samples, their
 * momentum increments at the two query points, and, with an untrusted server, the noise they add to what they send.
 * The server's part (averaging, its own noise when trusted, the step and the anytime average) stays with the run. On a
 * worker's GPU (the plan's device) the machines' query points, gradients, increments and estimates are computed there,
 * the estimates the run sends each round copied in and the new ones copied out; their noise is added on the host.
 */
public final class Mu2Block implements BlockWorker<Mu2BlockInput, Mu2BlockOutput> {
    private final Mu2BlockPlan plan;
    private final Mu2Machines machines;
    private final int[] members;
    private final INDArray features;
    private final INDArray labels;
    private final DataType type;
    private final WorkerThread thread;

    /** Opens the block of a plan. */
    public Mu2Block(Mu2BlockPlan plan) {
        this.plan = plan;
        MultiLayerNetwork template = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(plan.model()));
        template.init();
        PerExampleGradients gradients = PerExampleGradients.of(template);
        this.type = gradients.spec().dataType();
        Mu2Config c = plan.config();
        // Round-major [T, count, b, nIn], as the run stacks all machines: round t's samples are one contiguous block.
        this.features = Mu2Trainer.roundMajor(IntStream.range(0, plan.count())
                .mapToObj(i -> plan.features().get(i).toArray().castTo(type)).toList(), c);
        this.labels = Mu2Trainer.roundMajor(IntStream.range(0, plan.count())
                .mapToObj(i -> plan.labels().get(i).toArray().castTo(type)).toList(), c);
        this.machines = new Mu2Machines(gradients, plan.count(), c.qClip());
        this.members = IntStream.range(plan.first(), plan.first() + plan.count()).toArray();
        // the machines take the models over (and close them with themselves); samples that do not fit there are copied
        // in each round
        plan.device().openFor(gradients.spec(), 2 * plan.count(), plan.block(), "machines " + plan.first() + "-"
                + (plan.first() + plan.count() - 1), device -> {
                    machines.useDevice(device);
                    machines.holdSamples(features, labels);
                });
        // last: nothing after it can fail, so a block that cannot open leaves no thread behind
        this.thread = new WorkerThread("dpdl4j-machines-" + plan.first() + "-" + (plan.first() + plan.count() - 1));
    }

    /** Round t of the block's machines. */
    @Override
    public synchronized Mu2BlockOutput step(long t, Mu2BlockInput input) {
        return thread.round(() -> {
            machines.setEstimates(input.dhat());
            machines.placeAt(input.x().toArray().castTo(type), input.previous().toArray().castTo(type));
            Mu2Machines.MomentumStep step = machines.holdsSamples() ? machines.accumulateHeld(t)
                    : machines.accumulate(t, features.slice(t - 1), labels.slice(t - 1));
            Rows lossSums = Rows.of(machines.lastLossSums());
            Rows messages = null;
            if (plan.streams() != null) {
                INDArray noisy = machines.dhat().dup('c');
                plan.streams().addPrivateNoise(noisy, members, t, plan.config().noise().at(t));
                messages = Rows.of(noisy);
            }
            return new Mu2BlockOutput(Rows.of(machines.dhat()), messages, lossSums, step.maxNormQ(), step.clippedMachines());
        });
    }

    @Override
    public void close() {
        try {
            // on the block's thread, after any round still running there: its device arrays are freed, whatever state
            // a failed round left them in
            thread.round(() -> {
                machines.close();
                return null;
            });
        } finally {
            thread.close();
        }
    }
}
