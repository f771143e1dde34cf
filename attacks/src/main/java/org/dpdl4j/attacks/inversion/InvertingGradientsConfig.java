package org.dpdl4j.attacks.inversion;

/**
 * Settings of {@link InvertingGradientsAttack}.
 *
 * @param iterations     Adam steps per restart
 * @param learningRate   Adam's initial step size; it is divided by 10 at 3/8, 5/8 and 7/8 of the iterations
 * @param totalVariation weight of the total-variation prior on the reconstructed images
 * @param restarts       independent random starts; the one with the lowest matching loss is kept
 * @param signed         whether Adam is fed the signs of the gradient (Geiping et al.'s choice for deep networks)
 * @param seed           seed of the first start (restart r uses seed + r)
 * @param snapshotEvery  record the reconstruction every this many steps
 */
public record InvertingGradientsConfig(int iterations, double learningRate, double totalVariation, int restarts,
                                       boolean signed, long seed, int snapshotEvery) {

    public InvertingGradientsConfig {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1, got " + iterations);
        }
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("learning rate must be a positive finite number, got " + learningRate);
        }
        if (!(totalVariation >= 0) || Double.isInfinite(totalVariation)) {
            throw new IllegalArgumentException("total-variation weight must be a finite number >= 0, got " + totalVariation);
        }
        if (restarts < 1) {
            throw new IllegalArgumentException("restarts must be >= 1, got " + restarts);
        }
        if (snapshotEvery < 1) {
            throw new IllegalArgumentException("snapshotEvery must be >= 1, got " + snapshotEvery);
        }
    }

    /**
     * The defaults: 2,000 signed Adam steps from learning rate 0.1, total variation 0.03, 2 restarts, seed 0 (the
     * total-variation weight chosen on MNIST training images 0 to 4 against the private CNN: 0.01, 0.03 and 0.1 gave
     * mean PSNR 18 (image 0), 25.9 and 25.0 dB).
     */
    public static InvertingGradientsConfig defaults() {
        return new InvertingGradientsConfig(2000, 0.1, 0.03, 2, true, 0L, 100);
    }

    public InvertingGradientsConfig withIterations(int newIterations) {
        return new InvertingGradientsConfig(newIterations, learningRate, totalVariation, restarts, signed, seed,
                Math.min(snapshotEvery, newIterations));
    }

    public InvertingGradientsConfig withRestarts(int newRestarts) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, newRestarts, signed, seed, snapshotEvery);
    }

    public InvertingGradientsConfig withSeed(long newSeed) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, restarts, signed, newSeed, snapshotEvery);
    }

    public InvertingGradientsConfig withTotalVariation(double newWeight) {
        return new InvertingGradientsConfig(iterations, learningRate, newWeight, restarts, signed, seed, snapshotEvery);
    }

    public InvertingGradientsConfig withLearningRate(double newRate) {
        return new InvertingGradientsConfig(iterations, newRate, totalVariation, restarts, signed, seed, snapshotEvery);
    }

    public InvertingGradientsConfig withSigned(boolean newSigned) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, restarts, newSigned, seed, snapshotEvery);
    }

    /** The step size at step {@code it} (1-based) of the schedule. */
    double learningRateAt(int it) {
        double rate = learningRate;
        for (double milestone : new double[] {3.0 / 8, 5.0 / 8, 7.0 / 8}) {
            if (it > milestone * iterations) {
                rate *= 0.1;
            }
        }
        return rate;
    }
}
