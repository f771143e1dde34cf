package org.dpdl4j.protocol.federated;

import org.dpdl4j.runtime.RoundWorkspace;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Random-walk SGD on the complete graph (Cyffers and Bellet 2022; spec 7.4): a single model (the token) hops to
 * a uniformly random party at every step, and the holder k updates it,
 * {@code theta <- theta - gamma (Clip_{L_F}(grad F_k(theta; D_k)) + eta)}, {@code eta ~ N(0, sigma^2 I)} from k's
 * private stream. The path is drawn once, up front, from {@code streams.sampling(0, 0)} (secure randomness with
 * secure streams: network DP relies on a party not knowing who held the token); it is independent of the data,
 * so the per-party visit counts it implies are what the accountant ({@link RandomWalkPrivacy}) composes over.
 */
public final class RandomWalkSgd implements FederatedTrainer {
    private final MultiLayerNetwork template;
    private final List<NodeData> parties;
    private final RandomWalkConfig config;
    private final NoiseStreams streams;
    private final PerExampleGradients gradients;
    private final DataType type;
    private final INDArray theta;
    private final INDArray grad;
    private int[] path;
    private long step;
    private double lastLoss = Double.NaN;
    private final RoundWorkspace workspace = new RoundWorkspace();

    /**
     * @param template network whose parameters are the starting token
     * @param parties  the parties' local datasets
     * @param config   the run's settings
     * @param streams  the parties' streams (private noise, local batches, the path)
     */
    public RandomWalkSgd(MultiLayerNetwork template, List<NodeData> parties, RandomWalkConfig config, NoiseStreams streams) {
        this.template = Objects.requireNonNull(template, "template network");
        this.parties = List.copyOf(parties);
        this.config = Objects.requireNonNull(config, "config");
        this.streams = Objects.requireNonNull(streams, "noise streams");
        if (this.parties.isEmpty()) {
            throw new IllegalArgumentException("a random walk needs at least one party");
        }
        this.gradients = PerExampleGradients.of(template);
        for (int k = 0; k < this.parties.size(); k++) {
            if (this.parties.get(k).features().size(1) != gradients.spec().nIn()) {
                throw new IllegalArgumentException("party " + k + " has " + this.parties.get(k).features().size(1)
                        + " features but the model takes " + gradients.spec().nIn());
            }
        }
        this.type = gradients.spec().dataType();
        this.theta = template.params().dup().castTo(type).reshape(1, gradients.spec().numParams());
        this.grad = Nd4j.create(type, 1, gradients.spec().numParams());
        this.path = drawPath(this.parties.size(), config.steps(), streams.sampling(0, 0));
    }

    private static int[] drawPath(int parties, long steps, RandomGenerator random) {
        int[] p = new int[(int) steps];
        for (int t = 0; t < p.length; t++) {
            p[t] = random.nextInt(parties);
        }
        return p;
    }

    @Override
    public void step() {
        if (step >= config.steps()) {
            throw new IllegalStateException("all " + config.steps() + " steps of the walk are done");
        }
        int k = path[(int) step];
        try (var ws = workspace.open()) {
            NodeData d = parties.get(k);
            int m = (int) d.size();
            INDArray x;
            INDArray y;
            if (config.batchSize() == 0 || config.batchSize() >= m) {
                x = d.features();
                y = d.labels();
            } else {
                int[] rows = new FixedSizeSampler(m, config.batchSize()).sample(streams.sampling(k, step + 1));
                x = d.features().getRows(rows);
                y = d.labels().getRows(rows);
            }
            ClippedBatch batch = gradients.clippedSum(theta, x.castTo(type), y.castTo(type), null, Double.POSITIVE_INFINITY, grad);
            lastLoss = batch.lossSums().getDouble(0) / x.size(0);
            grad.divi(x.size(0));
            RowClipping.clip(grad, config.gradientBound());
            if (config.sigma() > 0) {
                streams.privateNoise(k, step).addGaussian(grad, config.sigma());
            }
            theta.subi(grad.muli(config.stepSize()));
        }
        step++;
    }

    /** The token's path: the party holding it at each step (a copy). */
    public int[] path() {
        return path.clone();
    }

    /** How many times each party holds the token over the whole walk. */
    public long[] visitCounts() {
        long[] c = new long[parties.size()];
        for (int k : path) {
            c[k]++;
        }
        return c;
    }

    /** The party that holds the token at the next step. */
    public int currentHolder() {
        return path[(int) Math.min(step, path.length - 1)];
    }

    @Override
    public long round() {
        return step;
    }

    @Override
    public long plannedRounds() {
        return config.steps();
    }

    @Override
    public INDArray model() {
        return theta.dup().reshape(theta.length());
    }

    @Override
    public double lastLoss() {
        return lastLoss;
    }

    public RandomWalkConfig config() {
        return config;
    }

    @Override
    public MultiLayerNetwork template() {
        return template;
    }

    @Override
    public String algorithm() {
        return "random-walk-sgd";
    }

    @Override
    public long seed() {
        return config.seed();
    }

    @Override
    public Map<String, INDArray> state() {
        Map<String, INDArray> s = new LinkedHashMap<>();
        s.put("theta", theta.dup());
        s.put("path", Nd4j.createFromArray(path));
        return s;
    }

    @Override
    public void restore(long savedStep, Map<String, INDArray> state) {
        INDArray savedTheta = state.get("theta");
        INDArray savedPath = state.get("path");
        if (savedTheta == null || savedPath == null) {
            throw new IllegalArgumentException("checkpoint lacks the arrays 'theta' and 'path' of a random-walk run; it is from another algorithm");
        }
        if (savedTheta.length() != theta.length() || savedPath.length() != path.length) {
            throw new IllegalArgumentException("checkpoint holds " + savedTheta.length() + " parameters and a path of " + savedPath.length()
                    + " steps, but this run has " + theta.length() + " and " + path.length);
        }
        if (savedStep < 0 || savedStep > config.steps()) {
            throw new IllegalArgumentException("checkpoint is at step " + savedStep + " but the walk has " + config.steps() + " steps");
        }
        theta.assign(savedTheta.reshape(theta.shape()));
        path = savedPath.toIntVector();
        step = savedStep;
    }

    @Override
    public void close() {
        workspace.close();
    }
}
