package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.graph.Graph;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One round as an adversary can observe it (Decor spec 3.2): every node i broadcasts its half-step model
 * {@code x_i^{t+1/2}}; an eavesdropper who followed the run also knows {@code x_i^t} (a weighted average of
 * the previous round's messages), hence the released noisy gradient
 * {@code ghat_i = ((1 - eta lambda) x_i^t - x_i^{t+1/2}) / eta}. A neighbour j additionally knows the
 * pairwise term it shares with i (the row of {@code edgeNoise} for edge {i, j}, with sign + at the
 * lower node id).
 *
 * @param round       t
 * @param eta         learning rate of the round
 * @param weightDecay lambda
 * @param before      node models x^t ([n, p]) - only valid during the callback
 * @param halfStep    broadcast half-step models x^{t+1/2} ([n, p]) - only valid during the callback
 * @param edgeNoise   the per-edge pairwise terms U ([|E|, p], Decor only, else null) - only valid during the callback
 * @param graph       the communication graph (edge e of U is {@code graph.edge(e)})
 */
public record RoundTap(long round, double eta, double weightDecay, INDArray before, INDArray halfStep, INDArray edgeNoise,
                       Graph graph) {

    /** The noisy gradient node i released this round (what an eavesdropper computes). */
    public INDArray releasedGradient(int node) {
        return before.getRow(node).mul(1.0 - eta * weightDecay).subi(halfStep.getRow(node)).divi(eta);
    }

    /** Node i's released gradient minus the pairwise term it shares with neighbour j (what j computes). */
    public INDArray releasedGradientSeenByNeighbour(int node, int neighbour) {
        INDArray g = releasedGradient(node);
        if (edgeNoise == null) {
            return g;
        }
        int e = graph.edgeIndex(node, neighbour);
        INDArray v = edgeNoise.getRow(e);
        return node < neighbour ? g.subi(v) : g.addi(v);
    }
}
