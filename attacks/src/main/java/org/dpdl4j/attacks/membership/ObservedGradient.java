package org.dpdl4j.attacks.membership;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A local gradient an eavesdropper recovered from one broadcast.
 *
 * @param agent    the sender
 * @param wake     the sender's wake-up count
 * @param theta    the sender's model before the update [p], at which the gradient was taken
 * @param gradient the data part of the sender's local gradient at {@code theta} [p] (plus the private update's noise)
 */
public record ObservedGradient(int agent, long wake, INDArray theta, INDArray gradient) {
}
