package org.dpdl4j.protocol.decentralized;

import java.util.ArrayList;
import java.util.List;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.BatchSampler;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.graph.OperatorRows;
import org.dpdl4j.privacy.noise.PhiloxNoiseStreams;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.BatchRows;
import org.dpdl4j.runtime.NodeBatches;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PaddedBatch;
import org.dpdl4j.runtime.engine.BlockWorker;
import org.dpdl4j.runtime.engine.Rows;
import org.dpdl4j.runtime.engine.WorkerThread;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Nodes {@code first..first+count-1} of a decentralized run, where a worker holds them: their data, samplers and
 * streams, and the stacked-tensor engine of {@link DecentralizedTrainer} on their rows. A round takes the nodes'
 * models (gossiped here from the messages they received), computes their clipped gradients, adds their private and
 * pairwise noise (drawn here, from their own keys), takes the local step, and returns the half-step models they
 * broadcast: exactly what the nodes of the one-process engine compute for these rows.
 *
 * <p>Batches are padded to the width the whole run would use (the reductions over a batch then round alike): every
 * node's batch size is public for full and fixed-size batches, and under Poisson sampling with seeded streams the
 * seed determines every node's batch, so the block computes the round's widest one. With secure streams no node can
 * know another's batch; the block then pads to its own widest, and the results differ from one process only by
 * rounding (secure runs are not reproducible in any case).
 *
 * <p>Where the plan's {@link DecentralizedBlockPlan#device device} gives node models on the worker's GPU, the block
 * keeps its nodes' data there and computes their gradients, noise and step there (the same arithmetic as
 * {@link DecentralizedTrainer}'s rounds on a device); the gossip from the received messages stays on the host.
 */
public final class DecentralizedBlock implements BlockWorker<DecentralizedBlockInput, DecentralizedBlockOutput> {
    private final DecentralizedBlockPlan plan;
    private final DecentralizedConfig config;
    private final PerExampleGradients engine;
    private final DataType type;
    private final long p;
    private final int[] nodes;
    private final int[] edges;
    private final NoiseStreams streams;
    private final List<BatchSampler> samplers = new ArrayList<>();
    private final List<BatchSampler> everyone = new ArrayList<>();
    private final INDArray expectedBatchSizes;
    private final NodeBatches batches;
    private final WorkerThread thread;
    private final RoundBatches roundBatches;
    /** The nodes' models on the worker's device, or null on its CPU. */
    private final DeviceNodeModels device;
    private final boolean dataOnDevice;
    /** Whether the device draws the nodes' noise itself (Philox streams, room for the edges' rows). */
    private final boolean philoxOnDevice;
    private INDArray fixedPairwise;
    private INDArray received;

    /** Opens the block of a plan. */
    public DecentralizedBlock(DecentralizedBlockPlan plan) {
        this.plan = plan;
        this.config = plan.config();
        MultiLayerNetwork template = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(plan.model()));
        template.init();
        this.engine = PerExampleGradients.of(template);
        this.type = engine.spec().dataType();
        this.p = engine.spec().numParams();
        this.nodes = plan.nodes();
        this.edges = plan.incidence() == null ? new int[0] : plan.incidence().reads();
        this.streams = plan.streams();
        long[] sizes = plan.datasetSizes();
        for (int j = 0; j < sizes.length; j++) {
            everyone.add(LocalGradients.sampler(config, sizes[j], j));
        }
        List<NodeData> data = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            samplers.add(everyone.get(nodes[i]));
            data.add(new NodeData(plan.features().get(i).toArray().castTo(type), plan.labels().get(i).toArray().castTo(type)));
        }
        this.batches = new NodeBatches(data, type);
        this.roundBatches = new RoundBatches(batches, config.sampling() == SamplingScheme.FULL_BATCH);
        this.expectedBatchSizes = LocalGradients.dividesByExpectedSize(config) ? LocalGradients.divisor(samplers, null, type) : null;
        this.device = plan.device().openFor(engine.spec(), nodes.length, plan.block(), "nodes " + plan.first() + "-"
                + (plan.first() + plan.count() - 1), models -> { });
        try {
            this.dataOnDevice = device != null
                    && device.holdData(batches.features(), batches.labels(), batches.featureSquaredNorms());
            this.philoxOnDevice = device != null && drawsPhiloxOnDevice();
        } catch (RuntimeException e) {
            if (device != null) {
                device.close();
            }
            throw e;
        }
        // last: nothing after it can fail, so a block that cannot open leaves no thread behind
        this.thread = new WorkerThread("dpdl4j-nodes-" + plan.first() + "-" + (plan.first() + plan.count() - 1));
    }

    /** One round: gossip (or the given models), gradients, noise, the local step; returns the nodes' messages. */
    @Override
    public synchronized DecentralizedBlockOutput step(long round, DecentralizedBlockInput input) {
        return thread.round(() -> roundInWorkspace(round, input));
    }

    private DecentralizedBlockOutput roundInWorkspace(long round, DecentralizedBlockInput input) {
        INDArray models = models(input);
        if (device != null) {
            return roundOnDevice(round, models);
        }
        PaddedBatch batch = batch(round);
        INDArray grad = Nd4j.create(type, nodes.length, p);
        var result = LocalGradients.clippedLocalGradients(config, engine, models, batch, expectedBatchSizes, samplers, grad);
        if (config.algorithm().isPrivate()) {
            grad.addi(noise(round));
        }
        LocalGradients.descend(config, round, models, grad);
        return new DecentralizedBlockOutput(Rows.of(models), result.lossSums().toDoubleVector(), batch.sizes().clone());
    }

    /** The round of {@link #roundInWorkspace} with the models on the device: in, gradients, noise and step, out. */
    private DecentralizedBlockOutput roundOnDevice(long round, INDArray models) {
        device.upload(models);
        double[] lossSums;
        int[] sizes;
        if (dataOnDevice) {
            BatchRows batch = rows(round);
            lossSums = LocalGradients.clippedLocalGradients(config, device, batch, expectedBatchSizes, samplers);
            sizes = batch.sizes();
        } else {
            PaddedBatch batch = batch(round);
            lossSums = LocalGradients.clippedLocalGradients(config, device, batch, expectedBatchSizes, samplers);
            sizes = batch.sizes();
        }
        boolean noisy = config.algorithm().isPrivate();
        if (philoxOnDevice) {
            // the nodes' private rows and their edges' pairwise rows drawn there, the values noise(round) draws here
            device.drawPhiloxNoise(((PhiloxNoiseStreams) streams).masterSeed(), round, nodes, config.sigmaCdp(), edges,
                    config.compatibility().pairwiseNoiseDrawnOnce() ? 0 : round, pairwiseSigma());
        } else if (noisy) {
            device.uploadNoise(noise(round));
        }
        device.step(noisy, config.learningRate().at(round), config.weightDecay());
        device.download(models);
        return new DecentralizedBlockOutput(Rows.of(models), lossSums, sizes.clone());
    }

    /**
     * Whether the device draws this block's noise: a private run with Philox streams, and, with pairwise noise, room for
     * its edges' rows there (which this sets up); otherwise the host draws it from the same streams.
     */
    private boolean drawsPhiloxOnDevice() {
        if (!config.algorithm().isPrivate() || !(streams instanceof PhiloxNoiseStreams)) {
            return false;
        }
        if (pairwiseSigma() == 0) {
            return true;
        }
        OperatorRows b = plan.incidence();
        return device.pairwiseIncidence(b.rowStarts(), b.positions(), b.values(), edges.length);
    }

    /** The std of the pairwise rows this block's nodes add (0 without pairwise noise or without edges). */
    private double pairwiseSigma() {
        return config.algorithm() == DecentralizedAlgorithm.DECOR && edges.length > 0 ? config.sigmaCor() : 0.0;
    }

    /** The nodes' models of the round: gossiped from the messages they received, or as given. */
    private INDArray models(DecentralizedBlockInput input) {
        INDArray models = Nd4j.create(type, nodes.length, p);
        if (input.models() != null) {
            input.models().copyInto(models, 0);
            return models;
        }
        if (received == null) {
            // The messages land in one buffer kept from round to round: megabytes of fresh memory every round cost
            // more than copying them.
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                received = Nd4j.create(type, input.received().rows(), p);
            }
        }
        input.received().copyInto(received, 0);
        plan.gossip().apply(received, models);
        return models;
    }

    private PaddedBatch batch(long round) {
        return roundBatches.batch(() -> sampledRows(round));
    }

    private BatchRows rows(long round) {
        return roundBatches.rows(() -> sampledRows(round));
    }

    /** Each node's sample of the round as rows of the block's data, padded to the width the whole run uses. */
    private BatchRows sampledRows(long round) {
        int[][] rows = new int[nodes.length][];
        for (int i = 0; i < nodes.length; i++) {
            rows[i] = samplers.get(i).sample(streams.sampling(nodes[i], round));
        }
        return batches.rows(rows, width(round, rows));
    }

    /** The width the whole run pads this round's batches to, where this block can know it (see the class comment). */
    private int width(long round, int[][] own) {
        int width = 1;
        switch (config.sampling()) {
            case FULL_BATCH -> {
                for (long m : plan.datasetSizes()) {
                    width = (int) Math.max(width, m);
                }
            }
            case FIXED_SIZE_WITHOUT_REPLACEMENT -> {
                for (long m : plan.datasetSizes()) {
                    width = (int) Math.max(width, Math.min(config.batchSize(), m));
                }
            }
            case POISSON -> {
                if (streams.isSecure()) {
                    for (int[] r : own) {
                        width = Math.max(width, r.length);
                    }
                } else {
                    for (int j = 0; j < everyone.size(); j++) {
                        width = Math.max(width, everyone.get(j).sample(streams.sampling(j, round)).length);
                    }
                }
            }
        }
        return width;
    }

    /**
     * The noise each node adds this round: its rows of {@code B U} (from the secrets of its edges) plus its private
     * noise, in the order and with the draws of {@link RoundNoise}.
     */
    private INDArray noise(long round) {
        double sigmaCdp = config.sigmaCdp();
        double sigmaCor = config.algorithm() == DecentralizedAlgorithm.DECOR ? config.sigmaCor() : 0.0;
        INDArray total = Nd4j.create(type, nodes.length, p);
        if (sigmaCor > 0) {
            plan.incidence().apply(pairwise(round, sigmaCor), total);
            if (sigmaCdp > 0) {
                streams.addPrivateNoise(total, nodes, round, sigmaCdp);
            }
        } else if (sigmaCdp > 0) {
            streams.writePrivateNoise(total, nodes, round, sigmaCdp);
        } else {
            total.assign(0);
        }
        return total;
    }

    /** The pairwise terms of this block's edges, drawn each round (or once, in reference-code compatibility). */
    private INDArray pairwise(long round, double sigmaCor) {
        if (config.compatibility().pairwiseNoiseDrawnOnce()) {
            if (fixedPairwise == null) {
                try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                    fixedPairwise = Nd4j.create(type, edges.length, p);
                    streams.writePairwiseNoise(fixedPairwise, edges, 0, sigmaCor);
                }
            }
            return fixedPairwise;
        }
        INDArray u = Nd4j.create(type, edges.length, p);
        streams.writePairwiseNoise(u, edges, round, sigmaCor);
        return u;
    }

    @Override
    public void close() {
        try {
            thread.close();
        } finally {
            if (device != null) {
                device.close();   // idempotent: a second close of the block frees nothing again
            }
        }
    }
}
