package org.dpdl4j.experiments.tuning;

import org.dpdl4j.tuning.TuningCost;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * What a tuning produced.
 *
 * @param directory    where its files are
 * @param candidates   every candidate, in order (the tuner's own record, like the run directory's operator/ folder:
 *                     with K and every score, it is not covered by the guarantee)
 * @param best         the best candidate, empty when none produced a model (or K was 0)
 * @param bestSettings the best candidate's full protocol settings, for {@code train}
 * @param cost         the privacy cost of a private tuning; empty on public data
 * @param ledger       the released model's ledger (the tuning event), empty on public data
 */
public record TuningResult(Path directory, List<CandidateResult> candidates, Optional<CandidateResult> best,
                           Optional<RunSettings> bestSettings, Optional<TuningCost> cost, Optional<RunLedger> ledger) {

    /** The epsilon of the released model, tuning included (+Infinity when nothing is accounted). */
    public double epsilon() {
        return ledger.map(RunLedger::epsilon).orElse(Double.POSITIVE_INFINITY);
    }
}
