package org.dpdl4j.protocol.decentralized;

/**
 * How a node's local objective aggregates its examples: the mean (a9a, MNIST: the mini-batch mean
 * gradient) or the sum (Decor's synthetic task, {@code f_i(x) = 1/2 ||A_i x - b_i||^2} over all rows).
 */
public enum LocalObjective {
    MEAN,
    SUM
}
