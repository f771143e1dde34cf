package org.dpdl4j.data.synthetic;

import java.util.List;
import java.util.Objects;

/**
 * A generated instance of the collaborative linear classification workload.
 *
 * @param config     the parameters it was generated with
 * @param seed       the seed it was generated with
 * @param agents     the agents, indexed by id
 * @param similarity the n x n similarity matrix W: symmetric, zero diagonal, entries in [0, 1]
 */
public record BelletProblem(BelletConfig config, long seed, List<BelletAgent> agents, double[][] similarity) {
    public BelletProblem {
        Objects.requireNonNull(config, "config");
        agents = List.copyOf(agents);
        similarity = copy(similarity);
    }

    /** A copy of the similarity matrix. */
    @Override
    public double[][] similarity() {
        return copy(similarity);
    }

    /** The degree {@code D_ii = sum_j W_ij} of agent i. */
    public double degree(int i) {
        double s = 0;
        for (double w : similarity[i]) {
            s += w;
        }
        return s;
    }

    /** The target separators, one row per agent. */
    public double[][] targets() {
        double[][] t = new double[agents.size()][];
        for (int i = 0; i < t.length; i++) {
            t[i] = agents.get(i).target();
        }
        return t;
    }

    private static double[][] copy(double[][] m) {
        double[][] c = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }
}
