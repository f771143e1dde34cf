package org.dpdl4j.data.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.data.RandomStreams;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Generates the collaborative linear classification workload of Bellet et al. (after Vanhaesebrouck
 * et al. 2017; ALGORITHMS.md section 6.6).
 *
 * <p>Agent i has a target separator whose first two entries are N(0, 1) and the rest 0. The
 * similarity of agents i and j is {@code exp((cos phi_ij - 1) / gamma)} with phi_ij the angle between
 * their targets; values below the threshold are dropped and the diagonal is 0. Agent i draws
 * m_i ~ U{minTrain..maxTrain} training points and a fixed number of test points, each uniform in
 * the cube [-1, 1]^p and divided by the cube's largest norm (p in L1, sqrt(p) in L2), so that every
 * point has norm at most 1 and the points stay uniform in a cube; the label is the sign of
 * {@code target . x} (+1 at 0), flipped with the configured probability. Test points follow the same
 * distribution, label noise included.
 */
public final class BelletCollaborativeClassification {
    private BelletCollaborativeClassification() {
    }

    /** An instance with the paper's defaults. */
    public static BelletProblem generate(long seed) {
        return generate(BelletConfig.defaults(), seed);
    }

    /** An instance for the configuration; the same seed gives the same instance. */
    public static BelletProblem generate(BelletConfig config, long seed) {
        int n = config.agents();
        int p = config.dim();
        double[][] targets = new double[n][];
        for (int i = 0; i < n; i++) {
            targets[i] = target(p, RandomStreams.stream(seed, "bellet-target", i));
        }
        List<BelletAgent> agents = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SplittableRandom size = RandomStreams.stream(seed, "bellet-train-size", i);
            int m = config.minTrain() + size.nextInt(config.maxTrain() - config.minTrain() + 1);
            LabeledData train = points("bellet/agent" + i + "/train", m, targets[i], config,
                    RandomStreams.stream(seed, "bellet-train-points", i));
            LabeledData test = points("bellet/agent" + i + "/test", config.testPerAgent(), targets[i], config,
                    RandomStreams.stream(seed, "bellet-test-points", i));
            agents.add(new BelletAgent(i, targets[i], train, test));
        }
        return new BelletProblem(config, seed, agents, similarity(targets, config.gamma(), config.weightThreshold()));
    }

    /** {@code W_ij = exp((cos phi_ij - 1) / gamma)}, 0 below the threshold and on the diagonal. */
    static double[][] similarity(double[][] targets, double gamma, double threshold) {
        int n = targets.length;
        double[] norms = new double[n];
        for (int i = 0; i < n; i++) {
            norms[i] = Math.sqrt(dot(targets[i], targets[i]));
        }
        double[][] w = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double cos = Math.max(-1, Math.min(1, dot(targets[i], targets[j]) / (norms[i] * norms[j])));
                double wij = Math.exp((cos - 1) / gamma);
                if (wij < threshold) {
                    wij = 0;
                }
                w[i][j] = wij;
                w[j][i] = wij;
            }
        }
        return w;
    }

    private static double[] target(int p, SplittableRandom rng) {
        double[] t = new double[p];
        do { // a zero vector has no angle; it has probability 0 but must not yield NaN similarities
            t[0] = rng.nextGaussian();
            t[1] = rng.nextGaussian();
        } while (t[0] == 0 && t[1] == 0);
        return t;
    }

    private static LabeledData points(String name, int m, double[] target, BelletConfig config, SplittableRandom rng) {
        int p = config.dim();
        double radius = config.norm().cubeRadius(p);
        float[] x = new float[m * p];
        int[] labels = new int[m];
        double[] point = new double[p];
        for (int k = 0; k < m; k++) {
            for (int j = 0; j < p; j++) {
                x[k * p + j] = (float) ((2 * rng.nextDouble() - 1) / radius);
                point[j] = x[k * p + j]; // label the stored (float) point, so labels and features agree exactly
            }
            int cls = dot(target, point) >= 0 ? 1 : 0;
            if (rng.nextDouble() < config.labelNoise()) {
                cls = 1 - cls;
            }
            labels[k] = cls;
        }
        return new LabeledData(name, Nd4j.create(x, new long[] {m, p}, DataType.FLOAT), labels, 2);
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
