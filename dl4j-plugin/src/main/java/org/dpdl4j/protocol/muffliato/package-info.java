/**
 * Muffliato (Cyffers, Even, Bellet and Massoulie 2022): local Gaussian noise followed by gossip averaging, and what
 * each node learns about each other one. {@link GossipPolynomial} runs plain or Chebyshev-accelerated gossip on the
 * stacked node values, {@link MuffliatoAveraging} is the private averaging, {@link PairwiseNetworkDp} the exact pairwise
 * network-DP accountant of a gossip observer (the paper's per-message sum is kept beside it for comparison only),
 * {@link MuffliatoGd} the training run that alternates noisy local gradient steps with gossip, set up by
 * {@link MuffliatoRunBuilder} and registered as {@code muffliato} by {@link MuffliatoProtocol}, its own provider.
 * Other gossip protocols are in {@code org.dpdl4j.protocol.decentralized}.
 */
package org.dpdl4j.protocol.muffliato;
