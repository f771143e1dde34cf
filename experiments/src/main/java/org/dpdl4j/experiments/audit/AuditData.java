package org.dpdl4j.experiments.audit;

import java.io.IOException;
import java.util.SplittableRandom;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.runtime.options.InvalidOptionException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The data of an audit: the training examples, and for the black-box auditor the held-out examples its canaries come
 * from (null otherwise).
 *
 * @param train the training examples
 * @param pool  the black-box canaries' examples, or null
 */
public record AuditData(LabeledData train, LabeledData pool) {

    /**
     * Reads or generates a data set by name.
     *
     * @param dataset      a name of {@link DpSgdAudit#DATASETS}
     * @param examples     the first so many training examples, or 0 for all (synthetic: how many to generate)
     * @param m            the canaries, which the black-box auditor draws from held-out examples
     * @param blackBox     whether to set aside the black-box canaries' examples
     * @param seed         the run's seed (the synthetic data's is seed + 1)
     * @param pixelScaling how MNIST's pixels become features
     */
    public static AuditData load(String dataset, int examples, int m, boolean blackBox, long seed, DataDirectory data,
                                 PixelScaling pixelScaling) throws IOException {
        if (dataset.equals("synthetic")) {
            int n = examples > 0 ? examples : DpSgdAudit.SYNTHETIC_EXAMPLES;
            // The first n rows are the same whether m more are drawn for canaries or not.
            LabeledData all = synthetic(blackBox ? n + m : n, seed + 1);
            return new AuditData(all.subset(range(0, n)), blackBox ? all.subset(range(n, n + m)) : null);
        }
        LabeledData train;
        LabeledData test = null;
        switch (dataset) {
            case "mnist" -> {
                org.dpdl4j.data.TrainTest tt = Datasets.mnist(data, pixelScaling);
                train = tt.train();
                test = tt.test();
            }
            case "a9a" -> {
                org.dpdl4j.data.TrainTest tt = Datasets.a9a(data);
                train = tt.train();
                test = tt.test();
            }
            case "covtype-20k" -> train = Datasets.covtype20k(data);
            default -> throw new IllegalStateException("unchecked data set " + dataset);
        }
        int n = examples > 0 ? examples : train.size();
        if (n > train.size()) {
            throw new InvalidOptionException("--examples", "--examples " + n + " exceeds the " + train.size()
                    + " training examples of " + dataset + "; use at most " + train.size() + " (or drop it for all)");
        }
        LabeledData pool = null;
        if (blackBox && test != null) {
            if (m > test.size()) {
                throw new InvalidOptionException("--canaries", "--canaries " + m + ": the black-box canaries are test"
                        + " examples of " + dataset + ", which has " + test.size() + "; use at most " + test.size());
            }
            pool = test.subset(range(0, m));
        } else if (blackBox) {
            // No test file: the canaries are the rows after the training slice.
            if (n == train.size() || n + (long) m > train.size()) {
                throw new InvalidOptionException("--examples", "the black-box canaries of " + dataset + " are the rows"
                        + " after the training examples, and " + train.size() + " rows hold " + n + " examples and " + m
                        + " canaries only with --examples " + Math.max(1, train.size() - m) + " or fewer");
            }
            pool = train.subset(range(n, n + m));
        }
        return new AuditData(n == train.size() ? train : train.subset(range(0, n)), pool);
    }

    private static int[] range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).toArray();
    }

    /**
     * Two classes in {@value DpSgdAudit#SYNTHETIC_FEATURES} Gaussian dimensions, labelled by a random linear teacher with 10% of
     * the labels flipped: a task a small MLP learns, generated from the seed.
     */
    static LabeledData synthetic(int n, long seed) {
        INDArray x = Nd4j.getRandomFactory().getNewRandomInstance(seed)
                .nextGaussian(new long[]{n, DpSgdAudit.SYNTHETIC_FEATURES}).castTo(DataType.FLOAT);
        SplittableRandom random = new SplittableRandom(seed);
        double[] w = new double[DpSgdAudit.SYNTHETIC_FEATURES];
        for (int j = 0; j < w.length; j++) {
            w[j] = random.nextDouble() * 2 - 1;
        }
        double[] margins = x.castTo(DataType.DOUBLE).mmul(Nd4j.createFromArray(w).reshape(w.length, 1)).toDoubleVector();
        int[] labels = new int[n];
        for (int i = 0; i < n; i++) {
            boolean positive = margins[i] > 0;
            labels[i] = (random.nextDouble() < 0.1) != positive ? 1 : 0;
        }
        return new LabeledData("synthetic", x, labels, 2);
    }
}
