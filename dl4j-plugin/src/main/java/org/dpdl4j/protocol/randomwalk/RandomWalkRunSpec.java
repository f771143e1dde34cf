package org.dpdl4j.protocol.randomwalk;

import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivacySetup;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a random-walk SGD run apart from the network the token starts from.
 * {@link RandomWalkRunBuilder} assembles it from Java, {@link RandomWalkProtocol#config} from a command line's settings;
 * {@link #plannedLedger} prices it and {@link #create} builds it, both through {@link #plan}: the token's path (drawn
 * from the sampling stream, independent of the data), the noise calibrated to the most visited party, and the
 * accounting that charges each visit to the visited party.
 *
 * @param data          where the parties' data comes from
 * @param parties       the number of parties a training set is split over, null when the data is given
 * @param steps         T, the token's hops
 * @param stepSize      gamma, the constant step size
 * @param gradientBound L_F, the clip of every local gradient
 * @param sigma         a given noise std instead of a target (0 for a non-private walk), NaN when calibrated
 * @param batchSize     examples of a local gradient, 0 for the party's full dataset
 * @param privacy       the shared privacy set-up: target, delta, budget, noise kind, seed, accountant
 */
public record RandomWalkRunSpec(PartySource data, Integer parties, long steps, double stepSize, double gradientBound,
                                double sigma, int batchSize, PrivacySetup privacy) {
    public RandomWalkRunSpec {
        require(privacy != null, "the privacy set-up");
    }

    /**
     * Sets the walk up.
     *
     * @param template the network the token starts from
     * @param recorded the settings recorded with the run (in its checkpoint), null for none
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public RandomWalkSgd create(MultiLayerNetwork template, RunSettings recorded) {
        require(template != null, "give the model the token starts from (model(network))");
        requireWalk();
        long seed = privacy.seed();
        int count = partyCount();
        MemoryCheck.require(new RandomWalkMemory(ModelFootprint.of(template.getLayerWiseConfigurations()),
                data.shape(count, seed), count, steps, batchSize).estimate());
        PartySource.Local local = data.local(count, seed);
        int k = local.data().size();
        NoiseStreams streams = privacy.noise().streams(k, seed);
        WalkPlan plan = plan(k, RandomWalkSgd.drawPath(k, steps, streams.sampling(0, 0)));
        RunLedger ledger = plan.privacy() == null ? null : privacy.ledger(plan.privacy().relation(), privacy.noise().isSecure());
        return new RandomWalkSgd(template, local.data(), plan.config(), streams, plan.path(), plan.privacy(), ledger,
                recorded != null ? recorded : RunSettings.empty(), local.report());
    }

    /**
     * The ledger {@link #create}'s walk will hold after all its hops, with the relation it is priced under, from the
     * description and the parties' data sizes: no model is needed and no noise is drawn. Checked as {@link #create}
     * checks it.
     *
     * <p>The visits the walk charges follow its path, and with secure randomness the path is drawn from secret
     * randomness when the walk is built, so nothing can tell it before: then the plan is empty. With seeded randomness
     * the path is a function of the seed alone (never of the data), drawn here exactly as {@link #create} draws it.
     *
     * @return empty for a walk without noise, or one whose path is secret until it is built
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        requireWalk();
        int k = data.sizes(partyCount(), privacy.seed()).length;
        if (privacy.noise().isSecure()) {
            requireOneNoiseChoice();
            return Optional.empty();
        }
        WalkPlan plan = plan(k, RandomWalkSgd.drawPath(k, steps, privacy.noise().streams(k, privacy.seed()).sampling(0, 0)));
        return plan.privacy() == null ? Optional.empty()
                : Optional.of(new PlannedLedger(plan.privacy().plannedLedger(plan.path(), privacy.noise().isSecure()),
                plan.privacy().relation()));
    }

    /** What every walk needs, whatever its model: data, hops, step size, parties. */
    private void requireWalk() {
        require(data != null, "give the parties' data either as parties(list) or as split(set, how, count)");
        require(steps >= 1 && steps <= Integer.MAX_VALUE, "give the number of hops, from 1 to 2^31 - 1 (steps(T))");
        require(stepSize > 0 && Double.isFinite(stepSize), "give a positive finite step size gamma (stepSize(gamma))");
        if (data instanceof PartySource.Split) {
            require(parties != null && parties >= 1, "give the number of parties, at least 1");
        }
    }

    private int partyCount() {
        return data.count().orElseGet(() -> parties);
    }

    private void requireOneNoiseChoice() {
        require(!(privacy.byTarget() && !Double.isNaN(sigma)), "give either a target (target(epsilon, delta)) or a noise std"
                + " (sigma(s)), not both");
    }

    /** The walk's path, its noise (calibrated to the most visited party) and accounting: what build and pricing share. */
    private WalkPlan plan(int k, int[] path) {
        long[] visits = RandomWalkSgd.visitCounts(k, path);
        long maxVisits = java.util.Arrays.stream(visits).max().orElse(0);
        requireOneNoiseChoice();
        LedgerAccounting accounting = new LedgerAccounting(privacy.accountants(), NeighbouringRelation.REPLACE_ONE);
        double s = privacy.byTarget()
                ? RandomWalkPrivacy.calibrate(maxVisits, gradientBound, privacy.targetEpsilon(), privacy.delta(), accounting)
                : Double.isNaN(sigma) ? 0.0 : sigma;
        if (s > 0) {
            require(gradientBound > 0 && Double.isFinite(gradientBound), "a private walk needs a finite gradient bound L_F"
                    + " (gradientBound(L)): every local gradient is clipped to it");
        }
        RandomWalkConfig config = new RandomWalkConfig(steps, stepSize, gradientBound, s, batchSize, privacy.seed());
        return new WalkPlan(config, path, s > 0 ? new RandomWalkPrivacy(visits, gradientBound, s, privacy.delta()) : null);
    }

    /** A walk's settings resolved on its path; {@code privacy} is null without noise. */
    private record WalkPlan(RandomWalkConfig config, int[] path, RandomWalkPrivacy privacy) {
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
