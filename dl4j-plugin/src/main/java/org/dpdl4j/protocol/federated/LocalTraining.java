package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.NodeBatches;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PaddedBatch;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.SpecifiedIndex;

import java.util.List;
import java.util.stream.IntStream;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;

/**
 * FedAvg's ClientUpdate for all participants of a round at once: their models are the rows of a [K, p]
 * matrix, each of the L local SGD steps is one batched gradient pass over the participants' (padded)
 * batches, and the result is the matrix of updates {@code Delta_k = theta_k - theta}.
 */
final class LocalTraining {
    private final PerExampleGradients gradients;
    private final List<NodeData> clients;
    private final int steps;
    private final int batchSize;
    private final DataType type;
    private final NodeBatches batches;
    private PaddedBatch everyoneFull;

    LocalTraining(PerExampleGradients gradients, List<NodeData> clients, int steps, int batchSize) {
        this.gradients = gradients;
        this.clients = clients;
        this.steps = steps;
        this.batchSize = batchSize;
        this.type = gradients.spec().dataType();
        this.batches = new NodeBatches(clients, type);
    }

    /** The updates of one round and the participants' mean loss at the start of the round. */
    record Updates(INDArray deltas, double meanLoss) {
    }

    /**
     * @param theta        the global model [1, p]
     * @param participants client ids, increasing, at least one
     * @param eta          local learning rate of this round
     * @param round        global round (keys the local batch sampling)
     * @param streams      the clients' streams (local batches come from {@code sampling(k, round * L + step)})
     */
    Updates run(INDArray theta, int[] participants, double eta, long round, NoiseStreams streams) {
        int k = participants.length;
        long p = theta.length();
        INDArray params = Nd4j.tile(theta.reshape(1, p), k, 1);
        INDArray grad = Nd4j.create(type, k, p);
        double firstLoss = Double.NaN;
        for (int s = 0; s < steps; s++) {
            PaddedBatch batch = batch(participants, round * steps + s, streams);
            ClippedBatch result = gradients.clippedSum(params, batch.features(), batch.labels(), batch.mask(),
                    Double.POSITIVE_INFINITY, grad);
            INDArray sizes = Nd4j.createFromArray(IntStream.of(batch.sizes()).mapToDouble(b -> Math.max(1, b)).toArray())
                    .reshape(k, 1).castTo(type);
            grad.diviColumnVector(sizes);
            params.subi(grad.muli(eta));
            if (s == 0) {
                firstLoss = meanLoss(result.lossSums(), batch.sizes());
            }
        }
        return new Updates(params.subiRowVector(theta.reshape(1, p)), firstLoss);
    }

    /**
     * The participants' batches of one local step: one gather over all clients (non-participants contribute no
     * rows, only padding), then the participants' slices when not everyone takes part.
     */
    private PaddedBatch batch(int[] participants, long streamRound, NoiseStreams streams) {
        boolean everyone = participants.length == clients.size();
        if (batchSize == 0 && everyone && everyoneFull != null) {
            return everyoneFull;
        }
        int[][] rows = new int[clients.size()][];
        java.util.Arrays.fill(rows, new int[0]);
        for (int k : participants) {
            int m = (int) clients.get(k).size();
            rows[k] = batchSize == 0 || batchSize >= m ? IntStream.range(0, m).toArray()
                    : new FixedSizeSampler(m, batchSize).sample(streams.sampling(k, streamRound));
        }
        PaddedBatch all = batches.gather(rows);
        if (everyone) {
            if (batchSize == 0) {
                everyoneFull = all;
            }
            return all;
        }
        SpecifiedIndex who = new SpecifiedIndex(java.util.Arrays.stream(participants).asLongStream().toArray());
        int[] sizes = java.util.Arrays.stream(participants).map(k -> rows[k].length).toArray();
        boolean equal = java.util.Arrays.stream(sizes).allMatch(b -> b == sizes[0]) && all.features().size(1) == sizes[0];
        return new PaddedBatch(all.features().get(who, all(), all()), all.labels().get(who, all(), all()),
                equal ? null : maskOf(all, who), sizes);
    }

    /** The participants' rows of the gathered mask (every row real when the gather needed no mask). */
    private INDArray maskOf(PaddedBatch all, SpecifiedIndex who) {
        if (all.mask() != null) {
            return all.mask().get(who, all());
        }
        return Nd4j.ones(type, who.getIndexes().length, all.features().size(1));
    }

    private static double meanLoss(INDArray lossSums, int[] sizes) {
        double total = 0;
        int count = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] > 0) {
                total += lossSums.getDouble(i) / sizes[i];
                count++;
            }
        }
        return count == 0 ? Double.NaN : total / count;
    }
}
