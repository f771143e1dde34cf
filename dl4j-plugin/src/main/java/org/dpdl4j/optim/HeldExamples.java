package org.dpdl4j.optim;

import java.util.Arrays;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/** All training examples in memory, every step gathering the rows its sampler draws. */
final class HeldExamples implements ExampleSource {
    private final TrainingExamples examples;
    /** ||x_i||^2 of every training example, [N, 1]: data only, so computed once and gathered with each batch. */
    private final INDArray featureSquaredNorms;

    HeldExamples(TrainingExamples examples) {
        this.examples = examples;
        this.featureSquaredNorms = RowNorms.squared(examples.features(), 1).reshape(examples.size(), 1).detach();
    }

    @Override
    public long size() {
        return examples.size();
    }

    @Override
    public StepBatch next(BatchSampler sampler, RandomGenerator random, long stepsLeft) {
        return gather(sampler.sample(random));
    }

    /** The batch of the given rows (a step whose sample the trainer split itself, as with planted examples). */
    StepBatch gather(int[] rows) {
        INDArray features = examples.features();
        INDArray labels = examples.labels();
        if (rows.length == 0) {
            return new StepBatch(examples.batchFeatures(features.get(NDArrayIndex.interval(0, 0))),
                    labels.get(NDArrayIndex.interval(0, 0)), null, 0);
        }
        // Nd4j.pullRows is one native gather; INDArray.getRows is many times slower.
        return new StepBatch(examples.batchFeatures(Nd4j.pullRows(features, 1, rows)), Nd4j.pullRows(labels, 1, rows),
                Nd4j.pullRows(featureSquaredNorms, 1, rows), rows.length);
    }

    @Override
    public void discardDrawnAhead() {
        // nothing is drawn ahead
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%,d examples, %s in memory (features %s, labels %s)", examples.size(),
                IteratorContents.size(examples.bytes()), Arrays.toString(examples.features().shape()),
                Arrays.toString(examples.labels().shape()));
    }
}
