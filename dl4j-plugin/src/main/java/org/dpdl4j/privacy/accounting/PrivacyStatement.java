package org.dpdl4j.privacy.accounting;

import org.dpdl4j.privacy.ledger.EpsilonFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A human-readable account of what a training run guarantees: the mechanism, the neighbouring relation
 * and protected unit, the sampling scheme, the noise, the length of the run, epsilon at the given delta (the tightest
 * valid bound, with every accountant's bound beside it, and for Renyi DP both conversions with their optimal
 * orders), and the assumptions under which the numbers hold.
 *
 * <p>A run resumed under changed settings is made of several settings segments, each with its own sampling and noise:
 * its statement describes every segment with its own steps, never one segment's settings as if they covered them all.
 *
 * @param description what was run (the last segment, for a run of several)
 * @param relation the accountant's neighbouring relation
 * @param standard the guarantee (the tightest bound, Renyi DP through {@link Conversion#STANDARD}), every segment composed
 * @param improved the same with Renyi DP through {@link Conversion#IMPROVED}
 * @param segments every settings segment in order, each with its own steps, when there are several; else empty
 * @param standardBounds every applicable accountant's bound by name (standard conversion); the guarantee is the smallest
 * @param improvedBounds the same with the improved conversion
 */
public record PrivacyStatement(MechanismDescription description, NeighbouringRelation relation,
                               EpsilonBound standard, EpsilonBound improved, List<MechanismDescription> segments,
                               Map<String, EpsilonBound> standardBounds, Map<String, EpsilonBound> improvedBounds) {

    public PrivacyStatement {
        Objects.requireNonNull(description, "description must not be null");
        Objects.requireNonNull(relation, "relation must not be null");
        Objects.requireNonNull(standard, "standard bound must not be null");
        Objects.requireNonNull(improved, "improved bound must not be null");
        segments = segments.size() > 1 ? List.copyOf(segments) : List.of();
        standardBounds = ordered(standardBounds.isEmpty() ? Map.of(standard.accountant(), standard) : standardBounds);
        improvedBounds = ordered(improvedBounds.isEmpty() ? Map.of(improved.accountant(), improved) : improvedBounds);
    }

    private static Map<String, EpsilonBound> ordered(Map<String, EpsilonBound> bounds) {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(bounds));
    }

    /** The statement of a run of one settings segment, priced by one accountant. */
    public PrivacyStatement(MechanismDescription description, NeighbouringRelation relation, EpsilonBound standard,
                            EpsilonBound improved) {
        this(description, relation, standard, improved, List.of(), Map.of(), Map.of());
    }

    /**
     * Builds the statement from an accountant holding the run's ledger.
     *
     * @throws IllegalArgumentException if the sampling scheme is not analysable under the accountant's relation
     */
    public static PrivacyStatement of(PrivacyAccountant accountant, MechanismDescription description, double delta) {
        Objects.requireNonNull(accountant, "accountant must not be null");
        Objects.requireNonNull(description, "description must not be null");
        NeighbouringRelation relation = accountant.relation();
        if (description.samplingScheme() == SamplingScheme.POISSON && relation != NeighbouringRelation.ADD_OR_REMOVE_ONE) {
            throw new IllegalArgumentException("a POISSON sampling scheme is analysed under ADD_OR_REMOVE_ONE, but the"
                    + " accountant uses " + relation);
        }
        if (description.samplingScheme() == SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT
                && relation != NeighbouringRelation.REPLACE_ONE) {
            throw new IllegalArgumentException("a FIXED_SIZE_WITHOUT_REPLACEMENT sampling scheme is analysed under"
                    + " REPLACE_ONE, but the accountant uses " + relation);
        }
        Map<String, EpsilonBound> standard = accountant instanceof TightestAccountant t ? t.bounds(delta, Conversion.STANDARD) : Map.of();
        Map<String, EpsilonBound> improved = accountant instanceof TightestAccountant t ? t.bounds(delta, Conversion.IMPROVED) : Map.of();
        return new PrivacyStatement(description, relation, accountant.epsilonBound(delta, Conversion.STANDARD),
                accountant.epsilonBound(delta, Conversion.IMPROVED), List.of(), standard, improved);
    }

    /** The statement of DP-SGD with Poisson sampling at example level (see {@link DpSgd}). */
    public static PrivacyStatement forDpSgd(double samplingRate, double noiseMultiplier, long steps, double delta) {
        DpSgd.requireArguments(samplingRate, steps, delta);
        MechanismDescription description = new MechanismDescription("DP-SGD (Poisson-subsampled Gaussian mechanism)",
                ProtectedUnit.EXAMPLE, SamplingScheme.POISSON, samplingRate, noiseMultiplier, steps);
        return of(DpSgd.accountant(samplingRate, noiseMultiplier, steps), description, delta);
    }

    /** The delta both bounds hold for. */
    public double delta() {
        return standard.delta();
    }

    /** The multi-line statement. */
    public String text() {
        MechanismDescription d = description;
        String unit = d.protectedUnit().description();
        String level = d.protectedUnit() == ProtectedUnit.EXAMPLE ? "example-level" : "user-level";
        String change = relation == NeighbouringRelation.ADD_OR_REMOVE_ONE
                ? "adding or removing " + unit : "replacing " + unit + " by arbitrary other data";
        StringBuilder s = new StringBuilder();
        s.append("Privacy statement: ").append(d.mechanism()).append('\n');
        s.append("  Protected: ").append(unit).append(" (").append(level).append(" privacy); neighbouring datasets")
                .append(" differ by ").append(change).append(" [").append(relation).append("].\n");
        if (segments.isEmpty()) {
            appendSettings(s, d, "  ");
        } else {
            s.append("  Resumed under changed settings: the run is composed of ").append(segments.size())
                    .append(" settings segments, each described with its own steps; epsilon composes them all.\n");
            long first = 1;
            for (int i = 0; i < segments.size(); i++) {
                MechanismDescription seg = segments.get(i);
                s.append("  Segment ").append(i + 1).append(i == 0 ? " (as started)" : " (resumed under changed settings)")
                        .append(", steps ").append(first).append(" to ").append(first + seg.steps() - 1).append(": ")
                        .append(seg.mechanism()).append('\n');
                appendSettings(s, seg, "    ");
                first += seg.steps();
            }
            s.append("  Steps in all: ").append(first - 1).append('\n');
        }
        s.append("  delta = ").append(num(delta())).append('\n');
        appendEpsilons(s);
        s.append("Assumptions and limits:\n");
        (segments.isEmpty() ? List.of(d) : segments).stream().map(MechanismDescription::samplingScheme).distinct()
                .forEach(scheme -> s.append("  - ").append(samplingAssumption(scheme)).append('\n'));
        s.append("  - Each ").append(d.protectedUnit() == ProtectedUnit.EXAMPLE ? "example's" : "user's")
                .append(" contribution to every step is clipped to the norm bound, and fresh noise is drawn each step")
                .append(" from a cryptographically secure source; a seeded or reused noise stream voids the guarantee.\n");
        s.append("  - The guarantee covers every intermediate release of the run (all noisy steps); the final model,")
                .append(" and anything computed only from the releases, is covered by post-processing.\n");
        s.append("  - Not accounted for: hyperparameter tuning or model selection on the same data, repeated runs,")
                .append(" data-dependent preprocessing (e.g. normalisation statistics) and any other release.\n");
        s.append("  - Epsilon is the smallest of the bounds above, each a valid upper bound: Renyi DP (minimised over a finite")
                .append(" set of orders), zCDP, the exact curve of Gaussian mechanisms, and privacy loss distributions (discretised")
                .append(" pessimistically, with the mass of truncated tails and a bound on rounding added to delta). delta should be")
                .append(" well below 1 / (number of protected units).\n");
        return s.toString();
    }

    @Override
    public String toString() {
        return text();
    }

    /** The sampling, noise and steps of one segment (or of the whole run), each line with the given indent. */
    private static void appendSettings(StringBuilder s, MechanismDescription d, String indent) {
        s.append(indent).append("Sampling: ").append(samplingLine(d)).append('\n');
        s.append(indent).append("Noise multiplier: z = ").append(num(d.noiseMultiplier()))
                .append(" (noise std = z x clipping norm, added to the sum of clipped contributions).\n");
        s.append(indent).append("Steps: ").append(d.steps()).append(", i.e. ").append(fmt("%.2f", d.epochs()))
                .append(" epochs (steps x q).\n");
    }

    private static String samplingLine(MechanismDescription d) {
        return switch (d.samplingScheme()) {
            case POISSON -> "Poisson; each unit joins each step's batch independently with probability q = "
                    + num(d.samplingRate()) + ".";
            case FIXED_SIZE_WITHOUT_REPLACEMENT -> "fixed-size batches drawn uniformly without replacement, ratio"
                    + " batch / dataset = " + num(d.samplingRate()) + ".";
            case FULL_BATCH -> "none; every step uses all the data (q = 1).";
        };
    }

    private static String samplingAssumption(SamplingScheme scheme) {
        return switch (scheme) {
            case POISSON -> "Batches are Poisson samples, as assumed by the amplification analysis. If the data is"
                    + " instead shuffled and cut into fixed-size batches, this statement does not hold exactly.";
            case FIXED_SIZE_WITHOUT_REPLACEMENT -> "Every batch is a fresh uniformly random subset of fixed size; one"
                    + " shuffle per epoch followed by a pass over it is a different scheme and is not covered.";
            case FULL_BATCH -> "Every step touches all the data; no amplification by sampling is claimed.";
        };
    }

    /** The guarantee, then every accountant's bound (Renyi DP with both conversions). */
    private void appendEpsilons(StringBuilder s) {
        s.append("  epsilon = ").append(EpsilonFormat.upward(standard.epsilon())).append(" (the tightest valid bound, from the ")
                .append(standard.accountant()).append(" accountant")
                .append(improved.epsilon() < standard.epsilon() ? "; " + EpsilonFormat.upward(improved.epsilon()) + " with the improved Renyi conversion" : "")
                .append(")\n");
        for (Map.Entry<String, EpsilonBound> e : standardBounds.entrySet()) {
            s.append("    ").append(e.getKey()).append(": ").append(accountantLine(e.getValue(), improvedBounds.get(e.getKey())))
                    .append('\n');
        }
    }

    private static String accountantLine(EpsilonBound bound, EpsilonBound improvedBound) {
        return switch (bound.accountant()) {
            case RdpAccountant.NAME -> epsilonLine(bound, "Renyi DP, standard conversion (Mironov 2017)")
                    + (improvedBound == null ? "" : "; " + epsilonLine(improvedBound, "improved conversion (Balle et al. 2020)"));
            case ZCdpAccountant.NAME -> epsilonLine(bound, "zCDP, exact optimum of the standard conversion");
            case ExactGaussianAccountant.NAME -> EpsilonFormat.upward(bound.epsilon()) + " (exact curve of the Gaussian mechanism: the"
                    + " true epsilon of these releases)";
            case PldAccountant.NAME -> EpsilonFormat.upward(bound.epsilon()) + " (privacy loss distributions, pessimistic discretisation)";
            default -> EpsilonFormat.upward(bound.epsilon());
        };
    }

    private static String epsilonLine(EpsilonBound bound, String conversionName) {
        String order;
        if (Double.isNaN(bound.order())) {
            order = bound.epsilon() == 0.0 ? "no privacy loss" : "unbounded loss";
        } else {
            order = "optimal order " + num(bound.order());
        }
        return EpsilonFormat.upward(bound.epsilon()) + " (" + conversionName + ", " + order + ")";
    }

    private static String num(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return Long.toString((long) x);
        }
        return fmt("%.6g", x).replaceAll("\\.?0+(e|$)", "$1"); // 1.10000 -> 1.1, 1.00000e-05 -> 1e-05
    }

    private static String fmt(String format, double x) {
        return String.format(Locale.ROOT, format, x);
    }
}
