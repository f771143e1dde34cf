package org.dpdl4j.attacks.observe;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A client's revealed value in GOPA averaging, as the server sees it together with colluding clients.
 *
 * @param message           the revealed value {@code thetaHat_k = Delta_k + sum_l Delta_kl + eta_k}
 * @param colluderTerms     the sum of the pairwise terms {@code Delta_kl} the client shares with the colluders (as the
 *                          client added them); the colluders know them from their secrets
 * @param honestNeighbours  the client's neighbours in GOPA's graph that do not collude
 */
public record GopaView(ClientMessage message, INDArray colluderTerms, int honestNeighbours) {

    public GopaView {
        Objects.requireNonNull(message, "message must not be null");
        Objects.requireNonNull(colluderTerms, "colluders' terms must not be null (zeros without colluders)");
        if (colluderTerms.length() != message.message().length()) {
            throw new IllegalArgumentException("colluders' terms have " + colluderTerms.length() + " entries, the message "
                    + message.message().length());
        }
        if (honestNeighbours < 0) {
            throw new IllegalArgumentException("honest neighbours must be >= 0, got " + honestNeighbours);
        }
    }
}
