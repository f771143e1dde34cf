package org.dpdl4j.protocol.federated;

/**
 * The step size of DP-mu^2-FL (spec 4.5):
 * {@code eta = min{ 1/(4 L T), D / (T sqrt(sigmaTilde^2 / M + V_Y / T)) }}, where {@code V_Y} is the variance of
 * the noise that reaches the server's update: {@code d sigma^2 / M} when each of the M machines adds
 * {@code N(0, sigma^2 I_d)} (untrusted server), {@code d sigma^2} when the server adds it once (trusted).
 *
 * <p>{@code sigmaTilde^2 = 2 sigma_g^2 + 8 D^2 sigma_L^2} combines the variances of the stochastic gradients and
 * of their smoothness; neither is known in advance, so this uses their data-independent bounds
 * {@code sigma_g <= G} and {@code sigma_L <= L}: {@code sigmaTilde^2 = 2 G^2 + 8 D^2 L^2}. In private runs
 * {@code V_Y / T} dominates by orders of magnitude, so this choice barely matters there.
 */
public final class Mu2StepSize {
    private Mu2StepSize() {
    }

    /**
     * @param constants G, L, D
     * @param rounds    T
     * @param machines  M
     * @param dimension d, the number of model parameters
     * @param sigma     the noise std (0 for a non-private run)
     * @param trust     who adds the noise
     */
    public static double of(Mu2Constants constants, long rounds, int machines, long dimension, double sigma, ServerTrust trust) {
        if (rounds < 1 || machines < 1 || dimension < 1) {
            throw new IllegalArgumentException("rounds T, machines M and dimension d must all be >= 1, got T = " + rounds
                    + ", M = " + machines + ", d = " + dimension);
        }
        if (!(sigma >= 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("noise std sigma must be a finite number >= 0, got " + sigma);
        }
        double g = constants.lipschitz();
        double l = constants.smoothness();
        double d = constants.diameter();
        double sigmaTilde2 = 2 * g * g + 8 * d * d * l * l;
        double noiseVariance = dimension * sigma * sigma / (trust == ServerTrust.UNTRUSTED ? machines : 1);
        double stability = l > 0 ? 1.0 / (4 * l * rounds) : Double.POSITIVE_INFINITY;
        double balance = d / (rounds * Math.sqrt(sigmaTilde2 / machines + noiseVariance / rounds));
        return Math.min(stability, balance);
    }
}
