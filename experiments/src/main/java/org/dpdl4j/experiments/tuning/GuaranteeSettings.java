package org.dpdl4j.experiments.tuning;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.dpdl4j.protocol.decentralized.DecentralizedOptions;
import org.dpdl4j.protocol.federated.FederatedOptions;
import org.dpdl4j.protocol.personalized.PersonalizedOptions;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;

/**
 * The options that say what a guarantee is (its target, its delta, who it holds against, what it protects, whether the
 * noise hides anything), as opposed to the mechanism's knobs (learning rate, clip, batch size, noise multiplier, ...)
 * whose cost the tuning bound prices. A private search over them has no meaning: the released model's guarantee is
 * the tuning's, stated once, at one delta, for one adversary and unit, and a candidate with seeded noise or with the
 * reference code's deviations has none. A private search space that names one is refused before any data is read.
 *
 * <p>Tuning on data declared public ({@code --tuning-data public}) accounts nothing and releases only a configuration,
 * whose {@code train} run states (and warns about) its own guarantee; there a search over them is an ordinary
 * experiment (e.g. accuracy against epsilon on public data), so they are allowed.
 */
final class GuaranteeSettings {
    /** Each option, with what it sets and the fix. */
    private static final Map<String, String> REASONS = new LinkedHashMap<>();

    static {
        reason(RunOptions.NOISE, "the noise source decides whether there is a guarantee at all (anyone with the seed can"
                + " remove seeded noise); drop it from the space: candidates draw secure noise by default");
        reason(RunOptions.EPSILON, "it is each candidate's privacy target, and the released model's guarantee is the whole"
                + " tuning's; drop it from the space and give --epsilon-total (every candidate's --epsilon is then calibrated"
                + " to it) or fix --epsilon on the command line; to compare privacy levels, run one tuning per level");
        reason(RunOptions.DELTA, "it is the delta every epsilon of the tuning is stated at; drop it from the space and give"
                + " --delta once on the command line");
        reason(RunOptions.EPSILON_BUDGET, "it is a candidate's privacy budget, not a hyperparameter; drop it from the space"
                + " (give --epsilon-total for the whole tuning)");
        reason(DecentralizedOptions.ADVERSARY, "it is who the guarantee holds against, and one tuning's guarantee holds"
                + " against one adversary; drop it from the space and give --adversary once on the command line");
        reason(DecentralizedOptions.UNIT, "it is what the guarantee protects (an example, or a user's whole data); drop it"
                + " from the space and give --unit once on the command line");
        reason(FederatedOptions.COLLUDING_FRACTION, "it sets the adversary (the clients colluding with the server); drop it"
                + " from the space and give --colluding-fraction once on the command line");
        reason(FederatedOptions.COLLUDING_SETS, "it decides how the worst colluding set is analysed (sampled:N is an"
                + " estimate, not a guarantee); drop it from the space and give --colluding-sets once on the command line");
        reason(PersonalizedOptions.RELEASE_DELTA, "it is the delta of every release's guarantee; drop it from the space and"
                + " give --release-delta once on the command line");
        reason(DecentralizedOptions.REFERENCE_COMPAT, "it runs the reference code's deviations, which no ledger covers; drop"
                + " it from the space");
        reason(org.dpdl4j.protocol.recal.PrimalDualOptions.PAPER_ACCOUNTING, "it prices dp-recal the paper's way, which is not"
                + " a proven bound and draws far less noise, so a search would favour it; drop it from the space");
    }

    private GuaranteeSettings() {
    }

    private static void reason(RunOption<?> option, String why) {
        REASONS.put(option.name(), why);
    }

    /** The options refused in a private search, by name. */
    static Set<String> names() {
        return Collections.unmodifiableSet(REASONS.keySet());
    }

    /**
     * Refuses a private search space that varies what the guarantee is.
     *
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming the first such option and the fix
     */
    static void refuseInPrivateSearch(SearchSpace space) {
        for (String option : space.options()) {
            String why = REASONS.get(option);
            if (why != null) {
                throw TuningOptions.SPACE.invalid("search space: --" + option + " changes the guarantee, so a private search"
                        + " cannot vary it: " + why + ". A private search varies the mechanism's knobs (e.g. --lr, --clip,"
                        + " --batch-size, --noise-multiplier), whose cost the tuning bound prices; a search over it is only"
                        + " meaningful on data declared public (--tuning-data public)");
            }
        }
    }
}
