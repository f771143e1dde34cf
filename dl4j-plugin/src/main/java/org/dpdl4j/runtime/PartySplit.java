package org.dpdl4j.runtime;

/**
 * Assigns the examples of a training set to parties (nodes, machines, clients): deterministic for a seed, every
 * example to exactly one party, no party empty. The data loaders' partitioners (iid, Dirichlet label skew, shards)
 * have this shape.
 */
@FunctionalInterface
public interface PartySplit {

    /**
     * @param classLabels the class of each example (all 0 for regression)
     * @param numClasses  the number of classes (1 for regression)
     * @param parties     how many parties
     * @param seed        the run's seed
     * @return the example indices of each party, with a report for the run directory
     * @throws IllegalArgumentException when the split is impossible (more parties than examples, an empty party)
     */
    Parties assign(int[] classLabels, int numClasses, int parties, long seed);

    /**
     * A split's result.
     *
     * @param indices the example indices of each party
     * @param report  a table of each party's size and classes, for people
     */
    record Parties(int[][] indices, String report) {
        public Parties {
            java.util.Objects.requireNonNull(indices, "indices");
            java.util.Objects.requireNonNull(report, "report");
        }
    }
}
