package org.dpdl4j.attacks.observe;

import org.dpdl4j.attacks.AttackCase;

/**
 * An adversary at one position of one protocol: it taps the messages it can see during training and turns one
 * release into an {@link AttackCase} (the vector to match, its scale and noise, the model at the release).
 * Adding an adversary for a new protocol means one message record {@code M} with what that position sees and
 * one class implementing this interface.
 *
 * @param <M> the message (or pair of messages) the adversary observes at one release
 */
public interface AttackObserver<M> {

    /** Who observes what, and how it becomes a gradient. */
    AttackSurface surface();

    /**
     * The attack case of one observed release.
     *
     * @param message what the adversary saw
     * @param context ground truth and round, known to the training run only
     * @throws IllegalArgumentException if the message is outside what this adversary can turn into a gradient
     */
    AttackCase observe(M message, CaseContext context);
}
