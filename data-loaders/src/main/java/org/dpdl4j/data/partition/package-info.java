/**
 * Splits of a data set's examples over n nodes. A {@link Partitioner} ({@link IidPartitioner}, label-skewed
 * {@link DirichletPartitioner}, McMahan et al.'s {@link ShardPartitioner}, or one parsed from text such as
 * {@code dirichlet:0.5}) produces a {@link Partition} in which every example belongs to exactly one node and no
 * node is empty, deterministically for a seed; {@link GammaSampler} supplies the Dirichlet draws. The training
 * library does not use this package directly: it takes any {@code org.dpdl4j.runtime.PartySplit}, and
 * {@code org.dpdl4j.attacks.observe.PartitionSchemes} adapts these partitioners to it.
 */
package org.dpdl4j.data.partition;
