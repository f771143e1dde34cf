package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.ArrayMemory;
import org.dpdl4j.runtime.NodeBatches;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.BatchRows;
import org.dpdl4j.runtime.PaddedBatch;
import org.dpdl4j.runtime.RoundWorkspace;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.SpecifiedIndex;

import java.util.List;
import java.util.stream.IntStream;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;

/**
 * FedAvg's ClientUpdate for all participants of a round at once: their models are the rows of a [K, p]
 * matrix, each of the L local SGD steps is one batched gradient pass over the participants' (padded)
 * batches, and the result is the matrix of updates {@code Delta_k = theta_k - theta}. The clients may be all of a
 * run's or a block of them on a worker (ids {@code first..first+clients-1}).
 */
final class LocalTraining {
    private final PerExampleGradients gradients;
    private final List<NodeData> clients;
    private final int first;
    private final int steps;
    private final int batchSize;
    private final DataType type;
    private final NodeBatches batches;
    private final RoundWorkspace stepWorkspace = new RoundWorkspace();
    private PaddedBatch everyoneFull;
    /** The participants' models on a device, which then runs the local steps; null on the CPU. */
    private DeviceNodeModels device;
    /** Whether the device keeps the clients' data, so that a local step sends only which rows make its batches. */
    private boolean dataOnDevice;
    private int everyoneFullWidth;

    LocalTraining(PerExampleGradients gradients, List<NodeData> clients, int steps, int batchSize) {
        this(gradients, clients, 0, steps, batchSize);
    }

    /** The ClientUpdate of clients {@code first..first+clients.size()-1}. */
    LocalTraining(PerExampleGradients gradients, List<NodeData> clients, int first, int steps, int batchSize) {
        this.gradients = gradients;
        this.clients = clients;
        this.first = first;
        this.steps = steps;
        this.batchSize = batchSize;
        this.type = gradients.spec().dataType();
        this.batches = new NodeBatches(clients, type);
    }

    /**
     * The updates of one round, and the participants' summed losses and batch sizes at its first local step.
     */
    record Updates(INDArray deltas, double[] firstLossSums, int[] firstSizes) {
        /** The participants' mean loss at the start of the round. */
        double meanLoss() {
            return LocalTraining.meanLoss(firstLossSums, firstSizes);
        }
    }

    /** The examples client {@code k} of {@code clients} uses in one local step: all of them, or a fixed-size batch. */
    static int stepSize(int batchSize, long m) {
        return (int) (batchSize == 0 || batchSize >= m ? m : batchSize);
    }

    /**
     * @param theta        the global model [1, p]
     * @param participants client ids, increasing, at least one
     * @param eta          local learning rate of this round
     * @param round        global round (keys the local batch sampling)
     * @param streams      the clients' streams (local batches come from {@code sampling(k, round * L + step)})
     * @param width        the batch width of every participant of the round (clients of several workers pad to the
     *                     round's widest batch, so that their reductions round as in one process); 1 to pad to these
     *                     participants' widest
     */
    Updates run(INDArray theta, int[] participants, double eta, long round, NoiseStreams streams, int width) {
        if (device != null) {
            return runOnDevice(theta, participants, eta, round, streams, width);
        }
        int k = participants.length;
        long p = theta.length();
        INDArray params = Nd4j.tile(theta.reshape(1, p), k, 1);
        INDArray grad = Nd4j.create(type, k, p);
        double[] firstLossSums = null;
        int[] firstSizes = null;
        for (int s = 0; s < steps; s++) {
            // A step's temporaries (the batch, activations, errors, weight gradients) live in a workspace reset at the
            // end of the step: allocated one by one they would pile up, as large as the models, until the garbage
            // collector ran. The models and gradients are updated in place.
            try (MemoryWorkspace ws = stepWorkspace.open()) {
                PaddedBatch batch = batch(participants, round * steps + s, streams, width);
                ClippedBatch result = gradients.clippedSum(params, batch.features(), batch.labels(), batch.mask(),
                        Double.POSITIVE_INFINITY, grad);
                INDArray sizes = Nd4j.createFromArray(IntStream.of(batch.sizes()).mapToDouble(b -> Math.max(1, b)).toArray())
                        .reshape(k, 1).castTo(type);
                grad.diviColumnVector(sizes);
                params.subi(grad.muli(eta));
                if (s == 0) {
                    firstLossSums = result.lossSums().toDoubleVector();
                    firstSizes = batch.sizes().clone();
                }
            }
        }
        ArrayMemory.release(grad);   // as large as the models
        return new Updates(params.subiRowVector(theta.reshape(1, p)), firstLossSums, firstSizes);
    }

    /**
     * {@link #run} with the participants' models on the device: started there from the global model, each local step's
     * batch copied in, only the updates and the first step's losses copied out. Equal to {@link #run} to float rounding.
     */
    private Updates runOnDevice(INDArray theta, int[] participants, double eta, long round, NoiseStreams streams, int width) {
        Updates trained = trainOnDevice(theta, participants, eta, round, streams, width);
        INDArray deltas = Nd4j.create(type, participants.length, theta.length());
        device.downloadGradients(deltas);
        return new Updates(deltas, trained.firstLossSums(), trained.firstSizes());
    }

    /**
     * {@link #run} on the device, the updates left there as its gradient rows (no deltas in the result) for a release
     * and aggregation there ({@link #device()}).
     */
    Updates trainOnDevice(INDArray theta, int[] participants, double eta, long round, NoiseStreams streams, int width) {
        if (device == null) {
            throw new IllegalStateException("the local steps run on the CPU");
        }
        int k = participants.length;
        device.useRows(k);
        device.broadcast(theta);
        double[] firstLossSums = null;
        int[] firstSizes = null;
        for (int s = 0; s < steps; s++) {
            try (MemoryWorkspace ws = stepWorkspace.open()) {
                double[] lossSums;
                int[] sizes;
                if (dataOnDevice) {
                    BatchRows batch = participantRows(participants, round * steps + s, streams, width);
                    lossSums = device.clippedSums(batch.rows(), batch.width(), batch.mask(), Double.POSITIVE_INFINITY);
                    sizes = batch.sizes();
                } else {
                    PaddedBatch batch = batch(participants, round * steps + s, streams, width);
                    lossSums = device.clippedSums(batch.features(), batch.labels(), batch.mask(), null,
                            Double.POSITIVE_INFINITY);
                    sizes = batch.sizes();
                }
                device.scaleRows(IntStream.of(sizes).mapToDouble(b -> 1.0 / Math.max(1, b)).toArray());
                device.step(false, eta, 0.0);
                if (s == 0) {
                    firstLossSums = lossSums;
                    firstSizes = sizes.clone();
                }
            }
        }
        device.updatesFrom(theta);
        return new Updates(null, firstLossSums, firstSizes);
    }

    /** The participants' models on the device, or null when the local steps run on the CPU. */
    DeviceNodeModels device() {
        return device;
    }

    /**
     * Runs the local steps from the next round on node models a device engine opened (room for every client), which
     * this object then closes; null for the CPU.
     */
    void useDevice(DeviceNodeModels models) {
        if (models != null && models.nodes() < clients.size()) {
            throw new IllegalArgumentException("the device models have room for " + models.nodes() + " clients, not "
                    + clients.size());
        }
        if (device != null) {
            device.close();
        }
        device = models;
        dataOnDevice = device != null && device.holdData(batches.features(), batches.labels(), null);
    }

    /** The network the clients train. */
    org.dpdl4j.optim.DenseNetworkSpec spec() {
        return gradients.spec();
    }

    /** Where the local steps run: the device's description, or null on the CPU. */
    String deviceDescription() {
        return device == null ? null : device.describe();
    }

    /**
     * The participants' batches of one local step: one gather over all clients (non-participants contribute no
     * rows, only padding), then the participants' slices when not everyone takes part.
     */
    private PaddedBatch batch(int[] participants, long streamRound, NoiseStreams streams, int width) {
        boolean everyone = participants.length == clients.size();
        if (batchSize == 0 && everyone && everyoneFull != null && everyoneFullWidth == width) {
            return everyoneFull;
        }
        int[][] rows = sampledRows(participants, streamRound, streams);
        int[] local = IntStream.of(participants).map(k -> k - first).toArray();
        boolean cached = batchSize == 0 && everyone;
        PaddedBatch all;
        // The full batches of everyone never change: gathered once, outside any workspace the caller may have opened.
        try (MemoryWorkspace scope = cached ? Nd4j.getMemoryManager().scopeOutOfWorkspaces() : null) {
            all = batches.gather(rows, width);
        }
        if (everyone) {
            if (batchSize == 0) {
                everyoneFull = all;
                everyoneFullWidth = width;
            }
            return all;
        }
        SpecifiedIndex who = new SpecifiedIndex(java.util.Arrays.stream(local).asLongStream().toArray());
        int[] sizes = java.util.Arrays.stream(local).map(k -> rows[k].length).toArray();
        boolean equal = java.util.Arrays.stream(sizes).allMatch(b -> b == sizes[0]) && all.features().size(1) == sizes[0];
        return new PaddedBatch(all.features().get(who, all(), all()), all.labels().get(who, all(), all()),
                equal ? null : maskOf(all, who), sizes);
    }

    /** Every client's local rows of one local step: the participants' samples, no rows for the others. */
    private int[][] sampledRows(int[] participants, long streamRound, NoiseStreams streams) {
        int[][] rows = new int[clients.size()][];
        java.util.Arrays.fill(rows, new int[0]);
        for (int k : participants) {
            int m = (int) clients.get(k - first).size();
            rows[k - first] = batchSize == 0 || batchSize >= m ? IntStream.range(0, m).toArray()
                    : new FixedSizeSampler(m, batchSize).sample(streams.sampling(k, streamRound));
        }
        return rows;
    }

    /**
     * The rows of the clients' data that make the participants' batches of one local step (as {@link #batch} gathers
     * them, for a device that keeps the data): the participants' slices of the padded all-clients choice.
     */
    private BatchRows participantRows(int[] participants, long streamRound, NoiseStreams streams, int width) {
        BatchRows all = batches.rows(sampledRows(participants, streamRound, streams), width);
        if (participants.length == clients.size()) {
            return all;
        }
        int w = all.width();
        int k = participants.length;
        int[] rows = new int[k * w];
        int[] sizes = new int[k];
        for (int j = 0; j < k; j++) {
            int i = participants[j] - first;
            System.arraycopy(all.rows(), i * w, rows, j * w, w);
            sizes[j] = all.sizes()[i];
        }
        boolean equal = IntStream.of(sizes).allMatch(b -> b == w);
        float[] mask = null;
        if (!equal) {
            mask = new float[k * w];
            for (int j = 0; j < k; j++) {
                java.util.Arrays.fill(mask, j * w, j * w + sizes[j], 1f);
            }
        }
        return new BatchRows(rows, w, mask, sizes);
    }

    /** The participants' rows of the gathered mask (every row real when the gather needed no mask). */
    private INDArray maskOf(PaddedBatch all, SpecifiedIndex who) {
        if (all.mask() != null) {
            return all.mask().get(who, all());
        }
        return Nd4j.ones(type, who.getIndexes().length, all.features().size(1));
    }

    /** Releases the local steps' workspace; call on the thread that ran them. */
    void close() {
        try {
            useDevice(null);   // closes the device models, which may fail (a CUDA error sticky on the context)
        } finally {
            stepWorkspace.close();
        }
    }

    static double meanLoss(double[] lossSums, int[] sizes) {
        double total = 0;
        int count = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] > 0) {
                total += lossSums[i] / sizes[i];
                count++;
            }
        }
        return count == 0 ? Double.NaN : total / count;
    }
}
