package org.dpdl4j.protocol.federated;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What the server sends a block of machines for round t: the public query points, and the block's estimates as they
 * stood after round t - 1. The estimates travel with the round so that a round depends only on its plan and its input:
 * a block reopened elsewhere after a lost worker continues from them.
 *
 * @param x        the query point x_t, one row
 * @param previous x_{t-1}, one row (any value at t = 1, where its weight is 0)
 * @param dhat     the block's machines' estimates, one row each
 */
public record Mu2BlockInput(Rows x, Rows previous, Rows dhat) implements Serializable {
}
