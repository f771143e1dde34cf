package org.dpdl4j.privacy.accounting;

/**
 * Closed forms for linear RDP curves, i.e. rho-zero-concentrated DP: {@code eps_R(alpha) = alpha * rho}
 * for every order alpha &gt; 1 (Bun &amp; Steinke 2016).
 *
 * <p>The standard RDP-to-DP conversion {@code min_alpha [alpha rho + ln(1/delta)/(alpha-1)]} is
 * attained at {@code alpha* = 1 + sqrt(ln(1/delta)/rho)} and equals {@code rho + 2 sqrt(rho ln(1/delta))}.
 */
public final class ZCdp {
    private ZCdp() {
    }

    /** Epsilon of a rho-zCDP mechanism at the given delta (standard conversion, exact optimum). */
    public static double epsilon(double rho, double delta) {
        requireRho(rho);
        requireDelta(delta);
        return rho + 2.0 * Math.sqrt(rho * Math.log(1.0 / delta));
    }

    /** The largest rho whose {@link #epsilon(double, double)} equals the target epsilon. */
    public static double rho(double epsilon, double delta) {
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("target epsilon must be a positive finite number, got " + epsilon);
        }
        requireDelta(delta);
        double l = Math.log(1.0 / delta);
        double s = Math.sqrt(l + epsilon) - Math.sqrt(l);
        return s * s;
    }

    /** The RDP order at which the standard conversion of a rho-zCDP curve is optimal. */
    public static double optimalOrder(double rho, double delta) {
        requireRho(rho);
        requireDelta(delta);
        return 1.0 + Math.sqrt(Math.log(1.0 / delta) / rho);
    }

    /** rho of a Gaussian mechanism with L2 sensitivity {@code sensitivity} and noise std {@code sigma}. */
    public static double gaussianRho(double sensitivity, double sigma) {
        if (!(sigma > 0)) {
            throw new IllegalArgumentException("noise std must be positive, got " + sigma);
        }
        if (!(sensitivity >= 0)) {
            throw new IllegalArgumentException("sensitivity must be non-negative, got " + sensitivity);
        }
        return sensitivity * sensitivity / (2.0 * sigma * sigma);
    }

    static void requireRho(double rho) {
        if (!(rho >= 0) || Double.isInfinite(rho)) {
            throw new IllegalArgumentException("rho must be a non-negative finite number, got " + rho);
        }
    }

    static void requireDelta(double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
    }
}
