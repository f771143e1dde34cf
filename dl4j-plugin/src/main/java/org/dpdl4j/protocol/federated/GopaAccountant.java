package org.dpdl4j.protocol.federated;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.CorrelatedNoise;
import org.dpdl4j.privacy.accounting.correlated.KappaResult;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;
import org.dpdl4j.privacy.ledger.LedgerAccounting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * GOPA's accountant (spec 7.3): the release {@code thetaHat = theta + B U + eta} is Decor's per-step correlated
 * Gaussian mechanism with {@code sigma_cdp = sigma_eta} and {@code sigma_cor = sigma_Delta}, so for the honest
 * parties H left by a server colluding with q parties, {@code kappa = max_{i in H} ((sigma_eta^2 I + sigma_Delta^2 L_{G[H]})^-1)_ii}
 * from the same {@link SecRdpAccountant}. A release of values with L2 sensitivity Delta is
 * {@code (alpha, alpha Delta^2 kappa / 2)}-RDP, and exactly a Gaussian mechanism of {@code mu = Delta sqrt(kappa)} (the
 * default accounting's exact curve): Delta = 1 for GOPA's values in [0, 1], {@code 2S} for updates clipped to S under
 * replace-one.
 *
 * <p>With a colluding fraction the worst set is taken exactly when enumerable, else the documented upper bound
 * is used ({@link CollusionAnalysis#worstCase()}); {@link CollusionAnalysis#sampled} reports the maximum over
 * random sets instead, labelled as an estimate.
 */
public final class GopaAccountant {
    private final Graph graph;
    private final int colluders;
    private final CollusionAnalysis analysis;
    private final SecRdpAccountant full;
    private final List<SecRdpAccountant> sampledHonest = new ArrayList<>();
    private final List<int[]> sampledSets = new ArrayList<>();

    /**
     * @param graph     the parties' pairwise-secret graph
     * @param colluders q, the number of parties colluding with the server (0: the server alone)
     * @param analysis  how the colluding set is treated
     */
    public GopaAccountant(Graph graph, int colluders, CollusionAnalysis analysis) {
        this.graph = Objects.requireNonNull(graph, "graph");
        this.analysis = Objects.requireNonNull(analysis, "collusion analysis");
        int k = graph.vertexCount();
        if (colluders < 0 || colluders >= k) {
            throw new IllegalArgumentException(colluders + " colluding parties out of " + k + ": at least one honest party must"
                    + " remain and the count cannot be negative");
        }
        this.colluders = colluders;
        this.full = new SecRdpAccountant(graph);
        if (analysis instanceof CollusionAnalysis.Sampled sampled && colluders > 0) {
            SplittableRandom random = new SplittableRandom(sampled.seed());
            for (int s = 0; s < sampled.sets(); s++) {
                int[] set = randomSubset(k, colluders, random);
                sampledSets.add(set);
                sampledHonest.add(new SecRdpAccountant(graph.deleteVertices(set).graph()));
            }
        }
    }

    /** The number of colluders for a fraction f of K parties, rounded up (the conservative side). */
    public static int colludersOf(double fraction, int parties) {
        if (!(fraction >= 0 && fraction < 1)) {
            throw new IllegalArgumentException("the colluding fraction must lie in [0, 1), got " + fraction
                    + " (at least one party must be honest)");
        }
        int q = (int) Math.ceil(fraction * parties - 1e-9);
        if (q >= parties) {
            throw new IllegalArgumentException("a colluding fraction of " + fraction + " of " + parties + " parties leaves no honest party");
        }
        return q;
    }

    /** kappa for the given noise levels. */
    public GopaKappa kappa(double sigmaPrivate, double sigmaPairwise) {
        CorrelatedNoise noise = new CorrelatedNoise(sigmaPrivate, sigmaPairwise);
        if (colluders == 0) {
            KappaResult r = full.kappa(noise, Adversary.eavesdropper());
            return new GopaKappa(r.kappa(), GopaKappa.Basis.EXACT_WORST_CASE, 0, List.of(), 1);
        }
        if (analysis instanceof CollusionAnalysis.Sampled) {
            double best = -1;
            int arg = -1;
            for (int s = 0; s < sampledHonest.size(); s++) {
                double k = Arrays.stream(sampledHonest.get(s).inverseCovarianceDiagonal(noise)).max().orElseThrow();
                if (k > best) {
                    best = k;
                    arg = s;
                }
            }
            return new GopaKappa(best, GopaKappa.Basis.SAMPLED_SETS, colluders, Arrays.stream(sampledSets.get(arg)).boxed().toList(),
                    sampledHonest.size());
        }
        Adversary adversary = Adversary.colluding(colluders);
        KappaResult r = full.kappa(noise, adversary);
        return new GopaKappa(r.kappa(), r.isExact() ? GopaKappa.Basis.EXACT_WORST_CASE : GopaKappa.Basis.UPPER_BOUND, colluders,
                r.worstDeletedSet(), r.isExact() ? SecRdpAccountant.binomial(graph.vertexCount(), colluders) : 0);
    }

    /**
     * The largest kappa per release for which {@code releases} releases of sensitivity Delta stay within (epsilon, delta)
     * as a run's ledger reports them with the default accounting (see
     * {@link #kappaBudget(double, double, long, double, AccountantFactory)}).
     */
    public static double kappaBudget(double epsilon, double delta, long releases, double sensitivity) {
        return kappaBudget(epsilon, delta, releases, sensitivity, AccountantFactory.standard());
    }

    /**
     * The largest kappa per release for which {@code releases} releases of sensitivity Delta stay within (epsilon, delta)
     * as the ledger priced by {@code accountants} reports them ({@link CorrelatedGaussianEvent} of contribution
     * {@code Delta / 2}, replace-one): calibration and ledger must use the same accountant, or the run stops short of its
     * target with more noise than it needs. A release is a Gaussian mechanism of {@code mu^2 = Delta^2 kappa}, so the
     * budget is {@link LedgerAccounting#gaussianMuSquared} over {@code releases Delta^2}: the exact Gaussian curve's with
     * the default accounting, zCDP's {@code 2 rho(epsilon, delta) / (releases Delta^2)} with Renyi DP (which prices the
     * linear curve exactly there). Then lowered by rounding only, as far as the ledger's own price requires
     * ({@link LedgerAccounting#safeSide}, its noise being the factor the budget is divided by).
     *
     * @throws IllegalArgumentException if epsilon is not positive and finite, delta is outside (0, 1), there is no
     *                                  release, or Delta is not positive and finite
     */
    public static double kappaBudget(double epsilon, double delta, long releases, double sensitivity, AccountantFactory accountants) {
        if (releases < 1) {
            throw new IllegalArgumentException("the number of releases must be >= 1, got " + releases);
        }
        if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("the L2 sensitivity must be a positive finite number, got " + sensitivity);
        }
        LedgerAccounting accounting = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE);
        double closedForm = accounting.gaussianMuSquared(epsilon, delta) / (releases * sensitivity * sensitivity);
        double divisor = accounting.safeSide(1.0, d -> new CorrelatedGaussianEvent(closedForm / d, sensitivity / 2), releases,
                delta, epsilon).noise();
        return divisor == 1.0 ? closedForm : closedForm / divisor;
    }

    public Graph graph() {
        return graph;
    }

    public int colluders() {
        return colluders;
    }

    public CollusionAnalysis analysis() {
        return analysis;
    }

    /** One sentence for statements. */
    public String describeAdversary() {
        return colluders == 0 ? "the server alone (sees every revealed value, knows no pairwise secret)"
                : "the server colluding with " + colluders + " of the " + graph.vertexCount() + " parties (their secrets and private noise)";
    }

    private static int[] randomSubset(int n, int k, SplittableRandom random) {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        for (int s = 0; s < k; s++) {
            int r = s + random.nextInt(n - s);
            int t = all[s];
            all[s] = all[r];
            all[r] = t;
        }
        int[] set = Arrays.copyOf(all, k);
        Arrays.sort(set);
        return set;
    }
}
