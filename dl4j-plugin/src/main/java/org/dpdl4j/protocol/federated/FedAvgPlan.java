package org.dpdl4j.protocol.federated;

import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyLedger;

/**
 * What a FedAvg-family run's settings resolve to for its number of clients, before any model or noise stream exists:
 * the calibrated configuration, GOPA's pairwise-secret graph and accountant, the analysis of one round, and who the
 * guarantee holds against. A {@link FedAvgTrainer} runs it; pricing reads its planned ledger.
 *
 * @param config    the run's settings, noise calibrated
 * @param privacy   the analysis of one round, null for plain FedAvg
 * @param gopaGraph GOPA's pairwise-secret graph, null for the other variants
 * @param gopa      GOPA's accountant, null for the other variants
 * @param adversary who the guarantee holds against, in words ("-" for plain FedAvg)
 */
record FedAvgPlan(FedAvgConfig config, FedAvgPrivacy privacy, Graph gopaGraph, GopaAccountant gopa, String adversary) {
    FedAvgPlan {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(adversary, "adversary");
    }

    /**
     * The ledger of every planned round, as the trainer's {@code plannedLedger()} gives it, with the relation of its
     * accounting; empty for plain FedAvg.
     */
    Optional<PlannedLedger> plannedLedger(boolean secureNoise) {
        return privacy == null ? Optional.empty() : Optional.of(new PlannedLedger(
                PrivacyLedger.plannedRepetition(privacy.perRound(), privacy.describe(config), config.rounds(), secureNoise),
                privacy.relation(), privacy.notAGuarantee()));
    }
}
