package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.MixingMatrix;

/** The gossip algorithms of the decentralized engine (Decor paper section 2 and 3). */
public enum DecentralizedAlgorithm {
    /** Decentralized SGD without clipping or noise. */
    DSGD,
    /** Decor: private noise plus pairwise-cancelling correlated noise from per-edge secrets. */
    DECOR,
    /** Local DP baseline: private noise only, sigma_ldp per message (Decor with sigma_cor = 0). */
    LDP,
    /** Central DP baseline: private noise sigma_ldp / sqrt(n) on the complete graph with W = 11^T / n; only the average model is private. */
    CDP;

    /** Whether the algorithm clips and adds noise. */
    public boolean isPrivate() {
        return this != DSGD;
    }

    /**
     * The gossip matrix the algorithm uses unless told otherwise: exact averaging for CDP (its analysis assumes the
     * complete graph with W = 11^T / n), Metropolis-Hastings weights for the others.
     */
    public MixingMatrix defaultMixing(Graph graph) {
        return this == CDP ? MixingMatrix.averaging(graph) : MixingMatrix.metropolisHastings(graph);
    }

    /** Command-line name. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
