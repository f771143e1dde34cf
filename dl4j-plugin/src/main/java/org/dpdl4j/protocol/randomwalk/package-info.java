/**
 * Random-walk SGD (Cyffers and Bellet 2022), in which one token model hops between parties and each holder takes a
 * noisy clipped gradient step: {@link RandomWalkSgd} runs it with the path drawn up front, independently of the
 * data, {@link RandomWalkRunBuilder} sets it up from a {@link RandomWalkConfig}, and {@link RandomWalkProtocol}
 * registers it as {@code random-walk} (it is its own provider). {@link RandomWalkPrivacy} accounts local DP per
 * party over its visits and can report the network-DP bound of {@link NetworkDpBound} beside it, never in its place
 * (that bound is marked as needing review). Server-based protocols are in {@code org.dpdl4j.protocol.federated} and
 * gossip protocols in {@code org.dpdl4j.protocol.decentralized}.
 */
package org.dpdl4j.protocol.randomwalk;
