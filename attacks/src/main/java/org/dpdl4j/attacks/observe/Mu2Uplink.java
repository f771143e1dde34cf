package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the server of DP-mu^2-FL sees of one machine around round t: the query points it broadcast and the machine's
 * messages of rounds t and t - 1.
 *
 * @param template        a network with the run's architecture
 * @param point           the query point {@code x_t}
 * @param previousPoint   the previous query point {@code x_(t-1)} (any value at t = 1)
 * @param t               the round index t (1-based, as in the algorithm)
 * @param message         {@code m_t^i}: the machine's estimate {@code dhat_t^i}, plus its noise with an untrusted server
 * @param previousMessage {@code m_(t-1)^i} (zeros at t = 1)
 * @param machine         the machine i
 */
public record Mu2Uplink(MultiLayerNetwork template, INDArray point, INDArray previousPoint, long t, INDArray message,
                        INDArray previousMessage, int machine) {

    public Mu2Uplink {
        Objects.requireNonNull(template, "template must not be null");
        long p = template.numParams();
        for (INDArray a : new INDArray[] {point, previousPoint, message, previousMessage}) {
            Objects.requireNonNull(a, "points and messages must not be null");
            if (a.length() != p) {
                throw new IllegalArgumentException("points and messages must have " + p + " entries, got " + a.length());
            }
        }
        if (t < 1) {
            throw new IllegalArgumentException("round index t must be >= 1, got " + t);
        }
    }
}
