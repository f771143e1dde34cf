package org.dpdl4j.optim;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.deeplearning4j.optimize.listeners.CheckpointListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per listener, that DL4J's {@link CheckpointListener} saves a privately trained network without its
 * privacy ledger. Its files are fine to evaluate or publish (each is an iterate, covered by the run's ledger), but
 * training resumed from one starts a new ledger that knows nothing of the steps before, so the epsilon it reports
 * would be too small; a private run is checkpointed with its ledger by {@code RunCheckpoint.save}.
 */
final class CheckpointListenerWarning {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointListenerWarning.class);
    static final String WARNING = "DL4J's CheckpointListener saves this privately trained network without its privacy"
            + " ledger: its files may be evaluated or published (every iterate is covered by this run's ledger), but"
            + " training resumed from one of them starts a new ledger, and the epsilon it reports leaves out every step"
            + " before. Checkpoint a private run with RunCheckpoint.save(trainer, file), which keeps the ledger, and"
            + " resume it with RunCheckpoint.resume.";

    private final Set<TrainingListener> warned = Collections.newSetFromMap(new IdentityHashMap<>());

    /** Warns about every {@link CheckpointListener} among the optimizer's listeners not warned about before. */
    void check(DpOptimizer optimizer) {
        for (TrainingListener l : optimizer.listeners()) {
            if (l instanceof CheckpointListener && warned.add(l)) {
                LOG.warn(WARNING);
            }
        }
    }
}
