package org.dpdl4j.attacks.inversion;

import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;

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
}
