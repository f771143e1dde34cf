package org.dpdl4j.audit;

import java.util.stream.IntStream;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.protocol.decentralized.DecentralizedAlgorithm;
import org.dpdl4j.protocol.decentralized.DecentralizedConfig;
import org.dpdl4j.protocol.decentralized.DecentralizedTrainer;
import org.dpdl4j.protocol.decentralized.RoundObserver;
import org.dpdl4j.protocol.decentralized.RoundTap;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The user-level audit of Decor (or LDP) by the eavesdropper, who sees every node's message every round and so the
 * noisy gradient each node released, but none of the pairwise secrets.
 *
 * <p>On a canary's coordinate j the n released gradients of a round are {@code y = s e_a + z}: the canary's share s at
 * its node a (S in, 0 or -S out) plus noise {@code z ~ N(0, Sigma)}, {@code Sigma = sigma_cdp^2 I + sigma_cor^2 L}
 * (private noise, and pairwise noise that cancels only in the average; L the graph's Laplacian). The most powerful
 * statistic of s is {@code w^T y} with {@code w = Sigma^-1 e_a}: in units of its std, {@code x = w^T y / sqrt(kappa_a)}
 * with {@code kappa_a = (Sigma^-1)_aa} is N(s sqrt(kappa_a), 1), the mechanism the ledger prices with kappa = max_i
 * kappa_i. Rounds are independent given the coins, so each canary's score is its log-likelihood ratio summed over the
 * rounds ({@link CanaryClientScores}, mu = S sqrt(kappa_a), every canary present every round). Another fixed w
 * ({@link EavesdropperStatistic}) is scored the same way, in units of the std of {@code w^T z} under the claimed noise.
 *
 * <p>The ratio is exact for the noise the paper describes; for any other noise (a broken run, or a compatibility mode)
 * it is still a valid score, as every score is: the coins alone decide which guesses are right. When the claimed
 * pairwise noise is large, that ratio reads the canary's node mostly through the average, where the pairwise noise
 * cancels, and so cannot tell whether the node's own message really carried it; {@link EavesdropperStatistic#OWN_MESSAGE}
 * scores that message alone, which catches pairwise noise the ledger counts but a node leaves out.
 */
public final class EavesdropperAudit implements RoundObserver {
    private final CanaryClients canaries;
    private final CanaryClientScores scores;
    private final int[] everyCanary;
    private final int[] coordinates;
    private final INDArray weights;
    private final double kappa;
    private final double mu;
    private long rounds;

    /** The likelihood-ratio audit: the most powerful one for the noise the run claims. */
    public EavesdropperAudit(DecentralizedTrainer run, CanaryNode planted) {
        this(run, planted, EavesdropperStatistic.LIKELIHOOD_RATIO);
    }

    /**
     * @param run       the audited run, built with {@code planted} and not yet started
     * @param planted   its canaries
     * @param statistic what each canary's score is built from, chosen before the run
     */
    public EavesdropperAudit(DecentralizedTrainer run, CanaryNode planted, EavesdropperStatistic statistic) {
        DecentralizedConfig config = run.config();
        DecentralizedAlgorithm algorithm = config.algorithm();
        if (algorithm != DecentralizedAlgorithm.DECOR && algorithm != DecentralizedAlgorithm.LDP) {
            throw new IllegalArgumentException("the eavesdropper audit reads every node's message, which Decor and LDP noise;"
                    + " this run is " + algorithm.cliName());
        }
        if (config.unit() != ProtectedUnit.USER) {
            throw new IllegalArgumentException("canary nodes audit user-level privacy (one node's whole contribution);"
                    + " this run protects one " + config.unit().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (algorithm == DecentralizedAlgorithm.DECOR && !run.privacy().adversary().name().equals(Adversary.eavesdropper().name())) {
            throw new IllegalArgumentException("the run's ledger is priced against " + run.privacy().adversary().describe()
                    + ", not the eavesdropper this audit plays; calibrate the run against the eavesdropper");
        }
        CanaryClients c = planted.canaries();
        if (run.privacy().relation() != c.relation()) {
            throw new IllegalArgumentException("the run's ledger treats " + run.privacy().relation() + " datasets as"
                    + " neighbours but the canaries were drawn for " + c.relation() + "; draw them for the run's relation");
        }
        int n = run.graph().vertexCount();
        if (planted.node() >= n) {
            throw new IllegalArgumentException("the canaries' node " + planted.node() + " is not one of the run's " + n
                    + " nodes");
        }
        if (run.round() != 0) {
            throw new IllegalArgumentException("the eavesdropper must see every round; attach it to a new run");
        }
        double[][] laplacian = run.graph().laplacianMatrix();
        double sigmaCor = algorithm == DecentralizedAlgorithm.DECOR ? config.sigmaCor() : 0.0;
        int a = planted.node();
        double[] inverseRow = inverseCovarianceRow(laplacian, config.sigmaCdp(), sigmaCor, a);
        double[] w = switch (statistic) {
            case LIKELIHOOD_RATIO -> inverseRow;
            case OWN_MESSAGE -> unit(n, a);
        };
        // x = w^T y / sd(w^T z) is N(s w_a / sd, 1) under the claimed noise: the shift mu of an "in" canary.
        double sd = Math.sqrt(quadraticForm(laplacian, config.sigmaCdp(), sigmaCor, w));
        this.canaries = c;
        this.scores = new CanaryClientScores(c);
        this.everyCanary = IntStream.range(0, c.canaries()).toArray();
        this.coordinates = c.coordinates();
        this.kappa = inverseRow[a];
        this.mu = c.norm() * w[a] / sd;
        this.weights = Nd4j.createFromArray(w).reshape(1, n).divi(sd);
    }

    private static double[] unit(int n, int a) {
        double[] e = new double[n];
        e[a] = 1.0;
        return e;
    }

    /** {@code w^T Sigma w}, the variance of {@code w^T z} under the claimed noise. */
    static double quadraticForm(double[][] laplacian, double sigmaCdp, double sigmaCor, double[] w) {
        double v = 0;
        for (int i = 0; i < w.length; i++) {
            double row = sigmaCdp * sigmaCdp * w[i];
            for (int j = 0; j < w.length; j++) {
                row += sigmaCor * sigmaCor * laplacian[i][j] * w[j];
            }
            v += w[i] * row;
        }
        return v;
    }

    /**
     * Row a of {@code Sigma^-1}, {@code Sigma = sigmaCdp^2 I + sigmaCor^2 L}: the solution of {@code Sigma w = e_a}
     * (Gaussian elimination; Sigma is symmetric positive definite, so no pivoting is needed).
     */
    static double[] inverseCovarianceRow(double[][] laplacian, double sigmaCdp, double sigmaCor, int a) {
        if (!(sigmaCdp > 0)) {
            throw new IllegalArgumentException("the eavesdropper audit needs private noise (sigma_cdp > 0), got " + sigmaCdp);
        }
        int n = laplacian.length;
        double[][] m = new double[n][n + 1];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = sigmaCor * sigmaCor * laplacian[i][j] + (i == j ? sigmaCdp * sigmaCdp : 0.0);
            }
            m[i][n] = i == a ? 1.0 : 0.0;
        }
        for (int k = 0; k < n; k++) {
            for (int i = k + 1; i < n; i++) {
                double f = m[i][k] / m[k][k];
                if (f != 0) {
                    for (int j = k; j <= n; j++) {
                        m[i][j] -= f * m[k][j];
                    }
                }
            }
        }
        double[] w = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = m[i][n];
            for (int j = i + 1; j < n; j++) {
                s -= m[i][j] * w[j];
            }
            w[i] = s / m[i][i];
        }
        return w;
    }

    @Override
    public void onRound(RoundTap tap) {
        // The released gradients on the canaries' coordinates, [n, m]: ((1 - eta lambda) x^t - x^{t+1/2}) / eta.
        INDArray before = tap.before().getColumns(coordinates).castTo(DataType.DOUBLE);
        INDArray half = tap.halfStep().getColumns(coordinates).castTo(DataType.DOUBLE);
        INDArray released = before.muli(1.0 - tap.eta() * tap.weightDecay()).subi(half).divi(tap.eta());
        INDArray x = weights.mmul(released).reshape(coordinates.length, 1);
        scores.add(everyCanary, x, mu, 1.0);
        rounds++;
    }

    /** Each canary's score so far. */
    public double[] scores() {
        return scores.scores();
    }

    /** kappa_a = (Sigma^-1)_aa at the canaries' node: each round's shift of a canary is S sqrt(kappa_a) noise stds. */
    public double kappa() {
        return kappa;
    }

    /** An "in" canary's shift in each round's statistic, in noise stds of the claimed noise. */
    public double mu() {
        return mu;
    }

    /** The rounds observed. */
    public long rounds() {
        return rounds;
    }
}
