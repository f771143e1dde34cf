package org.dpdl4j.privacy.accounting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The smallest of the additive accountants' bounds: {@link RdpAccountant} (every event it can analyse), the
 * {@link ZCdpAccountant}'s exact conversion of linear ledgers, and the {@link ExactGaussianAccountant} for ledgers of
 * unsampled Gaussian releases. Each is a valid upper bound for every ledger it accepts, so their minimum is one; a
 * candidate that refuses some event of the ledger takes no part in it. As an {@link AdditiveAccountant} a run's ledger
 * is priced in time proportional to the cost vector after every step.
 *
 * <p>Cost vector: every candidate's cost followed by a marker, 0 when the candidate accepts the event and 1 (its cost
 * left at 0) when it refuses it; a summed ledger's marker counts its refused events, and only candidates with a zero
 * marker are asked for a bound. Ties go to the candidate listed first ({@link #candidates()}).
 */
public final class TightestAdditiveAccountant implements AdditiveAccountant {
    private final NeighbouringRelation relation;
    private final List<AdditiveAccountant> candidates;
    private final int[] starts;
    private final double[] total;
    private final List<DpEvent> ledger;

    public TightestAdditiveAccountant(NeighbouringRelation relation) {
        this(relation, true);
    }

    /**
     * @param relation      the neighbouring relation of every guarantee
     * @param exactGaussian whether the exact Gaussian curve takes part; without it this is Renyi DP alone (the order grid
     *                      and, for linear ledgers, the exact optimum of the conversion): the pricing of runs made before
     *                      the exact Gaussian and PLD accountants existed ({@link AccountantFactory#renyi()})
     */
    public TightestAdditiveAccountant(NeighbouringRelation relation, boolean exactGaussian) {
        this.relation = Objects.requireNonNull(relation, "neighbouring relation must not be null");
        this.candidates = exactGaussian
                ? List.of(new RdpAccountant(relation), new ZCdpAccountant(relation), new ExactGaussianAccountant(relation))
                : List.of(new RdpAccountant(relation), new ZCdpAccountant(relation));
        this.starts = new int[candidates.size() + 1];
        for (int i = 0; i < candidates.size(); i++) {
            starts[i + 1] = starts[i] + candidates.get(i).cost(new NoOpEvent()).length + 1;
        }
        this.total = new double[starts[candidates.size()]];
        this.ledger = new ArrayList<>();
    }

    private TightestAdditiveAccountant(TightestAdditiveAccountant other) {
        this.relation = other.relation;
        this.candidates = other.candidates;
        this.starts = other.starts;
        this.total = other.total.clone();
        this.ledger = new ArrayList<>(other.ledger);
    }

    /** The candidates, in the order ties are broken (empty ledgers: they share no state with this accountant). */
    public List<AdditiveAccountant> candidates() {
        return candidates;
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    @Override
    public boolean supports(DpEvent event) {
        return candidates.stream().anyMatch(c -> c.supports(event));
    }

    @Override
    public TightestAdditiveAccountant compose(DpEvent event) {
        double[] cost = cost(event);
        for (int i = 0; i < total.length; i++) {
            if (cost[i] != 0.0) { // 0 * inf would be NaN
                total[i] += cost[i];
            }
        }
        ledger.add(event);
        return this;
    }

    @Override
    public TightestAdditiveAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    /**
     * @throws UnsupportedEventException if no candidate accepts the event (naming the most general one's reason)
     */
    @Override
    public double[] cost(DpEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        double[] out = new double[total.length];
        boolean accepted = false;
        for (int i = 0; i < candidates.size(); i++) {
            AdditiveAccountant c = candidates.get(i);
            if (c.supports(event)) {
                double[] part = c.cost(event);
                System.arraycopy(part, 0, out, starts[i], part.length);
                accepted = true;
            } else {
                out[starts[i + 1] - 1] = 1.0;
            }
        }
        if (!accepted) {
            candidates.get(0).cost(event); // throws, with the most general candidate's reason
            throw new IllegalStateException("no candidate accepts " + event);
        }
        return out;
    }

    /** The smallest bound of the candidates that accept every event of the summed ledger. */
    @Override
    public EpsilonBound epsilonBound(double[] totalCost, double delta, Conversion conversion) {
        EpsilonBound best = null;
        for (EpsilonBound b : bounds(totalCost, delta, conversion).values()) {
            if (best == null || b.epsilon() < best.epsilon()) {
                best = b;
            }
        }
        return best;
    }

    /** Every accepting candidate's bound for a summed ledger, by name, in candidate order. */
    public Map<String, EpsilonBound> bounds(double[] totalCost, double delta, Conversion conversion) {
        if (totalCost.length != total.length) {
            throw new IllegalArgumentException("a cost vector of this accountant has " + total.length + " values, got "
                    + totalCost.length);
        }
        Map<String, EpsilonBound> out = new LinkedHashMap<>();
        for (int i = 0; i < candidates.size(); i++) {
            if (totalCost[starts[i + 1] - 1] == 0.0) {
                EpsilonBound b = candidates.get(i).epsilonBound(Arrays.copyOfRange(totalCost, starts[i], starts[i + 1] - 1), delta,
                        conversion);
                out.put(b.accountant(), b);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("every candidate refused an event of this ledger; it cannot have been composed");
        }
        return out;
    }

    /** Every accepting candidate's bound for this accountant's ledger. */
    public Map<String, EpsilonBound> bounds(double delta, Conversion conversion) {
        return bounds(total, delta, conversion);
    }

    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        return epsilonBound(total, delta, conversion);
    }

    /** The smallest delta any accepting candidate gives at epsilon, from a fresh composition of the ledger. */
    @Override
    public double delta(double epsilon, Conversion conversion) {
        double best = 1.0;
        for (int i = 0; i < candidates.size(); i++) {
            if (total[starts[i + 1] - 1] == 0.0) {
                PrivacyAccountant c = candidates.get(i).copy();
                ledger.forEach(c::compose);
                best = Math.min(best, c.delta(epsilon, conversion));
            }
        }
        return best;
    }

    @Override
    public List<DpEvent> ledger() {
        return List.copyOf(ledger);
    }

    /** {@value AccountantFactory#RDP} without the exact Gaussian curve, else {@value AccountantFactory#ADDITIVE}. */
    @Override
    public String pricing() {
        return candidates.size() == 2 ? AccountantFactory.RDP : AccountantFactory.ADDITIVE;
    }

    @Override
    public TightestAdditiveAccountant copy() {
        return new TightestAdditiveAccountant(this);
    }

    @Override
    public String toString() {
        return "TightestAdditiveAccountant(" + pricing() + ", " + relation + ", " + ledger.size() + " ledger entries)";
    }
}
