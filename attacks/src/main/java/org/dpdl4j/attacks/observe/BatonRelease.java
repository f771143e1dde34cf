package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.protocol.recal.BatonPublication;
import org.dpdl4j.protocol.recal.LinearModel;

/**
 * One baton pass of RECAL / DP-RECAL as an adversary sees it: the publication (the baton before and after, and the
 * agent's state for an oracle attacker), the linear model that maps the matrices [q, c] to DL4J's parameter layout,
 * and the network at the agent's {@code x_old}, where the published gradient was computed.
 *
 * @param publication the tapped publication
 * @param linear      the run's linear model
 * @param clip        G_rec, the bound on every record's gradient ({@code +Infinity} for RECAL)
 */
public record BatonRelease(BatonPublication publication, LinearModel linear, double clip) {

    public BatonRelease {
        Objects.requireNonNull(publication, "publication must not be null");
        Objects.requireNonNull(linear, "linear model must not be null");
        if (!(clip > 0)) {
            throw new IllegalArgumentException("the record clip must be positive (+Infinity for none), got " + clip);
        }
    }

    /** The network holding the agent's {@code x_old}. */
    public MultiLayerNetwork modelAtRelease() {
        return linear.withMatrix(publication.xOld());
    }
}
