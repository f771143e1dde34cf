package org.dpdl4j.experiments.tuning;

import org.dpdl4j.tuning.TuningCost;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.deeplearning4j.arbiter.ComputationGraphSpace;
import org.deeplearning4j.arbiter.DL4JConfiguration;
import org.deeplearning4j.arbiter.GraphConfiguration;
import org.deeplearning4j.arbiter.MultiLayerSpace;
import org.deeplearning4j.arbiter.optimize.api.Candidate;
import org.deeplearning4j.arbiter.optimize.api.ParameterSpace;
import org.deeplearning4j.arbiter.optimize.generator.RandomSearchGenerator;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.DpSgdPlan;
import org.dpdl4j.optim.IteratorContents;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.privacy.noise.NoiseSource;
import org.dpdl4j.runtime.TrainingDivergedException;
import org.dpdl4j.tuning.CandidateCount;
import org.nd4j.evaluation.classification.Evaluation;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Private hyperparameter tuning of your own DL4J network on your own data, from Java, with the cost of choosing in the
 * released model's ledger (Papernot &amp; Steinke, ICLR 2022). The search space is Arbiter's: a {@link MultiLayerSpace}
 * or {@link ComputationGraphSpace} (layer sizes, activations, the updater and its learning rate...), or any
 * {@link ParameterSpace} with a function that makes a network of its values. Every candidate trains with DP-SGD
 * ({@link PrivateTrainer}) under one {@link DpSgdConfig}; with {@link Builder#totalEpsilon}, the candidates' target epsilon
 * is calibrated so that the released model spends at most that total, tuning included.
 *
 * <ol>
 *   <li>A pool of configurations is drawn from the space (Arbiter's random search) before any data is read, and every
 *       member is checked to make a private trainer on the data.</li>
 *   <li>The cost is priced from the candidates' planned ledger, composed with the noisy validation score: it is known
 *       before training ({@link #cost()}).</li>
 *   <li>A secret random number K of candidates ({@link CandidateCount}) each train a configuration drawn uniformly from
 *       the pool, and release their validation accuracy with Gaussian noise on the count of correct predictions.</li>
 *   <li>The best candidate's model is released; its ledger holds one repeat-and-select event.</li>
 * </ol>
 *
 * <pre>{@code
 * PrivateTuningResult<DL4JConfiguration, MultiLayerNetwork> tuned = PrivateTuning.of(space)
 *         .privacy(DpSgdConfig.builder().clipNorm(1).targetEpsilon(1).delta(1e-5).batchSize(256).epochs(3).build())
 *         .totalEpsilon(4).candidates(CandidateCount.geometric(8)).pool(16)
 *         .data(trainIterator).validation(validationIterator)
 *         .build().run();
 * MultiLayerNetwork best = tuned.model().orElseThrow();   // spent tuned.epsilon(), tuning included
 * }</pre>
 *
 * <p>The space searches the network and its optimizer; the private mechanism (clip, batch, epochs, delta) is the
 * config's, the same for every candidate. {@link PrivateTuningResult#candidates()} shows K: keep it to yourself.
 *
 * @param <T> the search space's values
 * @param <M> the network type
 */
public final class PrivateTuning<T, M extends Model> {
    /** The default standard deviation of the noise on the count of correct validation predictions. */
    public static final double DEFAULT_SCORE_NOISE = 20;

    private final Builder<T, M> settings;
    private final List<T> pool;
    private final DpSgdConfig candidateConfig;
    private final TuningCost cost;

    private PrivateTuning(Builder<T, M> settings, List<T> pool, DpSgdConfig candidateConfig, TuningCost cost) {
        this.settings = settings;
        this.pool = List.copyOf(pool);
        this.candidateConfig = candidateConfig;
        this.cost = cost;
    }

    /** Tuning over Arbiter's space of multi-layer networks. */
    public static Builder<DL4JConfiguration, MultiLayerNetwork> of(MultiLayerSpace space) {
        return new Builder<>(space, c -> {
            MultiLayerNetwork net = new MultiLayerNetwork(c.getMultiLayerConfiguration());
            net.init();
            return net;
        });
    }

    /** Tuning over Arbiter's space of computation graphs (one input, one output). */
    public static Builder<GraphConfiguration, ComputationGraph> of(ComputationGraphSpace space) {
        return new Builder<>(space, c -> {
            ComputationGraph graph = new ComputationGraph(c.getConfiguration());
            graph.init();
            return graph;
        });
    }

    /** Tuning over any Arbiter space, {@code networks} making an initialised network of each of its values. */
    public static <T, M extends Model> Builder<T, M> of(ParameterSpace<T> space, Function<T, M> networks) {
        return new Builder<>(space, networks);
    }

    /** The tuning's cost, known before any candidate trains. */
    public TuningCost cost() {
        return cost;
    }

    /** Every candidate's DP-SGD settings (with the calibrated target epsilon when a total was given). */
    public DpSgdConfig candidateConfig() {
        return candidateConfig;
    }

    /** The configurations the candidates draw from. */
    public List<T> pool() {
        return pool;
    }

    /**
     * Trains the K candidates and releases the best.
     *
     * @throws IllegalStateException when a candidate fails for another reason than divergence or the budget
     */
    public PrivateTuningResult<T, M> run() {
        NoiseKind noise = settings.noise;
        long seed = settings.seed;
        long k = settings.count.sample(noise.sampling(new NoiseKey(seed, "tuning-count", 0, 0)));
        RandomGenerator draws = noise.sampling(new NoiseKey(seed, "tuning-draws", 0, 0));
        NoiseSource scoreNoise = noise.source(new NoiseKey(seed, "tuning-score", 0, 0));
        List<TunedCandidate<T>> candidates = new ArrayList<>();
        M best = null;
        TunedCandidate<T> bestCandidate = null;
        try {
            for (int i = 0; i < k; i++) {
                int member = draws.nextInt(pool.size());
                M net = settings.networks.apply(pool.get(member));
                CandidateResult.Outcome outcome = CandidateResult.Outcome.COMPLETED;
                double epsilon;
                long steps;
                try (PrivateTrainer trainer = trainer(net, candidateConfig)
                        .noise(noise.source(new NoiseKey(seed, "tuning-candidate", i, 0)))
                        .sampling(noise.sampling(new NoiseKey(seed + i, "tuning-sampling", i, 0))).build()) {
                    try {
                        trainer.fit();
                        trainer.requireFiniteParameters();
                    } catch (PrivacyBudgetExceededException e) {
                        outcome = CandidateResult.Outcome.BUDGET_REACHED;
                    } catch (TrainingDivergedException e) {
                        outcome = CandidateResult.Outcome.DIVERGED;
                    }
                    epsilon = trainer.epsilon();
                    steps = trainer.steps();
                }
                double score = outcome == CandidateResult.Outcome.DIVERGED ? Double.NEGATIVE_INFINITY
                        : ValidationScore.released(accuracy(net), settings.validationLabels.size(0), settings.scoreNoise,
                        scoreNoise);
                TunedCandidate<T> c = new TunedCandidate<>(i, member, pool.get(member), outcome, score, epsilon, steps);
                candidates.add(c);
                if (outcome != CandidateResult.Outcome.DIVERGED && (bestCandidate == null || score > bestCandidate.score())) {
                    bestCandidate = c;
                    best = net;
                }
            }
        } finally {
            if (scoreNoise instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    // nothing was drawn after this point
                }
            }
        }
        var ledger = cost.ledger(Double.isNaN(settings.totalEpsilon) ? PrivacyBudget.unlimited(cost.delta())
                : new PrivacyBudget(settings.totalEpsilon, cost.delta()), noise.isSecure());
        TunedCandidate<T> chosen = bestCandidate;
        return new PrivateTuningResult<>(Optional.ofNullable(best), Optional.ofNullable(chosen).map(TunedCandidate::configuration),
                Optional.ofNullable(chosen).map(TunedCandidate::score), ledger, cost,
                statement(ledger, chosen != null), List.copyOf(candidates));
    }

    private PrivateTrainer.Builder trainer(Model net, DpSgdConfig config) {
        PrivateTrainer.Builder b = net instanceof ComputationGraph graph ? PrivateTrainer.builder(graph, config)
                : PrivateTrainer.builder((MultiLayerNetwork) net, config);
        return b.data(settings.features, settings.labels);
    }

    /** The exact validation accuracy of a network (released only through {@link ValidationScore#released}). */
    private double accuracy(Model net) {
        INDArray x = settings.validationFeatures;
        INDArray y = settings.validationLabels;
        Evaluation e = new Evaluation();
        long n = x.size(0);
        for (long from = 0; from < n; from += 1024) {
            long to = Math.min(n, from + 1024);
            INDArray xs = x.get(NDArrayIndex.interval(from, to));
            INDArray out = net instanceof ComputationGraph g ? g.outputSingle(xs) : ((MultiLayerNetwork) net).output(xs);
            e.eval(y.get(NDArrayIndex.interval(from, to)), out);
        }
        return e.accuracy();
    }

    private String statement(org.dpdl4j.privacy.ledger.RunLedger ledger, boolean released) {
        StringBuilder s = new StringBuilder();
        if (!ledger.secureNoise()) {
            s.append("WARNING: SEEDED NOISE, NO GUARANTEE. The candidates' noise, the noise on their scores and the draws of"
                    + " K and of the candidates are reproducible from the seed: anyone who knows it can remove the noise and"
                    + " recompute K, so the numbers below describe the noise level, not a guarantee.\n\n");
        }
        s.append(TuningStatement.epsilon(cost, ledger));
        s.append(released ? "  Released: the best candidate's model, its configuration and its noisy validation score.\n"
                : "  Released: nothing but this statement: no candidate produced a model (K = 0, or every candidate"
                + " diverged).\n");
        s.append(TuningStatement.howAndBound(cost, String.format(Locale.ROOT, "the %,d training examples (DP-SGD, %s), scored"
                + " on %,d validation examples", settings.features.size(0), candidateConfig.settings().texts(),
                settings.validationLabels.size(0))));
        s.append("  Not covered: the tuner's own record (PrivateTuningResult.candidates(): every candidate and its score,"
                + " which show K); publishing it releases more than the best candidate.\n");
        return s.append('\n').append(LedgerStatement.text(ledger)).toString();
    }

    /**
     * The settings of a private tuning. Required: {@link #privacy}, {@link #data} and {@link #validation}.
     *
     * @param <T> the search space's values
     * @param <M> the network type
     */
    public static final class Builder<T, M extends Model> {
        private final ParameterSpace<T> space;
        private final Function<T, M> networks;
        private DpSgdConfig config;
        private double totalEpsilon = Double.NaN;
        private CandidateCount count = CandidateCount.geometric(10);
        private int poolSize = 16;
        private double scoreNoise = DEFAULT_SCORE_NOISE;
        private NoiseKind noise = NoiseKind.SECURE;
        private long seed = 1;
        private INDArray features;
        private INDArray labels;
        private INDArray validationFeatures;
        private INDArray validationLabels;

        private Builder(ParameterSpace<T> space, Function<T, M> networks) {
            this.space = Objects.requireNonNull(space, "search space");
            this.networks = Objects.requireNonNull(networks, "network maker");
        }

        /**
         * Every candidate's DP-SGD settings. With {@link #totalEpsilon} the target epsilon is replaced by a calibrated
         * one (the config must then be built with {@code targetEpsilon}, whose value does not matter).
         */
        public Builder<T, M> privacy(DpSgdConfig candidateConfig) {
            this.config = Objects.requireNonNull(candidateConfig, "candidates' DP-SGD settings");
            return this;
        }

        /** The epsilon the released model may spend, tuning included: the candidates' target is calibrated to it. */
        public Builder<T, M> totalEpsilon(double epsilon) {
            if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
                throw new IllegalArgumentException("the total epsilon must be a positive finite number, got " + epsilon);
            }
            this.totalEpsilon = epsilon;
            return this;
        }

        /** The distribution of the secret number of candidates K (default: geometric with mean 10). */
        public Builder<T, M> candidates(CandidateCount distribution) {
            this.count = Objects.requireNonNull(distribution, "candidate count");
            return this;
        }

        /** How many configurations the pool holds, drawn from the space before any data is read (default 16). */
        public Builder<T, M> pool(int size) {
            if (size < 1 || size > CandidatePool.MAX_SIZE) {
                throw new IllegalArgumentException("the pool holds 1 to " + CandidatePool.MAX_SIZE + " configurations, got " + size);
            }
            this.poolSize = size;
            return this;
        }

        /**
         * The standard deviation of the Gaussian noise on the count of correct validation predictions (default
         * {@value #DEFAULT_SCORE_NOISE}): the validation examples are private too.
         */
        public Builder<T, M> scoreNoise(double std) {
            if (!(std > 0) || Double.isInfinite(std)) {
                throw new IllegalArgumentException("the score noise must be a positive finite standard deviation, got " + std
                        + ": the validation examples are private, so their score is released with noise");
            }
            this.scoreNoise = std;
            return this;
        }

        /**
         * Where the noise and the draws come from: {@link NoiseKind#SECURE} (default) or {@link NoiseKind#SEEDED},
         * reproducible from {@link #seed} for experiments and tests, which guarantees nothing.
         */
        public Builder<T, M> noise(NoiseKind kind) {
            this.noise = Objects.requireNonNull(kind, "noise kind");
            return this;
        }

        /** The seed of the pool's draw from the space (and of every draw, with seeded noise). */
        public Builder<T, M> seed(long value) {
            this.seed = value;
            return this;
        }

        /** The private training examples, as a {@link PrivateTrainer} takes them. */
        public Builder<T, M> data(INDArray trainFeatures, INDArray trainLabels) {
            this.features = Objects.requireNonNull(trainFeatures, "training features");
            this.labels = Objects.requireNonNull(trainLabels, "training labels");
            return this;
        }

        /** The private training examples of an iterator, read once into memory. */
        public Builder<T, M> data(DataSetIterator train) {
            IteratorContents c = IteratorContents.read(train);
            return data(c.features(), c.labels());
        }

        /** The validation examples that score the candidates (one-hot labels); private too, so scored with noise. */
        public Builder<T, M> validation(INDArray validationFeatures, INDArray validationLabels) {
            this.validationFeatures = Objects.requireNonNull(validationFeatures, "validation features");
            this.validationLabels = Objects.requireNonNull(validationLabels, "validation labels");
            return this;
        }

        /** The validation examples of an iterator, read once into memory. */
        public Builder<T, M> validation(DataSetIterator validation) {
            IteratorContents c = IteratorContents.read(validation);
            return validation(c.features(), c.labels());
        }

        /**
         * Draws the pool, checks that every member makes a private trainer on the data, and prices the tuning
         * (calibrating the candidates' epsilon to the total when one is given).
         *
         * @throws IllegalArgumentException naming what is missing or does not fit, and the fix
         */
        public PrivateTuning<T, M> build() {
            if (config == null) {
                throw new IllegalArgumentException("give every candidate's DP-SGD settings with privacy(DpSgdConfig)");
            }
            if (features == null || validationFeatures == null) {
                throw new IllegalArgumentException("give the training examples with data(...) and the validation examples,"
                        + " which score the candidates, with validation(...)");
            }
            List<T> pool = drawPool();
            long n = features.size(0);
            Optional<GaussianEvent> score = Optional.of(new GaussianEvent(scoreNoise));
            DpSgdConfig candidate = config;
            if (!Double.isNaN(totalEpsilon)) {
                if (Double.isNaN(config.targetEpsilon())) {
                    double total = price(config, n, score).epsilon();
                    if (total > totalEpsilon) {
                        throw new IllegalArgumentException(String.format(Locale.ROOT, "with the candidates' fixed noise"
                                + " multiplier the tuning would spend epsilon = %.4g > the total %s: give the candidates a"
                                + " targetEpsilon(...) instead, which is then calibrated, or raise the total", total, totalEpsilon));
                    }
                } else {
                    try {
                        candidate = config.withTargetEpsilon(CandidateEpsilon.within(e -> totalAt(e, n, score), totalEpsilon));
                    } catch (CandidateEpsilon.Unreachable u) {
                        throw new IllegalArgumentException(Double.isNaN(u.lowest())
                                ? "the total epsilon " + totalEpsilon + " cannot be met: a single candidate cannot even be"
                                + " calibrated to it; raise the total"
                                : String.format(Locale.ROOT, "the total epsilon %s cannot be met: even candidates at epsilon"
                                + " = %.3g each cost more once the tuning and the score are added; raise the total, raise"
                                + " scoreNoise(...), or expect fewer candidates", totalEpsilon, u.lowest()));
                    }
                }
            }
            checkMembers(pool, candidate);
            return new PrivateTuning<>(this, pool, candidate, price(candidate, n, score));
        }

        /** Arbiter's random search over the space, seeded: the pool, fixed before any data is read. */
        @SuppressWarnings("unchecked")
        private List<T> drawPool() {
            RandomSearchGenerator generator = new RandomSearchGenerator(space);
            generator.setRngSeed(seed);
            List<T> out = new ArrayList<>();
            while (out.size() < poolSize && generator.hasMoreCandidates()) {
                Candidate<?> c = generator.getCandidate();
                if (c.getException() != null) {
                    throw new IllegalArgumentException("Arbiter could not make a configuration of the search space: "
                            + c.getException().getMessage(), c.getException());
                }
                out.add((T) c.getValue());
            }
            return out;
        }

        private double totalAt(double candidateEpsilon, long n, Optional<GaussianEvent> score) {
            try {
                return price(config.withTargetEpsilon(candidateEpsilon), n, score).epsilon();
            } catch (IllegalArgumentException e) {
                return Double.POSITIVE_INFINITY;
            }
        }

        /** One DP-SGD mechanism for every candidate: its planned ledger is every pool member's. */
        private TuningCost price(DpSgdConfig candidate, long n, Optional<GaussianEvent> score) {
            DpSgdPlan plan = DpSgdPlan.of(candidate, n, AccountantFactory.standard());
            return TuningCost.of(List.of(plan.plannedLedger(noise.isSecure())), List.of(plan.accounting().relation()), score,
                    count, candidate.delta());
        }

        /** Builds (without training) a private trainer of every pool member, so that a bad member fails here. */
        private void checkMembers(List<T> pool, DpSgdConfig candidate) {
            for (int i = 0; i < pool.size(); i++) {
                M net = networks.apply(pool.get(i));
                PrivateTrainer.Builder b = net instanceof ComputationGraph graph ? PrivateTrainer.builder(graph, candidate)
                        : PrivateTrainer.builder((MultiLayerNetwork) net, candidate);
                try (PrivateTrainer t = b.data(features, labels).noise(NoiseKind.SECURE.source(new NoiseKey(seed, "check", i, 0)))
                        .build()) {
                    t.steps();
                } catch (IllegalArgumentException | IllegalStateException e) {
                    throw new IllegalArgumentException("pool configuration " + i + " does not make a private trainer: "
                            + e.getMessage() + "; narrow the search space", e);
                }
            }
        }
    }
}
