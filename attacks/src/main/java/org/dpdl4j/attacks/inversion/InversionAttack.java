package org.dpdl4j.attacks.inversion;

import java.util.Optional;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.network.TargetNetwork;

/** A gradient-inversion attack: reconstructs the examples behind the observation of an {@link AttackCase}. */
public interface InversionAttack {

    /** Short name for reports, e.g. {@code dlg}. */
    String name();

    /**
     * Attacks the case and scores the reconstruction against its ground truth.
     *
     * @throws IllegalArgumentException if the case is outside what the attack handles (the message says why)
     */
    AttackResult attack(AttackCase attackCase);

    /**
     * Why this attack cannot attack releases of {@code network} computed on batches of {@code batchSize} examples,
     * decided from the structure alone, so that a caller can refuse before loading data or training; empty when it
     * may (the case itself can still be refused, e.g. for what the observer sees).
     */
    default Optional<String> limitation(TargetNetwork network, int batchSize) {
        return Optional.empty();
    }
}
