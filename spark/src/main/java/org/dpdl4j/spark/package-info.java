/**
 * dpdl4j's decentralized and federated protocols on Apache Spark. {@link org.dpdl4j.spark.SparkBlocks} places the
 * blocks of a run's parties on a cluster's executors (each opened once and kept there, stepped once per round by a
 * Spark job whose tasks carry only the round's messages); {@link org.dpdl4j.spark.SparkEngine} is the
 * {@code --engine spark} of the command line; {@link org.dpdl4j.spark.StandaloneCluster} starts a standalone master and
 * workers on this machine.
 */
package org.dpdl4j.spark;
