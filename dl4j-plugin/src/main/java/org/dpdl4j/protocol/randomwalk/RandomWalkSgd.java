package org.dpdl4j.protocol.randomwalk;

import org.dpdl4j.optim.RowClipping;
import org.dpdl4j.runtime.RoundWorkspace;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.ClippedBatch;
import org.dpdl4j.optim.FixedSizeSampler;
import org.dpdl4j.optim.PerExampleGradients;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.NodeData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;
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
public final class RandomWalkSgd extends AbstractTrainingRun {
    /** The protocol name. */
    public static final String PROTOCOL = "random-walk";

    private final MultiLayerNetwork template;
    private final List<NodeData> parties;
    private final RandomWalkConfig config;
    private final NoiseStreams streams;
    private final PerExampleGradients gradients;
    private final DataType type;
    private final INDArray theta;
    private final INDArray grad;
    private final int[] path;
    private final RandomWalkPrivacy privacy;
    private final String mechanism;
    private final RoundWorkspace workspace = new RoundWorkspace();

    /**
     * A walk; {@link RandomWalkRunBuilder} (from {@link #builder()}) draws the path and sets everything up.
     *
     * @param template network whose parameters are the starting token
     * @param parties  the parties' local datasets
     * @param config   the run's settings
     * @param streams  the parties' streams (private noise, local batches)
     * @param path     the party holding the token at each step, drawn independently of the data
     * @param privacy  the accounting of a private walk (null without noise)
     * @param ledger   the run's ledger (null without noise)
     * @param settings the settings recorded with the run
     * @param partitionReport how the data was split over the parties, or null
     */
    RandomWalkSgd(MultiLayerNetwork template, List<NodeData> parties, RandomWalkConfig config, NoiseStreams streams, int[] path,
                  RandomWalkPrivacy privacy, RunLedger ledger, RunSettings settings, String partitionReport) {
        super(PROTOCOL, settings, ledger);
        this.template = Objects.requireNonNull(template, "template network");
        this.parties = List.copyOf(parties);
        this.config = Objects.requireNonNull(config, "config");
        this.streams = Objects.requireNonNull(streams, "noise streams");
        if (this.parties.isEmpty()) {
            throw new IllegalArgumentException("a random walk needs at least one party");
        }
        if ((config.sigma() > 0) != (privacy != null) || (privacy != null) != (ledger != null)) {
            throw new IllegalArgumentException(config.sigma() > 0 ? "a noisy walk needs its accounting and a ledger"
                    : "a walk without noise has no accounting or ledger");
        }
        this.privacy = privacy;
        this.mechanism = privacy == null ? null : privacy.describe();
        partitionReport(partitionReport);
        this.gradients = PerExampleGradients.of(template);
        for (int k = 0; k < this.parties.size(); k++) {
            if (this.parties.get(k).features().size(1) != gradients.spec().nIn()) {
                throw new IllegalArgumentException("party " + k + " has " + this.parties.get(k).features().size(1)
                        + " features but the model takes " + gradients.spec().nIn());
            }
        }
        if (path.length != config.steps()) {
            throw new IllegalArgumentException("the path has " + path.length + " steps but the walk " + config.steps());
        }
        this.type = gradients.spec().dataType();
        this.theta = template.params().dup().castTo(type).reshape(1, gradients.spec().numParams());
        this.grad = Nd4j.create(type, 1, gradients.spec().numParams());
        this.path = path.clone();
    }

    /** Sets up a walk: parties, path, calibration, noise streams, ledger. */
    public static RandomWalkRunBuilder builder() {
        return new RandomWalkRunBuilder();
    }

    /** The token's path drawn from {@code random}: a uniformly random party at every step. */
    static int[] drawPath(int parties, long steps, RandomGenerator random) {
        int[] p = new int[(int) steps];
        for (int t = 0; t < p.length; t++) {
            p[t] = random.nextInt(parties);
        }
        return p;
    }

    @Override
    protected void takeStep(long step) {
        if (step >= config.steps()) {
            throw new IllegalStateException("all " + config.steps() + " steps of the walk are done");
        }
        int k = path[(int) step];
        if (privacy != null) {
            spend(List.of(privacy.visitOf(k)));
        }
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
            measuredLoss(batch.lossSums().getDouble(0) / x.size(0));
            grad.divi(x.size(0));
            RowClipping.clip(grad, config.gradientBound());
            if (config.sigma() > 0) {
                streams.privateNoise(k, step).addGaussian(grad, config.sigma());
            }
            theta.subi(grad.muli(config.stepSize()));
        }
    }

    /** The token's path: the party holding it at each step (a copy). */
    public int[] path() {
        return path.clone();
    }

    /** How many times each party holds the token over the whole walk. */
    public long[] visitCounts() {
        return visitCounts(parties.size(), path);
    }

    /** How many times each of {@code parties} parties holds the token on {@code path}. */
    static long[] visitCounts(int parties, int[] path) {
        long[] c = new long[parties];
        for (int k : path) {
            c[k]++;
        }
        return c;
    }

    /** Every hop charges the holder of the token one visit. */
    @Override
    public java.util.Optional<org.dpdl4j.privacy.ledger.PrivacyLedger> plannedLedger() {
        return privacy == null ? java.util.Optional.empty()
                : java.util.Optional.of(privacy.plannedLedger(path, ledger().orElseThrow().secureNoise()));
    }

    @Override
    public long plannedSteps() {
        return config.steps();
    }

    @Override
    public String stepUnit() {
        return "hop";
    }

    @Override
    public INDArray parameters() {
        return theta.dup().reshape(theta.length());
    }

    @Override
    public MultiLayerNetwork model() {
        return withParameters(template, parameters());
    }

    public RandomWalkConfig config() {
        return config;
    }

    /** The accounting of a private walk (null without noise). */
    public RandomWalkPrivacy privacy() {
        return privacy;
    }

    public MultiLayerNetwork template() {
        return template;
    }

    @Override
    public java.util.Map<String, Object> resolved() {
        java.util.Map<String, Object> r = new java.util.LinkedHashMap<>();
        r.put("parties", parties.size());
        r.put("steps", config.steps());
        r.put("stepSize", config.stepSize());
        r.put("batchSize", config.batchSize());
        if (privacy != null) {
            r.put("gradientBound", config.gradientBound());
            r.put("sigma", config.sigma());
            r.put("maxVisits", privacy.maxVisits());
        }
        return r;
    }

    /**
     * Local DP per party (each visit releases the party's clipped gradient plus its own noise to the next holder),
     * then the ledger. The network-DP bound needs the losses' smoothness, which the run does not know:
     * {@link RandomWalkPrivacy#statement(double, double)} states it for a given smoothness.
     */
    @Override
    public String privacyStatement() {
        if (privacy == null) {
            return "";
        }
        return org.dpdl4j.privacy.ledger.LedgerStatement.resumedPreamble(ledger().orElseThrow())
                + String.format(java.util.Locale.ROOT, "Privacy statement: random-walk SGD, local DP of each party against"
                        + " the next holder of the token (%s)%n  per visit: %s%n  L_F = %s, sigma = %s, %d parties, %d steps,"
                        + " at most %d visits to one party%n", privacy.relation(), mechanism, config.gradientBound(),
                config.sigma(), parties.size(), config.steps(), privacy.maxVisits())
                + org.dpdl4j.privacy.ledger.LedgerStatement.text(ledger().orElseThrow());
    }

    @Override
    public RunState state() {
        return RunState.builder().array("theta", theta).array("path", Nd4j.createFromArray(path)).build();
    }

    @Override
    protected void restoreState(RunState state, long savedStep) {
        int[] saved = state.array("path").toIntVector();
        if (!java.util.Arrays.equals(saved, path)) {
            throw new IllegalArgumentException("the saved walk followed another path than this one: the path is drawn when a"
                    + " walk is set up, from secret randomness when the noise is secure, so such a walk cannot be resumed;"
                    + " train it in one go, or use seeded noise (--noise seeded) for a walk that can be resumed");
        }
        if (savedStep > config.steps()) {
            throw new IllegalArgumentException("the saved walk is at step " + savedStep + " but the walk has " + config.steps() + " steps");
        }
        theta.assign(state.array("theta", theta.shape()));
    }

    @Override
    public void close() {
        workspace.close();
    }
}
