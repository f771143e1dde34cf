package org.dpdl4j.experiments.audit;

import org.dpdl4j.runtime.options.InvalidOptionException;

/** The checks every audit makes of its data set, its canaries and its guesses, whatever protocol it audits. */
final class AuditSettingsCheck {
    private AuditSettingsCheck() {
    }

    /**
     * @throws InvalidOptionException naming the option: an unknown data set, fewer than 2 canaries, more guesses than
     *                                canaries
     */
    static void requireCommon(String dataset, int canaries, Integer guessesIn) {
        if (!DpSgdAudit.DATASETS.contains(dataset)) {
            throw new InvalidOptionException("--dataset", "--dataset: unknown data set '" + dataset + "'; use one of "
                    + String.join(", ", DpSgdAudit.DATASETS));
        }
        if (canaries < 2) {
            throw new InvalidOptionException("--canaries", "--canaries " + canaries + ": an audit needs at least 2"
                    + " canaries (a few hundred to thousands give a useful bound)");
        }
        if (guessesIn != null && guessesIn > canaries) {
            throw new InvalidOptionException("--guesses", "--guesses " + guessesIn + " exceeds --canaries " + canaries
                    + "; guess on at most every canary");
        }
    }
}
