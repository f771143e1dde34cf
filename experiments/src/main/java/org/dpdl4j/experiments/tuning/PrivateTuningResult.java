package org.dpdl4j.experiments.tuning;

import org.dpdl4j.tuning.TuningCost;
import java.util.List;
import java.util.Optional;
import org.deeplearning4j.nn.api.Model;
import org.dpdl4j.privacy.ledger.RunLedger;

/**
 * What a {@link PrivateTuning} releases, and the tuner's own record.
 *
 * @param model            the best candidate's trained network; empty when no candidate produced one (K = 0, or every
 *                         candidate diverged)
 * @param configuration    its configuration (a value of the search space)
 * @param score            its released, noisy validation accuracy
 * @param ledger           the released model's ledger: one repeat-and-select event, tuning included
 * @param cost             the tuning's cost, known before any candidate trained
 * @param privacyStatement what the release costs and assumes, and what is not covered
 * @param candidates       every candidate, in order: the tuner's own record (it shows K), not released
 * @param <T>              the search space's values
 * @param <M>              the network type
 */
public record PrivateTuningResult<T, M extends Model>(Optional<M> model, Optional<T> configuration, Optional<Double> score,
                                                      RunLedger ledger, TuningCost cost, String privacyStatement,
                                                      List<TunedCandidate<T>> candidates) {

    /** The epsilon of the released model, tuning included. */
    public double epsilon() {
        return ledger.epsilon();
    }
}
