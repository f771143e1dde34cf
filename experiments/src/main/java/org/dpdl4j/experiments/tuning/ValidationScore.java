package org.dpdl4j.experiments.tuning;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.deeplearning4j.arbiter.optimize.api.data.DataProvider;
import org.deeplearning4j.arbiter.optimize.api.data.DataSource;
import org.deeplearning4j.arbiter.optimize.api.score.ScoreFunction;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.experiments.workload.Evaluation;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A candidate's score: its model's accuracy on the held-out validation set. The validation examples are private data
 * too, so with {@code noise > 0} the count of correct predictions is released through a Gaussian mechanism (sensitivity
 * 1: one example changes the count by at most 1) before it is divided by the validation size, and that release is part
 * of every candidate's cost ({@link #event()}). With no noise the score is exact, which only tuning on public data may use.
 */
public final class ValidationScore implements ScoreFunction {
    private static final long serialVersionUID = 1L;

    private final transient Workload.Split validation;
    private final double noise;
    private final transient NoiseSource source;

    /**
     * @param noise  the standard deviation of the noise on the count of correct predictions (0: exact)
     * @param source where the noise comes from (unused without noise)
     */
    public ValidationScore(Workload.Split validation, boolean classification, double noise, NoiseSource source) {
        if (!classification) {
            throw new IllegalArgumentException("tuning scores validation accuracy, so it needs a classification task");
        }
        if (!(noise >= 0) || Double.isInfinite(noise)) {
            throw new IllegalArgumentException("--score-noise must be finite and >= 0, got " + noise);
        }
        if (noise > 0 && source == null) {
            throw new IllegalArgumentException("a noisy score needs a noise source");
        }
        this.validation = validation;
        this.noise = noise;
        this.source = source;
    }

    /** The score's privacy event: a Gaussian mechanism of noise multiplier {@code noise} on a count; none if exact. */
    public java.util.Optional<GaussianEvent> event() {
        return noise > 0 ? java.util.Optional.of(new GaussianEvent(noise)) : java.util.Optional.empty();
    }

    public double noise() {
        return noise;
    }

    public long size() {
        return validation.size();
    }

    /** The released score of a trained network: its (noisy) validation accuracy. */
    public double score(MultiLayerNetwork net) {
        return released(Evaluation.of(net, validation, true).accuracy(), validation.size(), noise, source);
    }

    /**
     * An accuracy on {@code n} private examples as it is released: the count of correct predictions plus Gaussian
     * noise of std {@code noise} (sensitivity 1), over n; exact when {@code noise} is 0.
     */
    static double released(double exactAccuracy, long n, double noise, NoiseSource source) {
        if (noise == 0) {
            return exactAccuracy;
        }
        INDArray z = source.gaussian(DataType.DOUBLE, noise, 1);
        return (Math.round(exactAccuracy * n) + z.getDouble(0)) / n;
    }

    @Override
    public double score(Object model, DataProvider dataProvider, Map<String, Object> dataParameters) {
        return score((MultiLayerNetwork) model);
    }

    @Override
    public double score(Object model, Class<? extends DataSource> dataSource, Properties dataSourceProperties) {
        return score((MultiLayerNetwork) model);
    }

    @Override
    public boolean minimize() {
        return false;
    }

    @Override
    public List<Class<?>> getSupportedModelTypes() {
        return List.of(MultiLayerNetwork.class);
    }

    @Override
    public List<Class<?>> getSupportedDataTypes() {
        return List.of(Workload.Split.class);
    }
}
