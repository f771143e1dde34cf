package org.dpdl4j.protocol.muffliato;

import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.MemoryCheck;
import org.dpdl4j.runtime.ModelFootprint;
import org.dpdl4j.runtime.PartySource;
import org.dpdl4j.runtime.PrivacySetup;
import org.dpdl4j.runtime.options.PartyOptions;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * The one description of a Muffliato run apart from the network every node starts from. {@link MuffliatoRunBuilder}
 * assembles it from Java, {@link MuffliatoProtocol#config} from a command line's settings; {@link #plannedLedger}
 * prices it and {@link #create} builds it, both through {@link #plan}: the gossip polynomial, the noise calibrated to
 * the target (local DP, or a pairwise network-DP bound) and its accounting.
 *
 * @param graph        the communication graph
 * @param data         where the nodes' data comes from
 * @param sumObjective whether the given nodes minimise the sum of their losses (else the mean)
 * @param rounds       K, the rounds
 * @param gossipSteps  gossip steps per round
 * @param scheme       the gossip polynomial
 * @param stepSize     gamma
 * @param clip         L, the gradient clip
 * @param sigma        a given noise std instead of a target, NaN when calibrated (or for the non-private reference)
 * @param calibrateTo  what a target epsilon bounds
 * @param privacy      the shared privacy set-up: target, delta, budget, noise kind, seed, accountant
 */
public record MuffliatoRunSpec(Graph graph, PartySource data, boolean sumObjective, long rounds, int gossipSteps,
                               GossipScheme scheme, double stepSize, double clip, double sigma,
                               MuffliatoRunBuilder.CalibrationTarget calibrateTo, PrivacySetup privacy) {
    public MuffliatoRunSpec {
        require(scheme != null && calibrateTo != null && privacy != null, "the gossip scheme, the calibration target and"
                + " the privacy set-up");
    }

    /**
     * Sets the run up.
     *
     * @param template the network every node starts from
     * @param recorded the settings recorded with the run (in its checkpoint), null for none
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public MuffliatoGd create(MultiLayerNetwork template, RunSettings recorded) {
        require(template != null, "give the model every node starts from (model(network))");
        requireRun();
        int n = graph.vertexCount();
        long seed = privacy.seed();
        MemoryCheck.require(new MuffliatoMemory(ModelFootprint.of(template.getLayerWiseConfigurations()), data.shape(n, seed), n)
                .estimate());
        PartySource.Local local = data.localUnchecked(n, seed);
        require(local.data().size() == n, "the graph has " + n + " nodes but " + local.data().size() + " local datasets were given");
        Plan plan = plan();
        RunLedger ledger = null;
        if (plan.privacy() != null) {
            // A pairwise target is not a local-DP budget: the ledger then stops only at an explicit budget.
            PrivacySetup stops = privacy.byTarget() && calibrateTo != MuffliatoRunBuilder.CalibrationTarget.LOCAL
                    ? new PrivacySetup(Double.NaN, privacy.delta(), privacy.budget(), privacy.noise(), seed, privacy.accountants())
                    : privacy;
            ledger = stops.ledger(plan.privacy().relation(), privacy.noise().isSecure());
        }
        return new MuffliatoGd(template, local.data(), sumObjective, plan.config(), plan.gossip(), privacy.noise().streams(graph, seed),
                plan.privacy(), ledger, recorded != null ? recorded : toSettings(), local.report());
    }

    /**
     * The settings a checkpoint of a run built without command-line settings records, so that a resume under another
     * noise, target or schedule is seen (and starts a new segment of the ledger, whose statement then says its pairwise
     * figures cover the current settings only): the way back from this description to settings.
     */
    public RunSettings toSettings() {
        RunSettings r = RunSettings.empty().with(RunOptions.SEED, privacy.seed()).with(RunOptions.ROUNDS, rounds)
                .with(PartyOptions.NODES, Integer.toString(graph.vertexCount())).with(RunOptions.NOISE, privacy.noise())
                .with(MuffliatoOptions.GOSSIP_STEPS, (long) gossipSteps).with(MuffliatoOptions.GOSSIP, scheme.label())
                .with(RunOptions.LEARNING_RATE, stepSize).with(RunOptions.CLIP, clip);
        if (privacy.byTarget()) {
            return r.with(RunOptions.EPSILON, privacy.targetEpsilon()).with(RunOptions.DELTA, privacy.delta())
                    .with(MuffliatoOptions.CALIBRATE_TO, calibrateTo.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        }
        return Double.isNaN(sigma) ? r : r.with(RunOptions.NOISE_MULTIPLIER, sigma / clip).with(RunOptions.DELTA, privacy.delta());
    }

    /**
     * The ledger {@link #create}'s run will hold after all its rounds, with the relation it is priced under, from the
     * description and the graph: no model is needed and no noise stream is opened (a split is drawn for its sizes only,
     * to check it). Checked as {@link #create} checks it.
     *
     * @return empty for the non-private reference (no noise)
     * @throws IllegalArgumentException naming what is missing or impossible
     */
    public Optional<PlannedLedger> plannedLedger() {
        requireRun();
        int n = graph.vertexCount();
        int datasets = data.count().orElseGet(() -> data.sizes(n, privacy.seed()).length);
        require(datasets == n, "the graph has " + n + " nodes but " + datasets + " local datasets were given");
        MuffliatoPrivacy analysis = plan().privacy();
        return analysis == null ? Optional.empty()
                : Optional.of(new PlannedLedger(analysis.plannedLedger(n, privacy.noise().isSecure()), analysis.relation()));
    }

    /** What every run needs, whatever its model: graph, data, rounds, step, clip, one noise choice. */
    private void requireRun() {
        require(graph != null, "give the communication graph (graph(g))");
        require(data != null, "give the nodes' data either as nodeData(list, sum) or as split(set, how)");
        require(rounds >= 1 && rounds <= Integer.MAX_VALUE, "give the number of rounds, from 1 to 2^31 - 1 (rounds(K))");
        require(stepSize > 0 && Double.isFinite(stepSize), "give a positive finite step size gamma (stepSize(gamma))");
        require(clip > 0 && Double.isFinite(clip), "give the gradient clip L (clip(L)): one node's data moves its gradient by"
                + " at most 2L, the sensitivity every guarantee uses");
        require(!(privacy.byTarget() && !Double.isNaN(sigma)), "give either a target (target(epsilon, delta)) or a noise std"
                + " (sigma(s)), not both");
        require(graph.vertexCount() >= 2, "Muffliato needs a graph of at least two nodes; it has " + graph.vertexCount());
    }

    /** The gossip, the noise (calibrated to the target) and its accounting on the graph: what build and pricing share. */
    private Plan plan() {
        GossipPolynomial gossip = new GossipPolynomial(MixingMatrix.metropolisHastings(graph), scheme);
        LedgerAccounting accounting = new LedgerAccounting(privacy.accountants(), NeighbouringRelation.REPLACE_ONE);
        PairwiseNetworkDp pairwise = null;
        double s = Double.isNaN(sigma) ? 0.0 : sigma;
        boolean byTarget = privacy.byTarget();
        double epsilon = privacy.targetEpsilon();
        double delta = privacy.delta();
        if (byTarget || s > 0) {
            pairwise = PairwiseNetworkDp.of(gossip.matrix(), scheme, gossipSteps);
        }
        if (byTarget) {
            s = switch (calibrateTo) {
                // Calibrated by the ledger's own accounting, so the noise is the least the reported bound allows.
                case LOCAL -> accounting.calibrate(v -> new GaussianEvent(v / clip), rounds, delta, epsilon).noise();
                case PAIRWISE_MEAN -> 2 * clip * pairwise.noiseMultiplierFor(epsilon, rounds, delta, PairwiseNetworkDp.Target.MEAN);
                case PAIRWISE_MAX -> 2 * clip * pairwise.noiseMultiplierFor(epsilon, rounds, delta, PairwiseNetworkDp.Target.MAX);
            };
        }
        MuffliatoConfig config = new MuffliatoConfig(rounds, gossipSteps, scheme, stepSize, clip, s, privacy.seed());
        return new Plan(config, gossip, s > 0 ? new MuffliatoPrivacy(pairwise, clip, s, delta, rounds) : null);
    }

    /** A run's settings resolved on its graph; {@code privacy} is null without noise. */
    private record Plan(MuffliatoConfig config, GossipPolynomial gossip, MuffliatoPrivacy privacy) {
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
