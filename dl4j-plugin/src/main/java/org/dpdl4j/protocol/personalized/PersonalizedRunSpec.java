package org.dpdl4j.protocol.personalized;

import java.util.Objects;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.NoiseKind;

/**
 * The one description of a personalized-learning run (coordinate descent, its private variant, model propagation,
 * gossip ADMM): the users' problem, the clock, where randomness comes from, and for the private run its releases and
 * accountant. {@link PersonalizedProtocol#config} makes it from a command line's settings; {@code create} and
 * {@code plannedLedger} read only it.
 *
 * @param problem     the users' local problems on their similarity graph, and the trade-off
 * @param ticks       the clock: one user wakes and updates per tick (one random edge for ADMM)
 * @param seed        seed of the seeded streams
 * @param noise       where the wake-ups and the noise come from
 * @param releases    the private run's release settings, null for the others
 * @param accountants the private run's accountant
 * @param admmPenalty gossip ADMM's penalty rho
 * @param localSteps  gossip ADMM's local steps per update
 */
public record PersonalizedRunSpec(PersonalizedProblem problem, long ticks, long seed, NoiseKind noise, Releases releases,
                                  AccountantFactory accountants, double admmPenalty, int localSteps) {
    public PersonalizedRunSpec {
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(noise, "noise kind");
        Objects.requireNonNull(accountants, "accountants");
    }

    /**
     * The private run's release settings, checked; a plan follows once a schedule is drawn.
     *
     * @param epsilonBar   every user's budget
     * @param mechanism    Laplace or Gaussian releases
     * @param allocation   how a user's budget is split over its releases
     * @param count        releases per user
     * @param releaseDelta delta of one Gaussian release
     * @param delta        delta of the ledger's epsilons
     */
    public record Releases(double epsilonBar, ReleaseMechanism mechanism, BudgetAllocation allocation, int count,
                           double releaseDelta, double delta) {
        ReleasePlan plan(PersonalizedProblem problem, int[] schedule) {
            return ReleasePlan.of(problem, schedule, mechanism, 1.0, epsilonBar, allocation, count, releaseDelta, delta, 0);
        }
    }
}
