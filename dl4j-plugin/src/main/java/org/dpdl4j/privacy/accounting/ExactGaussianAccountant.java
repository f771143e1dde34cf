package org.dpdl4j.privacy.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Exact accounting of Gaussian mechanisms without subsampling: a ledger of them is exactly one Gaussian mechanism with
 * {@code mu^2 = sum mu_i^2} ({@link GaussianPrivacyCurve}), so its epsilon is the true epsilon of the ledger, with no
 * conversion loss: never above what Renyi DP or zCDP give for the same ledger.
 *
 * <p>{@code mu_i} is the sensitivity over the noise standard deviation: {@code 1/z} for a {@link GaussianEvent} under
 * {@link NeighbouringRelation#ADD_OR_REMOVE_ONE}, {@code 2/z} under {@link NeighbouringRelation#REPLACE_ONE}. A
 * {@link CorrelatedGaussianEvent} (Decor, GOPA) is a Gaussian mechanism along its worst direction: whitening the noise
 * covariance Sigma turns a change of user i's contribution by a vector v into a mean shift of squared length
 * {@code |v|^2 (Sigma^-1)_ii <= Delta^2 kappa}, and the privacy loss of two Gaussians with the same covariance is
 * exactly Gaussian with that mu; so {@code mu = Delta sqrt(kappa)} ({@code 2C sqrt(kappa)} for Decor's replace-one
 * Delta = 2C), the same kappa as the SecRDP accountant, whose RDP {@code alpha Delta^2 kappa / 2} is this mechanism's
 * {@code alpha mu^2 / 2}.
 *
 * <p>Supported: Gaussian and correlated Gaussian events, {@link NoOpEvent}, {@link NonPrivateEvent} (infinite mu),
 * self-composition and composition. Refused: every sampled event (amplification makes the loss non-Gaussian: use the
 * PLD or RDP accountant), Laplace releases, zCDP statements (a zCDP bound need not come from a Gaussian), tuning and
 * envelopes. The cost vector of {@link AdditiveAccountant} is {@code [mu^2]}.
 */
public final class ExactGaussianAccountant implements AdditiveAccountant {
    /** The accountant's name in bounds and reports. */
    public static final String NAME = "gaussian";
    private static final String SUPPORTED = "Gaussian and CorrelatedGaussian events without sampling, NoOp and NonPrivate"
            + " events, their self-composition and composition";

    private final NeighbouringRelation relation;
    private final List<DpEvent> ledger;
    private double muSquared;

    public ExactGaussianAccountant(NeighbouringRelation relation) {
        this.relation = Objects.requireNonNull(relation, "neighbouring relation must not be null");
        this.ledger = new ArrayList<>();
    }

    private ExactGaussianAccountant(ExactGaussianAccountant other) {
        this.relation = other.relation;
        this.ledger = new ArrayList<>(other.ledger);
        this.muSquared = other.muSquared;
    }

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    /** {@code mu^2} of the whole ledger ({@code +inf} after a non-private event). */
    public double muSquared() {
        return muSquared;
    }

    @Override
    public boolean supports(DpEvent event) {
        return EventTree.refusal(event, ExactGaussianAccountant::leafRefusal) == null;
    }

    @Override
    public ExactGaussianAccountant compose(DpEvent event) {
        muSquared += cost(event)[0];
        ledger.add(event);
        return this;
    }

    @Override
    public ExactGaussianAccountant compose(DpEvent event, long count) {
        return compose(new SelfComposedEvent(event, count));
    }

    /** The event's {@code mu^2}, as a one-element vector. */
    @Override
    public double[] cost(DpEvent event) {
        Objects.requireNonNull(event, "event must not be null");
        String reason = EventTree.refusal(event, ExactGaussianAccountant::leafRefusal);
        if (reason != null) {
            throw new UnsupportedEventException("ExactGaussianAccountant(" + relation + ")", event, reason, SUPPORTED);
        }
        double[] sum = {0.0};
        EventTree.forEachLeaf(event, 1L, (leaf, count) -> {
            double single = leafMuSquared(leaf);
            if (single != 0.0) { // 0 * inf would be NaN
                sum[0] += count * single;
            }
        });
        return new double[] {sum[0]};
    }

    @Override
    public EpsilonBound epsilonBound(double[] totalCost, double delta, Conversion conversion) {
        if (totalCost.length != 1) {
            throw new IllegalArgumentException("an exact Gaussian cost is one number (mu^2), got " + totalCost.length + " values");
        }
        return bound(totalCost[0], delta, conversion);
    }

    @Override
    public EpsilonBound epsilonBound(double delta, Conversion conversion) {
        return bound(muSquared, delta, conversion);
    }

    private static EpsilonBound bound(double muSquared, double delta, Conversion conversion) {
        ZCdp.requireDelta(delta);
        Objects.requireNonNull(conversion, "conversion must not be null");
        return new EpsilonBound(GaussianPrivacyCurve.epsilon(Math.sqrt(muSquared), delta), delta, Double.NaN, conversion, NAME);
    }

    @Override
    public double delta(double epsilon, Conversion conversion) {
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        return GaussianPrivacyCurve.delta(Math.sqrt(muSquared), epsilon);
    }

    @Override
    public List<DpEvent> ledger() {
        return List.copyOf(ledger);
    }

    @Override
    public ExactGaussianAccountant copy() {
        return new ExactGaussianAccountant(this);
    }

    @Override
    public String toString() {
        return "ExactGaussianAccountant(" + relation + ", mu^2=" + muSquared + ", " + ledger.size() + " ledger entries)";
    }

    private double leafMuSquared(DpEvent event) {
        if (event instanceof NoOpEvent) {
            return 0.0;
        }
        if (event instanceof NonPrivateEvent) {
            return Double.POSITIVE_INFINITY;
        }
        GaussianEvent g = event instanceof CorrelatedGaussianEvent c ? c.toGaussian() : (GaussianEvent) event;
        double z = g.noiseMultiplier();
        if (z == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        double sensitivity = relation == NeighbouringRelation.REPLACE_ONE ? 2.0 : 1.0;
        return sensitivity * sensitivity / (z * z);
    }

    private static String leafRefusal(DpEvent event) {
        if (event instanceof GaussianEvent || event instanceof CorrelatedGaussianEvent || event instanceof NoOpEvent
                || event instanceof NonPrivateEvent) {
            return null;
        }
        if (event instanceof PoissonSampledEvent || event instanceof SampledWithoutReplacementEvent) {
            return "a sampled Gaussian's privacy loss is not Gaussian; account it with the PLD or RDP accountant";
        }
        if (event instanceof LaplaceEvent) {
            return "a Laplace release is not a Gaussian mechanism; account it with the PLD or RDP accountant";
        }
        if (event instanceof ZCdpEvent) {
            return "a zCDP statement need not come from a Gaussian mechanism; account it with the zCDP or RDP accountant";
        }
        return "only Gaussian mechanisms are priced exactly here, not " + event.getClass().getSimpleName()
                + "; account it with the RDP accountant";
    }
}
