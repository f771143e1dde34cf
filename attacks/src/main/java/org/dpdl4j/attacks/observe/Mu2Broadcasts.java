package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What a machine of DP-mu^2-FL sees around round t with a trusted server: the broadcast query points
 * {@code x_(t-2) .. x_(t+1)}, and what it is assumed to know of the other machines.
 *
 * @param template          a network with the run's architecture
 * @param points            {@code x_(t-2), x_(t-1), x_t, x_(t+1)} (the first two may be any value for t = 1, the first
 *                          for t = 2: their weights vanish)
 * @param t                 the round index t (1-based)
 * @param machine           the attacked machine i
 * @param othersIncrements  {@code sum_(j != i) Clip(q_t^j)}: the other machines' increments of round t (the worst case,
 *                          an observer who knows their data)
 */
public record Mu2Broadcasts(MultiLayerNetwork template, INDArray[] points, long t, int machine,
                            INDArray othersIncrements) {

    public Mu2Broadcasts {
        Objects.requireNonNull(template, "template must not be null");
        Objects.requireNonNull(othersIncrements, "others' increments must not be null (zeros for one machine)");
        if (points.length != 4) {
            throw new IllegalArgumentException("give the four query points x_(t-2) .. x_(t+1), got " + points.length);
        }
        long p = template.numParams();
        for (INDArray a : points) {
            if (a.length() != p) {
                throw new IllegalArgumentException("query points must have " + p + " entries, got " + a.length());
            }
        }
        if (othersIncrements.length() != p) {
            throw new IllegalArgumentException("others' increments must have " + p + " entries");
        }
        if (t < 1) {
            throw new IllegalArgumentException("round index t must be >= 1, got " + t);
        }
        points = points.clone();
    }

    @Override
    public INDArray[] points() {
        return points.clone();
    }
}
