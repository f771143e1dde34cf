package org.dpdl4j.protocol.decentralized;

import java.util.List;
import java.util.OptionalDouble;
import org.dpdl4j.optim.BatchSampler;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PoissonSampler;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.DeviceNodeModels;
import org.dpdl4j.runtime.BatchRows;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.runtime.PaddedBatch;

/**
 * The per-node parts of a decentralized round that one process and a block of nodes on a worker share: each node's
 * sampler, the division of its clipped sum into a local gradient, user-level clipping and the round's mean loss.
 */
final class LocalGradients {
    private LocalGradients() {
    }

    /** The sampler of a node with {@code m} examples under the run's sampling scheme. */
    static BatchSampler sampler(DecentralizedConfig config, long m, int node) {
        return switch (config.sampling()) {
            case POISSON -> {
                if (config.batchSize() > m) {
                    throw new IllegalArgumentException("node " + node + " has " + m + " examples, fewer than the batch size "
                            + config.batchSize());
                }
                yield PoissonSampler.withExpectedBatchSize(m, config.batchSize());
            }
            case FIXED_SIZE_WITHOUT_REPLACEMENT -> new FixedSizeSampler(m, Math.min(config.batchSize(), (int) m));
            case FULL_BATCH -> new PoissonSampler(m, 1.0);
        };
    }

    /** Whether a MEAN objective divides by the expected batch size, which does not depend on the batch drawn. */
    static boolean dividesByExpectedSize(DecentralizedConfig config) {
        return config.objective() == LocalObjective.MEAN && (exampleLevel(config) || config.sampling() == SamplingScheme.FULL_BATCH);
    }

    /**
     * Sum -> local gradient: divided by the batch size for a MEAN objective (the expected size under Poisson sampling
     * when privacy is example level, so the divisor does not depend on the data).
     *
     * @param expected the nodes' expected batch sizes when {@link #dividesByExpectedSize}, else null
     */
    static void scaleToLocalGradient(DecentralizedConfig config, INDArray grad, INDArray expected, List<BatchSampler> samplers,
                                     int[] sizes, DataType type) {
        if (config.objective() == LocalObjective.SUM) {
            return;
        }
        grad.diviColumnVector(expected != null ? expected : divisor(samplers, sizes, type));
    }

    /** Each node's divisor: its expected batch size, or with {@code sizes} the size of the batch it drew (at least 1). */
    static INDArray divisor(List<BatchSampler> samplers, int[] sizes, DataType type) {
        INDArray divisor = Nd4j.create(DataType.DOUBLE, samplers.size(), 1);
        for (int i = 0; i < samplers.size(); i++) {
            divisor.putScalar(i, 0, sizes == null ? samplers.get(i).expectedBatchSize() : Math.max(1, sizes[i]));
        }
        return divisor.castTo(type);
    }

    /** User-level clipping: each node's whole local gradient to norm C. */
    static void clipRows(INDArray grad, double clip) {
        INDArray factors = Transforms.min(grad.norm2(1).rdivi(clip), 1.0, false);   // C / 0 = inf -> 1
        grad.muliColumnVector(factors.reshape(factors.length(), 1));
    }

    /** The per-example clip of a round: C at example level, none (+infinity) otherwise. */
    private static double exampleClip(DecentralizedConfig config) {
        return exampleLevel(config) ? config.clipNorm() : Double.POSITIVE_INFINITY;
    }

    private static boolean exampleLevel(DecentralizedConfig config) {
        return config.unit() == ProtectedUnit.EXAMPLE && config.algorithm().isPrivate();
    }

    /**
     * {@link #clippedLocalGradients} with the node models on a device: the same clipped sums, divisors and user-level
     * clipping, computed there. Returns each node's loss sum.
     */
    static double[] clippedLocalGradients(DecentralizedConfig config, DeviceNodeModels device, PaddedBatch batch,
                                          INDArray expected, List<BatchSampler> samplers) {
        double[] lossSums = device.clippedSums(batch.features(), batch.labels(), batch.mask(), batch.featureSquaredNorms(),
                exampleClip(config));
        return localGradientsOnDevice(config, device, lossSums, batch.sizes(), expected, samplers);
    }

    /** As {@link #clippedLocalGradients(DecentralizedConfig, DeviceNodeModels, PaddedBatch, INDArray, List)} from the rows of data kept there. */
    static double[] clippedLocalGradients(DecentralizedConfig config, DeviceNodeModels device, BatchRows batch,
                                          INDArray expected, List<BatchSampler> samplers) {
        double[] lossSums = device.clippedSums(batch.rows(), batch.width(), batch.mask(), exampleClip(config));
        return localGradientsOnDevice(config, device, lossSums, batch.sizes(), expected, samplers);
    }

    /** The division into local gradients and the user-level clipping of the clipped sums on the device. */
    private static double[] localGradientsOnDevice(DecentralizedConfig config, DeviceNodeModels device, double[] lossSums,
                                                   int[] sizes, INDArray expected, List<BatchSampler> samplers) {
        if (config.objective() == LocalObjective.MEAN) {
            double[] divisors = (expected != null ? expected : divisor(samplers, sizes, DataType.DOUBLE))
                    .castTo(DataType.DOUBLE).toDoubleVector();
            double[] factors = new double[divisors.length];
            for (int i = 0; i < factors.length; i++) {
                factors[i] = 1.0 / divisors[i];
            }
            device.scaleRows(factors);
        }
        if (config.algorithm().isPrivate() && !exampleLevel(config)) {
            device.clipRows(config.clipNorm());
        }
        return lossSums;
    }

    /**
     * The first half of every node's round, the same in one process and on a block: the clipped sum of its batch
     * (per example at example level), scaled to its local gradient, clipped as a whole at user level. Writes
     * {@code grad} and returns the engine's result (the loss sums).
     *
     * @param expected the nodes' expected batch sizes when {@link #dividesByExpectedSize}, else null
     */
    static ClippedBatch clippedLocalGradients(DecentralizedConfig config, PerExampleGradients engine, INDArray models,
                                              PaddedBatch batch, INDArray expected, List<BatchSampler> samplers,
                                              INDArray grad) {
        ClippedBatch result = engine.clippedSum(models, batch.features(), batch.labels(), batch.mask(),
                batch.featureSquaredNorms(), exampleClip(config), grad);
        scaleToLocalGradient(config, grad, expected, samplers, batch.sizes(), models.dataType());
        if (config.algorithm().isPrivate() && !exampleLevel(config)) {
            clipRows(grad, config.clipNorm());
        }
        return result;
    }

    /** The second half of every node's round: weight decay, then the step along the (noisy) gradient, in place. */
    static void descend(DecentralizedConfig config, long round, INDArray models, INDArray grad) {
        double eta = config.learningRate().at(round);
        if (config.weightDecay() > 0) {
            models.muli(1.0 - eta * config.weightDecay());
        }
        models.subi(grad.muli(eta));
    }

    /** Mean over the nodes that saw examples of their mean batch loss; empty when no node saw one. */
    static OptionalDouble meanBatchLoss(double[] sums, int[] sizes) {
        double total = 0;
        int count = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] > 0) {
                total += sums[i] / sizes[i];
                count++;
            }
        }
        return count == 0 ? OptionalDouble.empty() : OptionalDouble.of(total / count);
    }
}
