package org.dpdl4j.protocol.decentralized;

import java.util.Objects;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyLedger;

/**
 * What a decentralized run's settings resolve to on its graph and its nodes' data sizes, before any model or noise
 * stream exists: the calibrated configuration and the analysis of one round. A {@link DecentralizedTrainer} runs it;
 * pricing reads its planned ledger.
 *
 * @param config      the engine's settings, noise levels calibrated
 * @param privacy     the analysis of one round, null for D-SGD
 * @param calibration what the target calibrated (every feasible Decor pair), null with given noise or for D-SGD
 */
record DecentralizedPlan(DecentralizedConfig config, DecentralizedPrivacy privacy, DecentralizedCalibration.Result calibration) {
    DecentralizedPlan {
        Objects.requireNonNull(config, "config");
    }

    /**
     * The ledger of every planned round, as the trainer's {@code plannedLedger()} gives it, with the relation of its
     * accounting; empty for D-SGD.
     */
    Optional<PlannedLedger> plannedLedger(boolean secureNoise) {
        return privacy == null ? Optional.empty() : Optional.of(new PlannedLedger(
                PrivacyLedger.plannedRepetition(privacy.perRound(), privacy.describe(), config.rounds(), secureNoise),
                privacy.relation(), config.compatibility().notAGuarantee()));
    }
}
