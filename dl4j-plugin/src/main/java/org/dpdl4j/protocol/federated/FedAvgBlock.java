package org.dpdl4j.protocol.federated;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.engine.BlockWorker;
import org.dpdl4j.runtime.engine.Rows;
import org.dpdl4j.runtime.engine.WorkerThread;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Clients {@code first..first+count-1} of a FedAvg-family run, where a worker holds them: their ClientUpdate (the
 * stacked local SGD of {@link LocalTraining} on their rows, on the worker's GPU when the plan's device gives node
 * models there) and what they do to their updates before sending them (DP-FedAvg local: clip and add their own noise;
 * GOPA: clip and reveal with their private and pairwise noise), on the worker's host. The server's part (selection,
 * central clipping and noise, aggregation) stays with the run.
 */
public final class FedAvgBlock implements BlockWorker<FedAvgBlockInput, FedAvgBlockOutput> {
    private final FedAvgBlockPlan plan;
    private final LocalTraining local;
    private final DataType type;
    private final WorkerThread thread;

    /** Opens the block of a plan. */
    public FedAvgBlock(FedAvgBlockPlan plan) {
        this.plan = plan;
        MultiLayerNetwork template = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(plan.model()));
        template.init();
        PerExampleGradients gradients = PerExampleGradients.of(template);
        this.type = gradients.spec().dataType();
        List<NodeData> clients = new ArrayList<>();
        for (int i = 0; i < plan.count(); i++) {
            clients.add(new NodeData(plan.features().get(i).toArray().castTo(type), plan.labels().get(i).toArray().castTo(type)));
        }
        FedAvgConfig c = plan.config();
        this.local = new LocalTraining(gradients, clients, plan.first(), c.localSteps(), c.localBatchSize());
        // the local training takes the models over (and closes them with itself)
        plan.device().openFor(gradients.spec(), plan.count(), plan.block(), "clients " + plan.first() + "-"
                + (plan.first() + plan.count() - 1), local::useDevice);
        // last: nothing after it can fail, so a block that cannot open leaves no thread behind
        this.thread = new WorkerThread("dpdl4j-clients-" + plan.first() + "-" + (plan.first() + plan.count() - 1));
    }

    /** One round of the block's participants. */
    @Override
    public synchronized FedAvgBlockOutput step(long round, FedAvgBlockInput input) {
        if (input.participants().length == 0) {
            return new FedAvgBlockOutput(null, new double[0], new int[0]);
        }
        return thread.round(() -> {
            INDArray theta = input.theta().toArray().castTo(type);
            FedAvgConfig c = plan.config();
            LocalTraining.Updates u = local.run(theta, input.participants(), c.localRate().at(round), round, plan.streams(), input.width());
            INDArray messages = ClientRelease.release(c, u.deltas(), input.participants(), round, plan.streams(),
                    (values, r) -> GopaAveraging.revealRows(values, plan.first(), plan.incidence(), plan.streams(), r,
                            plan.gopaSigmas()[0], plan.gopaSigmas()[1], type));
            return new FedAvgBlockOutput(Rows.of(messages), u.firstLossSums(), u.firstSizes());
        });
    }

    @Override
    public void close() {
        try {
            thread.round(() -> {
                local.close();   // its workspace belongs to the block's thread
                return null;
            });
        } finally {
            thread.close();   // even when closing the device models failed
        }
    }
}
