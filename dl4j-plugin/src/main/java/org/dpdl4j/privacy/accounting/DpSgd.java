package org.dpdl4j.privacy.accounting;

/**
 * The ledger of DP-SGD with Poisson sampling: {@code steps} repetitions of a Gaussian step (noise
 * multiplier z) on a Poisson sample of rate q, analysed under add/remove-one-example adjacency.
 */
public final class DpSgd {
    private DpSgd() {
    }

    /** The event of {@code steps} DP-SGD steps. */
    public static DpEvent event(double samplingRate, double noiseMultiplier, long steps) {
        return new SelfComposedEvent(new PoissonSampledEvent(samplingRate, new GaussianEvent(noiseMultiplier)), steps);
    }

    /** The default accountant ({@link TightestAccountant}, add/remove) holding {@code steps} DP-SGD steps. */
    public static TightestAccountant accountant(double samplingRate, double noiseMultiplier, long steps) {
        return new TightestAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE).compose(event(samplingRate, noiseMultiplier, steps));
    }

    /** A Renyi DP accountant (add/remove, default orders) holding {@code steps} DP-SGD steps: the analysis of earlier releases. */
    public static RdpAccountant rdpAccountant(double samplingRate, double noiseMultiplier, long steps) {
        return new RdpAccountant(NeighbouringRelation.ADD_OR_REMOVE_ONE).compose(event(samplingRate, noiseMultiplier, steps));
    }

    /** Rejects arguments outside their domain with a message that names the parameter and the fix. */
    static void requireArguments(double samplingRate, long steps, double delta) {
        if (!(samplingRate > 0 && samplingRate <= 1)) {
            throw new IllegalArgumentException("sampling rate q must lie in (0, 1], got " + samplingRate
                    + " (q = expected batch size / dataset size)");
        }
        if (steps < 1) {
            throw new IllegalArgumentException("steps must be >= 1, got " + steps);
        }
        ZCdp.requireDelta(delta);
    }
}
