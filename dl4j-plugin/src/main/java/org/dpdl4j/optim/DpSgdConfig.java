package org.dpdl4j.optim;

import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The settings of central DP-SGD, either with a given noise multiplier or with a target epsilon from
 * which the noise is calibrated for the planned number of epochs. Build them by name, so that no two numbers can
 * trade places unnoticed:
 *
 * <pre>{@code
 * DpSgdConfig config = DpSgdConfig.builder()
 *         .clipNorm(1.0).targetEpsilon(2.0).delta(1e-5).batchSize(256).epochs(5)
 *         .build();
 * }</pre>
 *
 * @param clipNorm        per-example clipping norm C &gt; 0
 * @param noiseMultiplier z (noise std = z C); NaN when {@code targetEpsilon} is given
 * @param targetEpsilon   epsilon to calibrate z for; NaN when z is given
 * @param delta           the delta of every reported epsilon, in (0, 1)
 * @param batchSize       expected batch size (Poisson) or exact batch size (fixed-size sampling)
 * @param sampling        {@link SamplingScheme#POISSON} (default) or {@link SamplingScheme#FIXED_SIZE_WITHOUT_REPLACEMENT}
 * @param epochs          planned passes over the data (steps = epochs / q, rounded up); used to calibrate
 * @param epsilonBudget   training stops before a step that would exceed it; defaults to the target, or +inf
 */
public record DpSgdConfig(double clipNorm, double noiseMultiplier, double targetEpsilon, double delta, int batchSize,
                          SamplingScheme sampling, double epochs, double epsilonBudget) {

    public DpSgdConfig {
        if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
            throw new IllegalArgumentException("clip norm must be a positive finite number, got " + clipNorm);
        }
        boolean hasNoise = !Double.isNaN(noiseMultiplier);
        boolean hasTarget = !Double.isNaN(targetEpsilon);
        if (hasNoise == hasTarget) {
            throw new IllegalArgumentException("give exactly one of a noise multiplier and a target epsilon");
        }
        if (hasNoise && (!(noiseMultiplier > 0) || Double.isInfinite(noiseMultiplier))) {
            throw new IllegalArgumentException("noise multiplier must be a positive finite number, got " + noiseMultiplier
                    + " (z = 0 gives no privacy: train without DP instead)");
        }
        if (hasTarget && (!(targetEpsilon > 0) || Double.isInfinite(targetEpsilon))) {
            throw new IllegalArgumentException("target epsilon must be a positive finite number, got " + targetEpsilon);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        if (sampling != SamplingScheme.POISSON && sampling != SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT) {
            throw new IllegalArgumentException("DP-SGD samples POISSON or FIXED_SIZE_WITHOUT_REPLACEMENT batches, got " + sampling);
        }
        if (!(epochs > 0) || Double.isInfinite(epochs)) {
            throw new IllegalArgumentException("epochs must be a positive finite number, got " + epochs);
        }
        if (Double.isNaN(epsilonBudget)) {
            epsilonBudget = hasTarget ? targetEpsilon : Double.POSITIVE_INFINITY;
        }
        if (!(epsilonBudget > 0)) {
            throw new IllegalArgumentException("epsilon budget must be > 0, got " + epsilonBudget);
        }
    }

    /** Settings by name ({@link Builder}): the way to write them that cannot swap two numbers. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Settings with a given noise multiplier (Poisson sampling, no budget). Five numbers in a row are easy to swap:
     * prefer {@link #builder()}.
     */
    public static DpSgdConfig withNoise(double clipNorm, double noiseMultiplier, double delta, int batchSize, double epochs) {
        return new DpSgdConfig(clipNorm, noiseMultiplier, Double.NaN, delta, batchSize, SamplingScheme.POISSON, epochs, Double.NaN);
    }

    /**
     * Settings calibrated to reach {@code targetEpsilon} after {@code epochs} (Poisson sampling; budget = target). Five
     * numbers in a row are easy to swap (clip and epsilon both look like 1.0 or 3.0): prefer {@link #builder()}.
     */
    public static DpSgdConfig forTarget(double clipNorm, double targetEpsilon, double delta, int batchSize, double epochs) {
        return new DpSgdConfig(clipNorm, Double.NaN, targetEpsilon, delta, batchSize, SamplingScheme.POISSON, epochs, Double.NaN);
    }

    /** The same settings with another sampling scheme. */
    public DpSgdConfig withSampling(SamplingScheme scheme) {
        return new DpSgdConfig(clipNorm, noiseMultiplier, targetEpsilon, delta, batchSize, scheme, epochs,
                Double.isNaN(targetEpsilon) && Double.isInfinite(epsilonBudget) ? Double.NaN : epsilonBudget);
    }

    /**
     * These settings as {@link RunSettings} (what a checkpoint records and a resume compares): clip, the noise
     * multiplier or the target epsilon, delta, batch size, sampling, epochs, and the budget when it differs from
     * the target.
     */
    public RunSettings settings() {
        RunSettings s = RunSettings.empty().with(RunOptions.CLIP, clipNorm);
        s = Double.isNaN(noiseMultiplier) ? s.with(RunOptions.EPSILON, targetEpsilon) : s.with(RunOptions.NOISE_MULTIPLIER, noiseMultiplier);
        s = s.with(RunOptions.DELTA, delta).with(RunOptions.BATCH_SIZE, (long) batchSize)
                .with(RunOptions.SAMPLING, sampling == SamplingScheme.POISSON ? "poisson" : "fixed").with(RunOptions.EPOCHS, epochs);
        boolean defaultBudget = Double.isNaN(targetEpsilon) ? Double.isInfinite(epsilonBudget) : epsilonBudget == targetEpsilon;
        return defaultBudget ? s : s.with(RunOptions.EPSILON_BUDGET, epsilonBudget);
    }

    /** The same settings calibrated to another target epsilon, which is also the budget (the noise multiplier is dropped). */
    public DpSgdConfig withTargetEpsilon(double epsilon) {
        return new DpSgdConfig(clipNorm, Double.NaN, epsilon, delta, batchSize, sampling, epochs, Double.NaN);
    }

    /** The same settings with an explicit budget. */
    public DpSgdConfig withBudget(double budget) {
        return new DpSgdConfig(clipNorm, noiseMultiplier, targetEpsilon, delta, batchSize, sampling, epochs, budget);
    }

    /**
     * DP-SGD settings by name. Required: {@link #clipNorm}, exactly one of {@link #targetEpsilon} and
     * {@link #noiseMultiplier}, {@link #delta}, {@link #batchSize} and {@link #epochs}; {@link #sampling} defaults to
     * Poisson, {@link #epsilonBudget} to the target (or no limit with a given noise multiplier).
     */
    public static final class Builder {
        private double clipNorm = Double.NaN;
        private double noiseMultiplier = Double.NaN;
        private double targetEpsilon = Double.NaN;
        private double delta = Double.NaN;
        private int batchSize;
        private double epochs = Double.NaN;
        private SamplingScheme sampling = SamplingScheme.POISSON;
        private double epsilonBudget = Double.NaN;

        private Builder() {
        }

        /** The per-example clipping norm C &gt; 0: every example's gradient is scaled to a norm of at most C. */
        public Builder clipNorm(double c) {
            this.clipNorm = c;
            return this;
        }

        /** The epsilon the noise is calibrated to reach after the planned epochs (and, by default, the budget). */
        public Builder targetEpsilon(double epsilon) {
            this.targetEpsilon = epsilon;
            return this;
        }

        /** A fixed noise multiplier z (noise std z C) instead of a calibrated one; epsilon is then reported, not targeted. */
        public Builder noiseMultiplier(double z) {
            this.noiseMultiplier = z;
            return this;
        }

        /** The delta of every reported epsilon, in (0, 1) and well below 1 / (number of training examples). */
        public Builder delta(double d) {
            this.delta = d;
            return this;
        }

        /** The expected batch size (Poisson sampling) or the exact one (fixed-size sampling). */
        public Builder batchSize(int size) {
            this.batchSize = size;
            return this;
        }

        /** The planned passes over the data: the noise is calibrated for them, and {@code fit()} runs them. */
        public Builder epochs(double count) {
            this.epochs = count;
            return this;
        }

        /** How batches are drawn: {@link SamplingScheme#POISSON} (default) or fixed-size without replacement. */
        public Builder sampling(SamplingScheme scheme) {
            this.sampling = scheme;
            return this;
        }

        /** The epsilon no step may exceed, when it differs from the target (for example a run that may go on longer). */
        public Builder epsilonBudget(double budget) {
            this.epsilonBudget = budget;
            return this;
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException naming the setting that is missing or out of range, and what to give
         */
        public DpSgdConfig build() {
            require(!Double.isNaN(clipNorm), "clipNorm(C): the per-example clipping norm, e.g. 1.0");
            if (Double.isNaN(targetEpsilon) == Double.isNaN(noiseMultiplier)) {
                throw new IllegalArgumentException(Double.isNaN(targetEpsilon)
                        ? "DpSgdConfig.builder() needs targetEpsilon(epsilon), from which the noise is calibrated, or a"
                        + " fixed noiseMultiplier(z)"
                        : "DpSgdConfig.builder() was given both targetEpsilon(" + targetEpsilon + ") and noiseMultiplier("
                        + noiseMultiplier + "); give one: the target calibrates the multiplier");
            }
            require(!Double.isNaN(delta), "delta(d): the delta of every reported epsilon, well below 1 / (number of"
                    + " training examples), e.g. 1e-5");
            require(batchSize != 0, "batchSize(b): the expected number of examples per step, e.g. 256");
            require(!Double.isNaN(epochs), "epochs(n): the planned passes over the data, for which the noise is calibrated");
            return new DpSgdConfig(clipNorm, noiseMultiplier, targetEpsilon, delta, batchSize, sampling, epochs, epsilonBudget);
        }

        private static void require(boolean given, String what) {
            if (!given) {
                throw new IllegalArgumentException("DpSgdConfig.builder() needs " + what);
            }
        }
    }
}
