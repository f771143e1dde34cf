package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.dpdl4j.protocol.federated.Mu2Iterates;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Another machine of DP-mu^2-FL with a trusted server (spec table 8.5): it sees only the broadcast query points and
 * inverts the server's update. From {@code x_(t+1) = (t x_t + 2 w_(t+1)) / (t + 2)} it recovers the iterates
 * {@code w}, and without an active projection {@code gbar_t = (w_t - w_(t+1)) / eta}; the difference of two consecutive
 * aggregates is {@code (1/M) sum_j Clip(q_t^j) + Y_t - Y_(t-1)}. Knowing the other machines' increments (the worst
 * case) it keeps {@code Clip(q_t^i) + M (Y_t - Y_(t-1))}.
 */
public final class Mu2MachineObserver implements AttackObserver<Mu2Broadcasts> {
    private final Mu2Config config;
    private final int machines;

    /**
     * @param config   the run (trusted server, or a non-private run)
     * @param machines M
     */
    public Mu2MachineObserver(Mu2Config config, int machines) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        if (machines < 1) {
            throw new IllegalArgumentException("the number of machines must be >= 1, got " + machines);
        }
        this.machines = machines;
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.algorithmName(), "machine",
                "the query points x_t the server broadcasts",
                "M (gbar_t - gbar_(t-1)) - (known others' increments) = Clip_S(q_t^i) + M (Y_t - Y_(t-1))",
                "another machine; knows eta, alpha_t, S, sigma and every other machine's data (worst case)");
    }

    @Override
    public AttackCase observe(Mu2Broadcasts view, CaseContext context) {
        long t = view.t();
        INDArray[] x = view.points();
        long p = view.template().numParams();
        for (int k = 0; k < x.length; k++) {
            x[k] = x[k].reshape(1, p).castTo(DataType.DOUBLE);
        }
        // w_(s+1) from x_s and x_(s+1); w_1 = x_1.
        INDArray wNext = iterate(x[2], x[3], t);
        INDArray w = iterate(x[1], x[2], t - 1);
        requireInside(wNext, t + 1);
        requireInside(w, t);
        double eta = config.stepSize();
        INDArray aggregate = w.sub(wNext).divi(eta);
        INDArray previousAggregate;
        if (t > 1) {
            INDArray wBefore = iterate(x[0], x[1], t - 2);
            requireInside(wBefore, t - 1);
            previousAggregate = wBefore.sub(w).divi(eta);
        } else {
            previousAggregate = aggregate.mul(0);
        }
        INDArray observed = aggregate.subi(previousAggregate).muli(machines)
                .subi(view.othersIncrements().reshape(1, p).castTo(DataType.DOUBLE));
        boolean noisy = config.noise().isPrivate() && config.trust() == ServerTrust.TRUSTED;
        double noise = noisy ? machines * Mu2Releases.differenceStd(config, t) : 0.0;
        return Mu2Releases.caseOf(config, "machine", view.template(), x[2], x[1], t, observed, noise, view.machine(),
                context, Map.of("machines", Integer.toString(machines), "others", "known (worst case)"));
    }

    /** {@code w_(s+1) = ((s + 2) x_(s+1) - s x_s) / 2}: the iterate behind the anytime average ({@code w_1 = x_1}). */
    private static INDArray iterate(INDArray xs, INDArray xNext, long s) {
        if (s <= 0) {
            return xNext.dup();
        }
        double keep = Mu2Iterates.alphaSum(s) / Mu2Iterates.alphaSum(s + 1);
        double add = Mu2Iterates.alpha(s + 1) / Mu2Iterates.alphaSum(s + 1);
        return xNext.sub(xs.mul(keep)).divi(add);
    }

    private void requireInside(INDArray w, long index) {
        if (config.domain().isUnbounded()) {
            return;
        }
        double norm = w.norm2Number().doubleValue();
        if (norm >= config.domain().radius() * (1 - 1e-6)) {
            throw new IllegalArgumentException("the iterate w_" + index + " lies on the boundary of the domain (norm "
                    + norm + ", radius " + config.domain().radius() + "): the projection may have been active, so the"
                    + " aggregate cannot be read from the query points");
        }
    }
}
