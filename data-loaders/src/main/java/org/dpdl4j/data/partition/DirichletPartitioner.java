package org.dpdl4j.data.partition;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpdl4j.data.RandomStreams;

/**
 * Label-skewed partition: for each class, its examples (in random order) are cut into n
 * consecutive pieces whose sizes follow proportions drawn from a symmetric Dirichlet(alpha)
 * over the nodes (rounded by largest remainder, so the pieces cover the class exactly).
 * Large alpha approaches an iid split; small alpha gives each node few classes.
 *
 * <p>Unlike a split helper that hands out overlapping index ranges, every example goes to exactly
 * one node. If some node receives no example at all the partition fails instead of retrying with
 * other draws, so a reported seed always reproduces the reported partition.
 *
 * @param alpha the Dirichlet concentration, &gt; 0
 */
public record DirichletPartitioner(double alpha) implements Partitioner {
    public DirichletPartitioner {
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("Dirichlet concentration alpha must be a positive finite number, got "
                    + alpha + "; small values (0.1) give strong label skew, large values (100) nearly iid splits");
        }
    }

    @Override
    public Partition partition(int[] labels, int numClasses, int nodes, long seed) {
        PartitionSupport.checkArguments(labels, numClasses, nodes);
        int[][] byClass = PartitionSupport.indicesByClass(labels, numClasses);
        int[][] counts = new int[numClasses][];
        int[] sizes = new int[nodes];
        for (int c = 0; c < numClasses; c++) {
            SplittableRandom rng = RandomStreams.stream(seed, "partition-dirichlet-proportions", c);
            counts[c] = largestRemainder(GammaSampler.dirichlet(alpha, nodes, rng), byClass[c].length);
            for (int k = 0; k < nodes; k++) {
                sizes[k] += counts[c][k];
            }
        }
        for (int k = 0; k < nodes; k++) {
            if (sizes[k] == 0) {
                throw new IllegalArgumentException("Dirichlet(alpha=" + alpha + ") partition of " + labels.length
                        + " examples over " + nodes + " nodes (seed " + seed + ") leaves node " + k
                        + " with no examples; use a larger alpha, fewer nodes, or another seed");
            }
        }
        int[][] nodeIndices = new int[nodes][];
        for (int k = 0; k < nodes; k++) {
            nodeIndices[k] = new int[sizes[k]];
        }
        int[] fill = new int[nodes];
        for (int c = 0; c < numClasses; c++) {
            int[] members = byClass[c];
            RandomStreams.shuffle(members, RandomStreams.stream(seed, "partition-dirichlet-order", c));
            int from = 0;
            for (int k = 0; k < nodes; k++) {
                System.arraycopy(members, from, nodeIndices[k], fill[k], counts[c][k]);
                fill[k] += counts[c][k];
                from += counts[c][k];
            }
        }
        return new Partition("Dirichlet(alpha=" + alpha + ") label-skew partition (seed " + seed + ")", nodeIndices,
                labels, numClasses);
    }

    /**
     * Integer counts summing to {@code total} and proportional to {@code p}: the floors, plus one for
     * the largest fractional parts (ties to the lower index).
     */
    static int[] largestRemainder(double[] p, int total) {
        int k = p.length;
        int[] counts = new int[k];
        double[] remainder = new double[k];
        int assigned = 0;
        for (int i = 0; i < k; i++) {
            double exact = p[i] * total;
            counts[i] = (int) Math.floor(exact);
            remainder[i] = exact - counts[i];
            assigned += counts[i];
        }
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> remainder[a] != remainder[b] ? Double.compare(remainder[b], remainder[a])
                : Integer.compare(a, b));
        for (int j = 0; assigned < total; j = (j + 1) % k) {
            counts[order[j]]++;
            assigned++;
        }
        return counts;
    }
}
