package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One hop of random-walk SGD as the party receiving the token sees it: the token before and after the holder's update
 * {@code theta+ = theta - gamma (Clip_L(grad) + eta)}.
 *
 * @param model         the network at the token before the update
 * @param before        the token before the update
 * @param after         the token after it
 * @param stepSize      gamma
 * @param gradientBound L, the clip of the holder's gradient (infinite without clipping)
 * @param sigma         the std of the holder's noise on its clipped gradient (0 without noise)
 * @param holder        the party that updated the token
 * @param step          the hop's index in the walk
 */
public record RandomWalkHop(MultiLayerNetwork model, INDArray before, INDArray after, double stepSize,
                            double gradientBound, double sigma, int holder, long step) {
    public RandomWalkHop {
        Objects.requireNonNull(model, "model must not be null");
        Objects.requireNonNull(before, "token before the hop must not be null");
        Objects.requireNonNull(after, "token after the hop must not be null");
        if (!(stepSize > 0)) {
            throw new IllegalArgumentException("step size must be > 0, got " + stepSize);
        }
    }
}
