package org.dpdl4j.cli.train;

import org.dpdl4j.protocol.federated.FederatedTrainer;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.LongToDoubleFunction;

/**
 * A federated run ready to go: the trainer and what the shared loop reports about it.
 *
 * @param trainer   the protocol
 * @param label     progress-bar label
 * @param epsilon   epsilon after a number of rounds, or null for a non-private run
 * @param statement the privacy statement after a number of rounds, or null
 * @param resolved  every resolved setting, for config.json
 * @param summary   extra rows of the final table (name to value)
 */
record FederatedPlan(FederatedTrainer trainer, String label, LongToDoubleFunction epsilon, LongFunction<String> statement,
                     Object resolved, Map<String, String> summary) {
    FederatedPlan {
        summary = new LinkedHashMap<>(summary);
    }

    boolean isPrivate() {
        return epsilon != null;
    }
}
