package org.dpdl4j.optim;

import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The settings of central DP-SGD, either with a given noise multiplier or with a target epsilon from
 * which the noise is calibrated for the planned number of epochs.
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

    /** Settings with a given noise multiplier (Poisson sampling, no budget). */
    public static DpSgdConfig withNoise(double clipNorm, double noiseMultiplier, double delta, int batchSize, double epochs) {
        return new DpSgdConfig(clipNorm, noiseMultiplier, Double.NaN, delta, batchSize, SamplingScheme.POISSON, epochs, Double.NaN);
    }

    /** Settings calibrated to reach {@code targetEpsilon} after {@code epochs} (Poisson sampling; budget = target). */
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

    /** The same settings with an explicit budget. */
    public DpSgdConfig withBudget(double budget) {
        return new DpSgdConfig(clipNorm, noiseMultiplier, targetEpsilon, delta, batchSize, sampling, epochs, budget);
    }
}
