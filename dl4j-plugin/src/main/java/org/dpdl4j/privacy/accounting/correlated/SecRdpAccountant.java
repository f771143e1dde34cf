package org.dpdl4j.privacy.accounting.correlated;

import org.dpdl4j.linalg.SpdSystems;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.SymmetricEigendecomposition;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SecRDP accountant of pairwise-correlated Gaussian noise on a graph (Decor Algorithms 2 and 3;
 * GOPA uses the same mechanism): computes {@code kappa} of {@link KappaResult} for a noise pair and
 * an {@link Adversary}.
 *
 * <ul>
 *   <li><b>Eavesdropper</b> (exact): with the Laplacian {@code L = Q diag(lambda) Q^T} factored once,
 *       {@code (Sigma^-1)_ii = sum_k Q_ik^2 / (sigmaCdp^2 + sigmaCor^2 lambda_k)}: O(n^2) per noise pair,
 *       which keeps calibration cheap.</li>
 *   <li><b>Curious users and q colluders</b> (exact): the full inverse {@code M = Sigma^-1} is formed once
 *       per noise pair (one n x n x n product). Deleting a set S removes the r edges touching S, a rank-r
 *       downdate {@code Sigma' = Sigma - sigmaCor^2 U U^T} (U: their incidence columns) after which S is
 *       isolated, so {@code (Sigma_H^-1)_ii = (Sigma'^-1)_ii} for i in H. Woodbury gives
 *       {@code (Sigma'^-1)_ii = M_ii + p_i^T K^-1 p_i} with {@code P = M U} and the r x r SPD matrix
 *       {@code K = sigmaCor^-2 I - U^T M U}: O(n r^2) per set instead of a new factorisation. (This is
 *       the Schur-complement deletion and the Woodbury update of the neighbours' degrees in one step.)
 *       If K is not numerically positive definite the set is factored directly. The null-space part of M
 *       is handled exactly (see {@link #finePartOfInverse}); what remains is the conditioning of K, whose
 *       smallest eigenvalue shrinks like {@code sigmaCdp^2 / sigmaCor^2}: the relative error of kappa is about
 *       {@code 1e-16 sigmaCor^2 / sigmaCdp^2} (below 1e-8 up to {@code sigmaCor / sigmaCdp = 1e4}; calibrated
 *       pairs stay near {@code sigmaCor / sigmaCdp <= 10 sqrt(n)}), which is also the accuracy of a direct
 *       Cholesky factorisation of {@code Sigma_H}, whose condition number is of the same order. A warning is
 *       logged beyond {@link #ACCURATE_CORRELATION_RATIO}.</li>
 *   <li><b>Many colluders</b>: when {@code C(n, q) > }{@link #EXACT_SUBSET_LIMIT} the accountant returns the
 *       documented upper bound of {@link TheoremOneBound#collusionBound} and says so.</li>
 * </ul>
 * Instances are immutable and thread-safe.
 */
public final class SecRdpAccountant {
    /** Largest number of colluding sets {@code C(n, q)} enumerated exactly; above it, the upper bound is used. */
    public static final long EXACT_SUBSET_LIMIT = 20_000;

    /** Ratio {@code sigmaCor / sigmaCdp} above which the deletion screening may lose more than about 1e-6 relative accuracy. */
    public static final double ACCURATE_CORRELATION_RATIO = 1e5;

    private static final Logger LOG = LoggerFactory.getLogger(SecRdpAccountant.class);

    private final Graph graph;
    private final int n;
    private final double[] lambda;
    /** Row-major {@code Q_ik^2}. */
    private final double[] qSquared;
    private final INDArray q;
    private final int[] edgeI;
    private final int[] edgeJ;
    private final int[][] incidentEdges;
    private final ConcurrentMap<Integer, Integer> smallestHonestComponent = new ConcurrentHashMap<>();

    /** Factors the graph's Laplacian (about a second for n = 1000). */
    public SecRdpAccountant(Graph graph) {
        this.graph = graph;
        this.n = graph.vertexCount();
        long t0 = System.nanoTime();
        SymmetricEigendecomposition spectrum = graph.laplacianSpectrum();
        this.lambda = spectrum.eigenvalues();
        double[] qRowMajor = spectrum.eigenvectorsRowMajor();
        this.q = Nd4j.create(qRowMajor, new long[] {n, n}, DataType.DOUBLE);
        for (int k = 0; k < qRowMajor.length; k++) {
            qRowMajor[k] *= qRowMajor[k];
        }
        this.qSquared = qRowMajor;
        List<Edge> edges = graph.edges();
        edgeI = new int[edges.size()];
        edgeJ = new int[edges.size()];
        for (int e = 0; e < edges.size(); e++) {
            edgeI[e] = edges.get(e).i();
            edgeJ[e] = edges.get(e).j();
        }
        incidentEdges = new int[n][];
        for (int v = 0; v < n; v++) {
            incidentEdges[v] = graph.incidentEdges(v);
        }
        LOG.debug("Laplacian of {} factored in {} ms", graph, (System.nanoTime() - t0) / 1_000_000);
    }

    /** The communication graph. */
    public Graph graph() {
        return graph;
    }

    /** Whether {@link #kappa} is exact for this adversary (otherwise it is the Theorem 1 upper bound). */
    public boolean isExact(Adversary adversary) {
        int qc = requireColluders(adversary);
        return qc == 0 || adversary instanceof Adversary.CuriousUsers || binomial(n, qc) <= EXACT_SUBSET_LIMIT;
    }

    /** kappa for the given noise pair and adversary. */
    public KappaResult kappa(CorrelatedNoise noise, Adversary adversary) {
        int qc = requireColluders(adversary);
        if (noise.sigmaCor() == 0) {
            // No pairwise noise: every honest user is a plain Gaussian mechanism.
            List<Integer> deleted = new ArrayList<>();
            for (int v = 0; v < qc; v++) {
                deleted.add(v);
            }
            return new KappaResult(1.0 / (noise.sigmaCdp() * noise.sigmaCdp()), OptionalInt.of(qc), deleted, KappaExactness.EXACT,
                    adversary, noise);
        }
        if (qc == 0) {
            double[] diag = inverseCovarianceDiagonal(noise);
            int worst = argMax(diag);
            return new KappaResult(diag[worst], OptionalInt.of(worst), List.of(), KappaExactness.EXACT, adversary, noise);
        }
        if (!isExact(adversary)) {
            double bound = TheoremOneBound.collusionBound(n, qc, graph.algebraicConnectivity(), noise);
            return new KappaResult(bound, OptionalInt.empty(), List.of(), KappaExactness.UPPER_BOUND, adversary, noise);
        }
        return worstDeletion(noise, adversary, qc);
    }

    /**
     * The eavesdropper's diagonal {@code ((sigmaCdp^2 I + sigmaCor^2 L)^-1)_ii} for every vertex i.
     * Every term of the spectral sum is positive, so there is no cancellation.
     */
    public double[] inverseCovarianceDiagonal(CorrelatedNoise noise) {
        double[] w = spectralWeights(noise);
        double[] diag = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            int base = i * n;
            for (int k = 0; k < n; k++) {
                s += qSquared[base + k] * w[k];
            }
            diag[i] = s;
        }
        return diag;
    }

    /**
     * The limit of kappa as {@code sigmaCor -> infinity} (an infimum, not attained): then
     * {@code Sigma_H^-1 -> (1/sigmaCdp^2)} times the projection on the component indicators of
     * {@code G[H]}, so the limit is {@code 1/(sigmaCdp^2 c)} with c the smallest honest component the
     * adversary can produce. For the upper-bound regime it is the bound's own limit. A target below
     * this value cannot be met by any {@code sigmaCor}.
     */
    public double kappaInfimum(double sigmaCdp, Adversary adversary) {
        int qc = requireColluders(adversary);
        CorrelatedNoise validated = new CorrelatedNoise(sigmaCdp, 0);
        double s2 = validated.sigmaCdp() * validated.sigmaCdp();
        if (!isExact(adversary)) {
            return graph.algebraicConnectivity() - qc > 0 ? 1.0 / ((n - qc) * s2) : 1.0 / s2;
        }
        int c = smallestHonestComponent.computeIfAbsent(qc, this::computeSmallestHonestComponent);
        return 1.0 / (c * s2);
    }

    // ------------------------------------------------------------------------------------ internals

    private int requireColluders(Adversary adversary) {
        int qc = adversary.colluders();
        if (qc >= n) {
            throw new IllegalArgumentException("adversary '" + adversary.name() + "' controls " + qc + " users but the graph has only "
                    + n + "; at least one honest user must remain");
        }
        return qc;
    }

    private double[] spectralWeights(CorrelatedNoise noise) {
        double s2 = noise.sigmaCdp() * noise.sigmaCdp();
        double c2 = noise.sigmaCor() * noise.sigmaCor();
        double[] w = new double[n];
        for (int k = 0; k < n; k++) {
            w[k] = 1.0 / (s2 + c2 * lambda[k]);
        }
        return w;
    }

    /**
     * The inverse {@code M = Sigma^-1} split as {@code M = N + F}: N, the null-space part
     * {@code sum_C 1_C 1_C^T / (|C| sigmaCdp^2)} over the connected components C, is kept implicit (its
     * diagonal is returned); F, the part on the positive Laplacian eigenvalues, is formed densely. Edge
     * incidence vectors are orthogonal to N, so the Woodbury terms only involve F. Keeping the large,
     * smooth N out of the differences {@code M (e_a - e_b)} is what keeps the deletion update accurate
     * when {@code sigmaCor >> sigmaCdp} (relative error about {@code 1e-16 sigmaCor^2 / sigmaCdp^2} instead of
     * its square).
     */
    private double[] finePartOfInverse(CorrelatedNoise noise) {
        double[] w = spectralWeights(noise);
        int c = componentCount();
        if (c == n) {
            return new double[n * n];
        }
        INDArray qPlus = q.get(NDArrayIndex.all(), NDArrayIndex.interval(c, n));
        INDArray wPlus = Nd4j.createFromArray(Arrays.copyOfRange(w, c, n));
        INDArray f = qPlus.mulRowVector(wPlus).mmul(qPlus.transpose());
        return f.dup('c').data().asDouble();
    }

    /** Diagonal of the null-space part N: {@code 1/(|C(i)| sigmaCdp^2)}. */
    private double[] nullPartDiagonal(CorrelatedNoise noise) {
        double s2 = noise.sigmaCdp() * noise.sigmaCdp();
        double[] d = new double[n];
        for (int[] comp : graph.connectedComponents()) {
            for (int v : comp) {
                d[v] = 1.0 / (comp.length * s2);
            }
        }
        return d;
    }

    private int componentCount() {
        return graph.connectedComponents().size();
    }

    private KappaResult worstDeletion(CorrelatedNoise noise, Adversary adversary, int qc) {
        long t0 = System.nanoTime();
        if (noise.sigmaCor() > ACCURATE_CORRELATION_RATIO * noise.sigmaCdp()) {
            LOG.warn("sigma_cor / sigma_cdp = {} exceeds {}: the {} kappa carries a relative rounding error of about {}",
                    noise.sigmaCor() / noise.sigmaCdp(), ACCURATE_CORRELATION_RATIO, adversary.name(),
                    1e-16 * Math.pow(noise.sigmaCor() / noise.sigmaCdp(), 2));
        }
        double[] m = finePartOfInverse(noise);
        double[] nullDiag = nullPartDiagonal(noise);
        double invCor2 = 1.0 / (noise.sigmaCor() * noise.sigmaCor());
        DeletionScratch scratch = new DeletionScratch(n);
        double best = -1;
        int bestVertex = -1;
        int[] bestSet = null;
        int[] subset = new int[qc];
        for (int k = 0; k < qc; k++) {
            subset[k] = k;
        }
        long sets = 0;
        do {
            sets++;
            evaluateDeletion(subset, m, nullDiag, invCor2, noise, scratch);
            if (scratch.kappa > best) {
                best = scratch.kappa;
                bestVertex = scratch.worstVertex;
                bestSet = subset.clone();
            }
        } while (nextSubset(subset, n));
        LOG.debug("{}: {} honest sets screened in {} ms, kappa = {}", adversary.name(), sets, (System.nanoTime() - t0) / 1_000_000, best);
        List<Integer> deleted = Arrays.stream(bestSet).boxed().toList();
        return new KappaResult(best, OptionalInt.of(bestVertex), deleted, KappaExactness.EXACT, adversary, noise);
    }

    /** Reusable buffers for one deletion evaluation and its result. */
    private static final class DeletionScratch {
        final boolean[] deleted;
        double kappa;
        int worstVertex;

        DeletionScratch(int n) {
            deleted = new boolean[n];
        }
    }

    private void evaluateDeletion(int[] subset, double[] m, double[] nullDiag, double invCor2, CorrelatedNoise noise, DeletionScratch scratch) {
        boolean[] deleted = scratch.deleted;
        for (int v : subset) {
            deleted[v] = true;
        }
        // Edges touching the deleted set, each once.
        int[] edges = new int[0];
        int r = 0;
        for (int v : subset) {
            for (int e : incidentEdges[v]) {
                int other = edgeI[e] == v ? edgeJ[e] : edgeI[e];
                if (deleted[other] && other < v) {
                    continue; // already taken from the other endpoint
                }
                if (r == edges.length) {
                    edges = Arrays.copyOf(edges, Math.max(4, 2 * r));
                }
                edges[r++] = e;
            }
        }
        double[] diag = new double[n];
        for (int i = 0; i < n; i++) {
            diag[i] = m[i * n + i];
        }
        if (r > 0 && !woodburyDiagonal(edges, r, m, invCor2, diag)) {
            LOG.debug("Woodbury downdate not positive definite for deleted set {}; factoring it directly", Arrays.toString(subset));
            directDiagonal(deleted, noise, diag);
        } else {
            for (int i = 0; i < n; i++) {
                diag[i] += nullDiag[i];
            }
        }
        double best = -1;
        int arg = -1;
        for (int i = 0; i < n; i++) {
            if (!deleted[i] && diag[i] > best) {
                best = diag[i];
                arg = i;
            }
        }
        for (int v : subset) {
            deleted[v] = false;
        }
        scratch.kappa = best;
        scratch.worstVertex = arg;
    }

    /**
     * Adds {@code p_i^T K^-1 p_i} to diag, with P and K formed from the fine part F of the inverse
     * ({@code U^T N = 0}); false if K is not numerically positive definite.
     */
    private boolean woodburyDiagonal(int[] edges, int r, double[] m, double invCor2, double[] diag) {
        // Rows of P^T: p_e = M (e_a - e_b) = row a of M minus row b (M is symmetric).
        double[][] pt = new double[r][n];
        for (int e = 0; e < r; e++) {
            int a = edgeI[edges[e]] * n;
            int b = edgeJ[edges[e]] * n;
            double[] row = pt[e];
            for (int i = 0; i < n; i++) {
                row[i] = m[a + i] - m[b + i];
            }
        }
        double[][] k = new double[r][r];
        for (int e = 0; e < r; e++) {
            int a = edgeI[edges[e]];
            int b = edgeJ[edges[e]];
            for (int f = 0; f <= e; f++) {
                double uMu = pt[f][a] - pt[f][b];
                int fa = edgeI[edges[f]];
                int fb = edgeJ[edges[f]];
                double sym = 0.5 * (uMu + (pt[e][fa] - pt[e][fb]));
                k[e][f] = (e == f ? invCor2 : 0.0) - sym;
                k[f][e] = k[e][f];
            }
        }
        if (!SpdSystems.choleskyInPlace(k)) {
            return false;
        }
        // Z = L^-1 P^T row by row (forward substitution vectorised over the n vertices).
        for (int e = 0; e < r; e++) {
            double[] ze = pt[e];
            double[] le = k[e];
            for (int f = 0; f < e; f++) {
                double c = le[f];
                double[] zf = pt[f];
                for (int i = 0; i < n; i++) {
                    ze[i] -= c * zf[i];
                }
            }
            double inv = 1.0 / le[e];
            for (int i = 0; i < n; i++) {
                ze[i] *= inv;
                diag[i] += ze[i] * ze[i];
            }
        }
        return true;
    }

    /** Factors {@code sigmaCdp^2 I + sigmaCor^2 L_{G[H]}} directly and writes its inverse diagonal into diag. */
    private void directDiagonal(boolean[] deleted, CorrelatedNoise noise, double[] diag) {
        int[] honest = new int[n];
        int[] local = new int[n];
        int h = 0;
        for (int v = 0; v < n; v++) {
            local[v] = deleted[v] ? -1 : h;
            if (!deleted[v]) {
                honest[h++] = v;
            }
        }
        double s2 = noise.sigmaCdp() * noise.sigmaCdp();
        double c2 = noise.sigmaCor() * noise.sigmaCor();
        double[][] sigma = new double[h][h];
        for (int t = 0; t < h; t++) {
            sigma[t][t] = s2;
        }
        for (int e = 0; e < edgeI.length; e++) {
            int a = local[edgeI[e]];
            int b = local[edgeJ[e]];
            if (a >= 0 && b >= 0) {
                sigma[a][a] += c2;
                sigma[b][b] += c2;
                sigma[a][b] -= c2;
                sigma[b][a] -= c2;
            }
        }
        double[] d = SpdInverseDiagonal.diagonalOfInverse(sigma);
        for (int t = 0; t < h; t++) {
            diag[honest[t]] = d[t];
        }
    }

    private int computeSmallestHonestComponent(int qc) {
        if (qc == 0) {
            return graph.connectedComponents().stream().mapToInt(c -> c.length).min().orElseThrow();
        }
        int[] subset = new int[qc];
        for (int k = 0; k < qc; k++) {
            subset[k] = k;
        }
        int smallest = n;
        boolean[] removed = new boolean[n];
        int[] queue = new int[n];
        boolean[] seen = new boolean[n];
        do {
            for (int v : subset) {
                removed[v] = true;
            }
            Arrays.fill(seen, false);
            for (int s = 0; s < n; s++) {
                if (removed[s] || seen[s]) {
                    continue;
                }
                int head = 0;
                int tail = 0;
                queue[tail++] = s;
                seen[s] = true;
                while (head < tail) {
                    int v = queue[head++];
                    for (int e : incidentEdges[v]) {
                        int u = edgeI[e] == v ? edgeJ[e] : edgeI[e];
                        if (!removed[u] && !seen[u]) {
                            seen[u] = true;
                            queue[tail++] = u;
                        }
                    }
                }
                smallest = Math.min(smallest, tail);
            }
            for (int v : subset) {
                removed[v] = false;
            }
        } while (nextSubset(subset, n));
        return smallest;
    }

    /** Advances a sorted k-subset of {0..n-1} to the next in lexicographic order; false after the last. */
    static boolean nextSubset(int[] subset, int n) {
        int k = subset.length;
        int i = k - 1;
        while (i >= 0 && subset[i] == n - k + i) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        subset[i]++;
        for (int j = i + 1; j < k; j++) {
            subset[j] = subset[j - 1] + 1;
        }
        return true;
    }

    /** {@code C(n, k)}, saturating at {@link Long#MAX_VALUE}. */
    public static long binomial(int n, int k) {
        if (k < 0 || k > n) {
            return 0;
        }
        k = Math.min(k, n - k);
        long c = 1;
        for (int i = 1; i <= k; i++) {
            // c * (n - k + i) / i is exact at every step; stop once it cannot fit.
            if (c > Long.MAX_VALUE / (n - k + i)) {
                return Long.MAX_VALUE;
            }
            c = c * (n - k + i) / i;
        }
        return c;
    }

    private static int argMax(double[] values) {
        int arg = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[arg]) {
                arg = i;
            }
        }
        return arg;
    }
}
