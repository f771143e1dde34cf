package org.dpdl4j.attacks.inversion;

import org.dpdl4j.attacks.matching.MatchingLoss;

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
 * @param loss           the cosine distance of the whole gradient or its layer-wise mean
 */
public record InvertingGradientsConfig(int iterations, double learningRate, double totalVariation, int restarts,
                                       boolean signed, long seed, int snapshotEvery, MatchingLoss loss) {

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
        java.util.Objects.requireNonNull(loss, "loss must not be null");
        if (loss == MatchingLoss.SQUARED_DISTANCE) {
            throw new IllegalArgumentException("Inverting Gradients matches directions: use COSINE_DISTANCE or"
                    + " LAYERWISE_COSINE_DISTANCE");
        }
    }

    /**
     * The defaults: 2,000 signed Adam steps from learning rate 0.1, total variation 0.03, 2 restarts, seed 0, the
     * layer-wise cosine distance. Chosen on MNIST training images not used for evaluation, against the private tanh
     * CNN: at its initialisation (images 0 to 4, FedAvg server) the whole-gradient cosine reached a mean PSNR of 25.9 dB
     * and the layer-wise one 22.3 dB (total variation 0.01 / 0.03 / 0.1: 20.1 / 22.3 / 20.0 dB); after 50 steps of
     * training (images 100 to 102, central gradient) the whole-gradient cosine fell to 12.7-14.0 dB, as the output layer's
     * gradient came to dominate it, while the layer-wise one kept 22.2-25.7 dB.
     */
    public static InvertingGradientsConfig defaults() {
        return new InvertingGradientsConfig(2000, 0.1, 0.03, 2, true, 0L, 100, MatchingLoss.LAYERWISE_COSINE_DISTANCE);
    }

    public InvertingGradientsConfig withIterations(int newIterations) {
        return new InvertingGradientsConfig(newIterations, learningRate, totalVariation, restarts, signed, seed,
                Math.min(snapshotEvery, newIterations), loss);
    }

    public InvertingGradientsConfig withRestarts(int newRestarts) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, newRestarts, signed, seed, snapshotEvery, loss);
    }

    public InvertingGradientsConfig withSeed(long newSeed) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, restarts, signed, newSeed, snapshotEvery, loss);
    }

    public InvertingGradientsConfig withTotalVariation(double newWeight) {
        return new InvertingGradientsConfig(iterations, learningRate, newWeight, restarts, signed, seed, snapshotEvery, loss);
    }

    public InvertingGradientsConfig withLearningRate(double newRate) {
        return new InvertingGradientsConfig(iterations, newRate, totalVariation, restarts, signed, seed, snapshotEvery, loss);
    }

    public InvertingGradientsConfig withSigned(boolean newSigned) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, restarts, newSigned, seed, snapshotEvery, loss);
    }

    public InvertingGradientsConfig withLoss(MatchingLoss newLoss) {
        return new InvertingGradientsConfig(iterations, learningRate, totalVariation, restarts, signed, seed, snapshotEvery,
                newLoss);
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
