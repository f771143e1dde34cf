package org.dpdl4j.privacy.accounting.correlated;

/**
 * Decor Theorem 1 as an upper bound on kappa. For honest set H, the all-ones vector is an
 * eigenvector of {@code Sigma_H^-1} with eigenvalue {@code 1/sigmaCdp^2}, and on its orthogonal
 * complement the largest eigenvalue is {@code 1/(sigmaCdp^2 + sigmaCor^2 a(G_H))}; splitting
 * {@code e_i = 1/|H| + (e_i - 1/|H|)} gives
 * {@code kappa_H <= 1/(|H| sigmaCdp^2) + (1 - 1/|H|)/(sigmaCdp^2 + sigmaCor^2 a(G_H))}.
 */
public final class TheoremOneBound {
    private TheoremOneBound() {
    }

    /**
     * The bound for an honest set of {@code honestCount} users whose induced graph has algebraic
     * connectivity at least {@code algebraicConnectivityLowerBound} (negative values count as 0);
     * never above the trivial bound {@code 1/sigmaCdp^2}.
     */
    public static double kappaBound(int honestCount, CorrelatedNoise noise, double algebraicConnectivityLowerBound) {
        if (honestCount < 1) {
            throw new IllegalArgumentException("the honest set must hold at least one user, got " + honestCount);
        }
        double s2 = noise.sigmaCdp() * noise.sigmaCdp();
        double a = Math.max(0.0, algebraicConnectivityLowerBound);
        double h = honestCount;
        double bound = 1.0 / (h * s2) + (1.0 - 1.0 / h) / (s2 + noise.sigmaCor() * noise.sigmaCor() * a);
        return Math.min(bound, 1.0 / s2);
    }

    /**
     * Bound for any q colluders on a graph of n vertices with algebraic connectivity {@code a(G)}:
     * Fiedler's vertex-deletion inequality {@code a(G - v) >= a(G) - 1}, applied q times, gives
     * {@code a(G_H) >= max(0, a(G) - q)} for every honest set of size {@code n - q}.
     */
    public static double collusionBound(int vertexCount, int q, double algebraicConnectivity, CorrelatedNoise noise) {
        if (q < 0 || q >= vertexCount) {
            throw new IllegalArgumentException("q = " + q + " colluders must satisfy 0 <= q < n = " + vertexCount);
        }
        return kappaBound(vertexCount - q, noise, algebraicConnectivity - q);
    }
}
