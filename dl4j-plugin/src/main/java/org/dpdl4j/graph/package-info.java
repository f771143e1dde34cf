/**
 * Communication graphs and the matrices built on them. {@link Graph} is an immutable simple undirected graph (built
 * with {@link GraphBuilder}; stable {@link Edge} indices; adjacency, Laplacian and incidence matrices; connectivity
 * and a cached {@link SymmetricEigendecomposition} of the Laplacian), {@link InducedSubgraph} keeps a vertex subset
 * with the map to its original ids, {@link Topologies} and the command-line {@link TopologySpec} build standard and
 * random topologies or read an {@link EdgeListFile}, {@link MixingMatrix} holds gossip weights, and
 * {@link SparseRowOperator} applies a fixed sparse matrix to stacked rows.
 *
 * <p>This package knows nothing of privacy or training: pairwise noise keyed by edge is in
 * {@code org.dpdl4j.privacy.noise}, the accountant that uses the spectrum in
 * {@code org.dpdl4j.privacy.accounting.correlated}, and gossip training in
 * {@code org.dpdl4j.protocol.decentralized}.
 */
package org.dpdl4j.graph;
