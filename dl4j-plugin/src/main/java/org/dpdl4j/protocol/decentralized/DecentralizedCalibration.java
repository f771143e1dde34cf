package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.accounting.Calibration;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.correlated.Adversary;
import org.dpdl4j.privacy.accounting.correlated.CalibratedPair;
import org.dpdl4j.privacy.accounting.correlated.CalibrationResult;
import org.dpdl4j.privacy.accounting.correlated.CalibrationTarget;
import org.dpdl4j.privacy.accounting.correlated.NoisePairCalibrator;
import org.dpdl4j.privacy.accounting.correlated.SecRdpAccountant;

import java.util.List;

/**
 * Noise levels for a decentralized run from a target (epsilon, delta), for every algorithm, protected
 * unit and sampling scheme, always stopping at or below the target.
 *
 * <p>Every round is a Gaussian mechanism whose strength is summarised by {@code kappa} (the largest
 * diagonal entry of the inverse noise covariance the adversary faces), so calibration has two steps:
 * find the largest per-round kappa the budget allows - in closed form for user-level privacy (the exact Gaussian
 * curve with the default accounting, linear RDP with Renyi DP alone), by bisection on the subsampled Gaussian for example-level privacy - then the noise that gives
 * it: {@code 1/sqrt(kappa)} for LDP, {@code 1/sqrt(n kappa)} for CDP, a (sigma_cdp, sigma_cor) pair from the
 * SecRDP calibrator (spec 3.5.3) for Decor.
 */
public final class DecentralizedCalibration {
    private DecentralizedCalibration() {
    }

    /**
     * Calibrated noise.
     *
     * @param feasible every feasible Decor pair of the calibration grid, by increasing sigma_cdp (empty for LDP/CDP)
     */
    public record Result(double sigmaCdp, double sigmaCor, double kappaBudget, List<CalibratedPair> feasible) {
    }

    /**
     * @param minLocalSize the smallest local dataset (example level: the largest sampling rate)
     */
    public static Result calibrate(DecentralizedAlgorithm algorithm, ProtectedUnit unit, SamplingScheme sampling, double clip,
                                   int batchSize, long minLocalSize, long rounds, double epsilon, double delta, Graph graph,
                                   Adversary adversary, NoisePairChoice choice) {
        return calibrate(algorithm, unit, sampling, clip, batchSize, minLocalSize, rounds, epsilon, delta, graph, adversary, choice,
                AccountantFactory.standard());
    }

    /** {@link #calibrate} with the given accountant for subsampled rounds. */
    public static Result calibrate(DecentralizedAlgorithm algorithm, ProtectedUnit unit, SamplingScheme sampling, double clip,
                                   int batchSize, long minLocalSize, long rounds, double epsilon, double delta, Graph graph,
                                   Adversary adversary, NoisePairChoice choice, AccountantFactory accountants) {
        if (!algorithm.isPrivate()) {
            throw new IllegalArgumentException("D-SGD adds no noise; nothing to calibrate");
        }
        double kappa = kappaBudget(unit, sampling, clip, batchSize, minLocalSize, rounds, epsilon, delta, accountants);
        return forKappa(algorithm, kappa, delta, graph, adversary, choice);
    }

    /**
     * The noise that gives a per-round kappa of at most {@code kappa} (from any budget rule, e.g.
     * {@link #kappaBudget} or the reference code's, {@link ReferenceCodeEpsilon#kappaFor}).
     */
    public static Result forKappa(DecentralizedAlgorithm algorithm, double kappa, double delta, Graph graph, Adversary adversary,
                                  NoisePairChoice choice) {
        int n = graph.vertexCount();
        return switch (algorithm) {
            case LDP -> new Result(1.0 / Math.sqrt(kappa), 0.0, kappa, List.of());
            case CDP -> new Result(1.0 / Math.sqrt(n * kappa), 0.0, kappa, List.of());
            case DECOR -> decor(kappa, delta, graph, adversary, choice);
            default -> throw new IllegalStateException(algorithm.toString());
        };
    }

    /** The largest per-round kappa for which the whole run stays within (epsilon, delta). */
    public static double kappaBudget(ProtectedUnit unit, SamplingScheme sampling, double clip, int batchSize, long minLocalSize,
                              long rounds, double epsilon, double delta) {
        return kappaBudget(unit, sampling, clip, batchSize, minLocalSize, rounds, epsilon, delta, AccountantFactory.standard());
    }

    /**
     * The largest per-round kappa for which the whole run stays within (epsilon, delta), with the given accountant
     * for subsampled rounds (user-level rounds are linear RDP, calibrated in closed form).
     */
    public static double kappaBudget(ProtectedUnit unit, SamplingScheme sampling, double clip, int batchSize, long minLocalSize,
                                     long rounds, double epsilon, double delta, AccountantFactory accountants) {
        if (unit == ProtectedUnit.USER || sampling == SamplingScheme.FULL_BATCH) {
            // Linear RDP: each round is rho = Delta^2 kappa / 2 with Delta = 2C (user) or 2C/m (mean over all m examples).
            double sensitivity = unit == ProtectedUnit.USER ? 2 * clip : 2 * clip / minLocalSize;
            if (new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE).pricesGaussiansExactly()) {
                // The rounds are Gaussian releases (Decor's correlated noise included, against every adversary): T rounds
                // of mu^2 = Delta^2 kappa compose to one of mu^2 = T Delta^2 kappa, and the exact curve allows the largest
                // mu with epsilon(mu, delta) <= epsilon (GaussianPrivacyCurve.mu, on its safe side).
                double mu = GaussianPrivacyCurve.mu(epsilon, delta);
                return (1 - 1e-12) * mu * mu / (rounds * sensitivity * sensitivity);
            }
            double rhoPerRound = ZCdp.rho(epsilon, delta) / rounds;
            // A relative 1e-12 of slack keeps the achieved epsilon at or below the target despite rounding.
            return (1 - 1e-12) * 2 * rhoPerRound / (sensitivity * sensitivity);
        }
        // Example level with subsampling: the round is a Gaussian with noise multiplier z = b / (C sqrt(kappa)) on the
        // per-example contribution C/b; find the smallest z meeting the budget, then kappa = (b / (C z))^2.
        double q = Math.min(1.0, (double) batchSize / minLocalSize);
        NeighbouringRelation relation = sampling == SamplingScheme.POISSON ? NeighbouringRelation.ADD_OR_REMOVE_ONE
                : NeighbouringRelation.REPLACE_ONE;
        Calibration c = new LedgerAccounting(accountants, relation).calibrate(z -> round(sampling, q, minLocalSize, batchSize, z),
                rounds, delta, epsilon);
        double z = c.noise();
        return Math.pow(batchSize / (clip * z), 2);
    }

    private static DpEvent round(SamplingScheme sampling, double q, long m, int b, double z) {
        GaussianEvent g = new GaussianEvent(z);
        return sampling == SamplingScheme.POISSON ? new PoissonSampledEvent(q, g)
                : new SampledWithoutReplacementEvent(m, Math.min(b, m), g);
    }

    /**
     * The largest pairwise noise allowed, in units of the LDP noise level: pairwise terms must cancel
     * when averaged, and in float arithmetic a term of size s leaves about 1e-7 s behind, so a huge
     * sigma_cor (which the accountant alone would allow on very well-connected graphs) turns into real
     * noise. The Decor reference code searches sigma_cor up to the same 10 sigma_ldp.
     */
    public static final double MAX_SIGMA_COR_OVER_SIGMA_LDP = 10.0;

    /**
     * Decor pairs whose kappa is at most the budget: the SecRDP calibrator run on the equivalent linear-RDP
     * target (one step of sensitivity 1 with rho = kappa / 2), which yields exactly kappa <= budget; pairs with
     * sigma_cor above {@link #MAX_SIGMA_COR_OVER_SIGMA_LDP} sigma_ldp are left out.
     */
    private static Result decor(double kappa, double delta, Graph graph, Adversary adversary, NoisePairChoice choice) {
        double equivalentEpsilon = ZCdp.epsilon(kappa / 2, delta);
        CalibrationResult result = new NoisePairCalibrator(new SecRdpAccountant(graph)).calibrate(
                new CalibrationTarget(equivalentEpsilon, delta, 1, 1.0, adversary, CalibrationTarget.DEFAULT_GRID_SIZE));
        double maxSigmaCor = MAX_SIGMA_COR_OVER_SIGMA_LDP / Math.sqrt(kappa);
        List<CalibratedPair> feasible = result.feasible().stream().filter(p -> p.sigmaCor() <= maxSigmaCor).toList();
        List<CalibratedPair> candidates = feasible.size() <= 3 ? feasible
                : List.of(feasible.get(0), feasible.get((feasible.size() - 1) / 2), feasible.get(feasible.size() - 1));
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("no (sigma_cdp, sigma_cor) pair meets the target against " + adversary.describe()
                    + " on this graph; use a larger epsilon, a better-connected graph, or the LDP baseline");
        }
        CalibratedPair pair = switch (choice) {
            case SMALLEST_SIGMA_CDP -> candidates.get(0);
            case MIDDLE -> candidates.get(candidates.size() / 2);
            case LARGEST_SIGMA_CDP -> candidates.get(candidates.size() - 1);
        };
        return new Result(pair.sigmaCdp(), pair.sigmaCor(), kappa, feasible);
    }
}
