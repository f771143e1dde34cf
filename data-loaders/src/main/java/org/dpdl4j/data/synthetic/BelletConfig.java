package org.dpdl4j.data.synthetic;

import java.util.Objects;

/**
 * Parameters of the collaborative linear classification workload of Bellet et al. (ALGORITHMS.md
 * section 6.6).
 *
 * @param agents          number of agents n
 * @param dim             dimension p of features and separators (&ge; 2: targets live in the first two coordinates)
 * @param gamma           similarity bandwidth in {@code W_ij = exp((cos phi_ij - 1) / gamma)}
 * @param weightThreshold similarities below it are dropped (set to 0)
 * @param minTrain        smallest number of training points of an agent
 * @param maxTrain        largest number of training points of an agent (sizes uniform in minTrain..maxTrain)
 * @param testPerAgent    test points per agent
 * @param labelNoise      probability that a label is flipped
 * @param norm            the norm in which features are bounded by 1
 */
public record BelletConfig(int agents, int dim, double gamma, double weightThreshold, int minTrain, int maxTrain,
        int testPerAgent, double labelNoise, FeatureNorm norm) {

    public BelletConfig {
        Objects.requireNonNull(norm, "norm");
        if (agents < 1) {
            throw new IllegalArgumentException("the number of agents must be at least 1, got " + agents);
        }
        if (dim < 2) {
            throw new IllegalArgumentException("the dimension must be at least 2 (the target separators use the first "
                    + "two coordinates), got " + dim);
        }
        if (!(gamma > 0) || Double.isInfinite(gamma)) {
            throw new IllegalArgumentException("the similarity bandwidth gamma must be positive and finite, got " + gamma);
        }
        if (!(weightThreshold >= 0 && weightThreshold < 1)) {
            throw new IllegalArgumentException("the similarity threshold must lie in [0, 1) (0 keeps every edge), got "
                    + weightThreshold);
        }
        if (minTrain < 1 || maxTrain < minTrain) {
            throw new IllegalArgumentException("the training points per agent must range over 1 <= smallest <= largest, "
                    + "got " + minTrain + ".." + maxTrain);
        }
        if (testPerAgent < 1) {
            throw new IllegalArgumentException("the test points per agent must be at least 1, got " + testPerAgent);
        }
        if (!(labelNoise >= 0 && labelNoise < 0.5)) {
            throw new IllegalArgumentException("the label-flip probability must lie in [0, 0.5) (at 0.5 labels are pure "
                    + "noise), got " + labelNoise);
        }
    }

    /** The paper's setting: 100 agents, p = 100, gamma 0.1, threshold 1e-3, 10..100 train and 100 test points, 5% flips, L1. */
    public static BelletConfig defaults() {
        return new BelletConfig(100, 100, 0.1, 1e-3, 10, 100, 100, 0.05, FeatureNorm.L1);
    }

    /** This configuration with another number of agents. */
    public BelletConfig withAgents(int n) {
        return new BelletConfig(n, dim, gamma, weightThreshold, minTrain, maxTrain, testPerAgent, labelNoise, norm);
    }

    /** This configuration with another dimension. */
    public BelletConfig withDim(int p) {
        return new BelletConfig(agents, p, gamma, weightThreshold, minTrain, maxTrain, testPerAgent, labelNoise, norm);
    }

    /** This configuration with another feature norm (L2 for the Gaussian variant). */
    public BelletConfig withNorm(FeatureNorm n) {
        return new BelletConfig(agents, dim, gamma, weightThreshold, minTrain, maxTrain, testPerAgent, labelNoise, n);
    }
}
