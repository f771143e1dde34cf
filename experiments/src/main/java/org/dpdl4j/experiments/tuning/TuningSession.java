package org.dpdl4j.experiments.tuning;

import org.dpdl4j.privacy.ledger.DeltaAdvice;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.tuning.TuningCost;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.deeplearning4j.arbiter.optimize.api.termination.MaxCandidatesCondition;
import org.deeplearning4j.arbiter.optimize.config.OptimizationConfiguration;
import org.deeplearning4j.arbiter.optimize.runner.LocalOptimizationRunner;
import org.deeplearning4j.util.ModelSerializer;
import org.dpdl4j.data.catalog.DataDirectory;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.experiments.report.TerminalTable;
import org.dpdl4j.experiments.training.SessionOptions;
import org.dpdl4j.experiments.workload.Evaluation;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.experiments.workload.WorkloadOptions;
import org.dpdl4j.experiments.workload.Workloads;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.tuning.CandidateCount;
import org.dpdl4j.privacy.accounting.AccountantFactory;

/**
 * A hyperparameter tuning of any registered protocol through Arbiter's runner, with its privacy cost accounted
 * (Papernot &amp; Steinke 2022): a pool of configurations is drawn by Arbiter's random or grid search; each configuration
 * is built and its planned ledger priced before any data is touched; a random number K of candidates, each a
 * configuration drawn uniformly from the pool, is trained on the training data less a held-out validation set and
 * scored there with noise; the best candidate's model is the released model, and its ledger holds the tuning's cost.
 * With {@code --epsilon-total}, every candidate's {@code --epsilon} is calibrated so that the released model stays
 * within it. A private search space may not vary what the guarantee is (noise source, epsilon, delta, adversary, ...:
 * {@link GuaranteeSettings}). On data declared public nothing is accounted, every pool configuration is trained once,
 * and the best configuration is saved for {@code train}.
 *
 * <p>Seeds. A run's seed draws its structure (graph, partition, initial model), and the cost is priced with the
 * tuning's seed: with secure noise every private candidate runs with it; reproducible noise needs a seed per candidate,
 * drawn at random, and each drawn candidate is priced again with its seed before any trains (refused when not covered).
 *
 * <p>Files. Released, in the run directory itself, none of them holding K or a candidate's place: {@code best.json}
 * (the best configuration, its seed, and the {@code train} command that reruns it), {@code model.zip}
 * and {@code privacy.txt} (the released model and its statement). The tuner's own record, which shows K and every
 * candidate and is not covered by the guarantee, is in the folder {@code operator/} ({@link OperatorRecord}); so is the
 * terminal's output, which is the operator's screen.
 */
public final class TuningSession {
    private static final double DEFAULT_SCORE_NOISE = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Protocol protocol;
    private final RunSettings settings;
    private final List<String> arguments;
    private final PrintWriter out;
    /** Why the priced candidates' epsilon is not a guarantee, once the tuning is priced; null when it is one. */
    private String candidatesNotAGuarantee;

    /**
     * @param protocol  the protocol to tune
     * @param settings  workload, session, tuning and fixed protocol options as given
     * @param arguments the command-line arguments, for the provenance
     * @param out       where tables and messages go
     */
    public TuningSession(Protocol protocol, RunSettings settings, List<String> arguments, PrintWriter out) {
        this.protocol = protocol;
        this.settings = settings;
        this.arguments = List.copyOf(arguments);
        this.out = out;
    }

    /** Every option the session reads besides the protocol's. */
    public static List<RunOption<?>> sessionOptions() {
        List<RunOption<?>> all = new ArrayList<>(WorkloadOptions.all());
        all.add(SessionOptions.OUT);
        all.add(SessionOptions.DATA_DIR);
        all.addAll(TuningOptions.all());
        return all;
    }

    /**
     * Runs the tuning.
     *
     * @throws IOException              when data cannot be read or files cannot be written
     * @throws IllegalArgumentException for settings that do not fit (naming the option and the fix)
     */
    public TuningResult run() throws IOException {
        boolean publicData = publicData();   // a mode or a space that does not fit is refused before the data is read
        long seed = settings.get(RunOptions.SEED, 1L);
        SearchSpace space = SearchSpace.of(settings.require(TuningOptions.SPACE, "choose a search space (a preset or a JSON file)"));
        if (!publicData) {
            GuaranteeSettings.refuseInPrivateSearch(space);
        }
        RunSettings workloadSettings = only(settings, WorkloadOptions.all());
        DataDirectory dataDir = DataDirectory.resolve(settings.get(SessionOptions.DATA_DIR).map(Path::of).orElse(null));
        // --out is claimed before the data is read, so a taken directory is refused at once
        try (RunDirectory dir = claim(settings.require(WorkloadOptions.DATASET, "choose the data set"))) {
            return run(Workloads.load(workloadSettings.with(RunOptions.SEED, seed), protocol, dataDir), space, dir);
        }
    }

    /** The tuning's directory: --out, claimed as every command claims it, else a new one under runs/. */
    private RunDirectory claim(String dataset) {
        return settings.get(SessionOptions.OUT).map(Path::of)
                .map(p -> RunDirectory.claim(p, "dpdl4j tune", "dpdl4j tune --algo " + protocol.name(), RunDirectory.Reuse.NOTHING))
                .orElseGet(() -> RunDirectory.fresh("tune-" + protocol.name() + "-" + dataset));
    }

    /**
     * Whether the data is declared public; refuses private tuning of a protocol without a guarantee, and options that
     * only private tuning reads.
     */
    private boolean publicData() {
        boolean publicData = settings.get(TuningOptions.TUNING_DATA, "private").equals("public");
        if (!publicData && !protocol.isPrivate()) {
            throw TuningOptions.TUNING_DATA.invalid("--algo " + protocol.name() + " has no privacy guarantee, so there is no"
                    + " cost of tuning to account: tune it with --tuning-data public, or tune a private protocol");
        }
        if (publicData) {
            for (RunOption<?> o : List.of(TuningOptions.CANDIDATES, TuningOptions.EPSILON_TOTAL, TuningOptions.SCORE_NOISE)) {
                if (settings.has(o)) {
                    throw o.invalid(o.flag() + " has no effect with --tuning-data public (nothing is accounted, and every pool"
                            + " configuration is trained once); drop it");
                }
            }
        }
        return publicData;
    }

    /** Tunes on a workload already loaded (the data set options are then only used for the network). */
    TuningResult run(Workload workload, SearchSpace space) throws IOException {
        try (RunDirectory dir = claim(workload.name())) {
            return run(workload, space, dir);
        }
    }

    private TuningResult run(Workload workload, SearchSpace space, RunDirectory dir) throws IOException {
        boolean publicData = publicData();
        if (!publicData) {
            GuaranteeSettings.refuseInPrivateSearch(space);
        }
        long seed = settings.get(RunOptions.SEED, 1L);
        RunSettings workloadSettings = only(settings, WorkloadOptions.all());
        RunSettings fixed = without(settings, sessionOptions());
        Workload.HeldOut held = workload.holdOut(settings.get(TuningOptions.VALIDATION_FRACTION, 0.1), seed);
        CandidateSetup setup = new CandidateSetup(protocol, fixed, workloadSettings, held.training(), space);
        if (!fixed.has(RunOptions.ACCOUNTANT) && protocol.options().contains(RunOptions.ACCOUNTANT)) {
            // A private search calibrates and prices every pool member at every probe of its calibration: the additive
            // accountants (RDP, zCDP, exact Gaussian; each a valid upper bound) keep that fast, where privacy loss
            // distributions would cost minutes per probe. The candidates train under the same accountant, so what is
            // priced is what runs; --accountant tightest asks for the PLD's tighter price.
            setup = setup.withFixed(RunOptions.ACCOUNTANT, AccountantFactory.ADDITIVE);
        }
        boolean grid = settings.get(TuningOptions.SEARCH, "random").equals("grid");
        if (grid && settings.has(TuningOptions.POOL)) {
            throw TuningOptions.POOL.invalid("--pool has no effect with --search grid (the grid is the pool); set the"
                    + " grid's size with --grid-points, or drop --pool");
        }
        if (!grid && settings.has(TuningOptions.GRID_POINTS)) {
            throw TuningOptions.GRID_POINTS.invalid("--grid-points has no effect with random search; add --search grid, or"
                    + " drop --grid-points (--pool sets the random pool's size)");
        }
        CandidatePool pool = grid
                ? CandidatePool.grid(space, settings.get(TuningOptions.GRID_POINTS, 3L).intValue())
                : CandidatePool.random(space, settings.get(TuningOptions.POOL, 32L).intValue(), seed);
        NoiseKind noise = fixed.get(RunOptions.NOISE, NoiseKind.SECURE);
        double scoreNoise = settings.get(TuningOptions.SCORE_NOISE, publicData ? 0.0 : DEFAULT_SCORE_NOISE);
        if (!publicData && scoreNoise == 0) {
            throw TuningOptions.SCORE_NOISE.invalid("--score-noise 0: the validation examples are private data, so private"
                    + " tuning releases their score with noise; give a positive standard deviation (default "
                    + DEFAULT_SCORE_NOISE + "), or declare the data public with --tuning-data public");
        }
        ValidationScore score = new ValidationScore(held.validation(), workload.classification(), scoreNoise,
                noise.source(new NoiseKey(seed, "tuning-score", 0, 0)));
        CandidateCount count = TuningOptions.candidates(settings.get(TuningOptions.CANDIDATES, "geometric:10"));
        Optional<TuningCost> cost = Optional.empty();
        Pricing pricing = publicData ? null : new Pricing(pool, score, count, fixed.get(RunOptions.DELTA, 1e-5), seed);
        if (!publicData) {
            setup = pricing.calibrated(setup);
            cost = Optional.of(pricing.cost(setup));
            candidatesNotAGuarantee = pricing.notAGuarantee;
            announce(cost.get(), pool, count, pricing.candidateEpsilon);
            DeltaAdvice.optionWarning(cost.get().delta(), workload.train().size()).ifPresent(out::println);
        }
        long k = publicData ? pool.size() : count.sample(noise.sampling(new NoiseKey(seed, "tuning-count", 0, 0)));
        RandomGenerator draws = publicData ? null : noise.sampling(new NoiseKey(seed, "tuning-draws", 0, 0));
        // A run's seed draws its structure (graph, partition, initial model), and the cost was priced with the tuning's
        // seed. With secure noise every private candidate runs with that seed: its noise and sampling never come from a
        // seed, so each candidate is an independent run of the priced mechanism. Reproducible noise comes from the seed,
        // so each candidate needs its own, drawn (K must stay secret, so not from its place) and checked below.
        boolean sharedSeed = !publicData && noise.isSecure();
        RandomGenerator seeds = sharedSeed ? null
                : (publicData ? NoiseKind.SEEDED : noise).sampling(new NoiseKey(seed, "tuning-seeds", 0, 0));
        PoolSampler sampler = new PoolSampler(pool, k, draws, sharedSeed ? () -> seed : () -> seeds.nextInt(Integer.MAX_VALUE));
        if (!publicData && !sharedSeed) {
            pricing.requireCovered(setup, sampler.draws());
        }
        OperatorRecord record = new OperatorRecord(dir, protocol.name(), !publicData);
        record.writeConfig(config(space, pool, count, k, cost), Provenance.capture(Map.of("seed", seed), arguments));
        List<CandidateResult> results = Collections.synchronizedList(new ArrayList<>());
        CandidateTrainer trainer = new CandidateTrainer(setup, score, k, r -> {
            results.add(r);
            try {
                record.writeCandidates(space, List.copyOf(results));   // the operator's record keeps what a stop would lose
            } catch (java.io.UncheckedIOException e) {
                // not the candidate's failure: say so, and leave the write to the end of the tuning, which reports its own
                out.println("warning: could not write " + OperatorRecord.FOLDER + "/candidates.csv after candidate "
                        + results.size() + " (" + e.getMessage() + "); it is written again when the tuning ends");
                out.flush();
            }
        });
        runArbiter(sampler, k, score, trainer);
        return report(dir, record, setup, space, results, cost, publicData, noise, held);
    }

    private void runArbiter(PoolSampler sampler, long k, ValidationScore score, CandidateTrainer trainer) {
        if (k == 0) {
            return;
        }
        OptimizationConfiguration config = new OptimizationConfiguration.Builder()
                .candidateGenerator(sampler)
                .scoreFunction(score)
                .terminationConditions(new MaxCandidatesCondition((int) Math.min(k, Integer.MAX_VALUE)))
                .build();
        // one candidate at a time: a run already uses the machine's cores, and the draws stay in order
        LocalOptimizationRunner runner = new LocalOptimizationRunner(1, config, trainer);
        runner.execute();
        if (trainer.failure() != null) {
            throw new IllegalStateException("a candidate failed: " + trainer.failure().getMessage(), trainer.failure());
        }
    }

    /** Prices the pool, and calibrates every candidate's --epsilon to --epsilon-total when that is asked for. */
    private final class Pricing {
        private final CandidatePool pool;
        private final ValidationScore score;
        private final CandidateCount count;
        private final double delta;
        /** Why a pool member's epsilon is not a guarantee (then neither is the tuning's), or null. */
        private String notAGuarantee;
        private final long seed;
        private double candidateEpsilon = Double.NaN;

        Pricing(CandidatePool pool, ValidationScore score, CandidateCount count, double delta, long seed) {
            this.pool = pool;
            this.score = score;
            this.count = count;
            this.delta = delta;
            this.seed = seed;
        }

        /** The setup with the calibrated per-candidate --epsilon, or as it is when the noise is fixed. */
        CandidateSetup calibrated(CandidateSetup setup) {
            Optional<Double> target = settings.get(TuningOptions.EPSILON_TOTAL);
            boolean noiseGiven = settings.has(RunOptions.EPSILON) || settings.has(RunOptions.NOISE_MULTIPLIER)
                    || pool.space().options().contains(RunOptions.EPSILON.name())
                    || pool.space().options().contains(RunOptions.NOISE_MULTIPLIER.name());
            if (target.isEmpty()) {
                if (!noiseGiven) {
                    throw TuningOptions.EPSILON_TOTAL.invalid("give --epsilon-total (what the whole tuning may spend), or fix"
                            + " each candidate's noise with --epsilon or --noise-multiplier");
                }
                return setup;
            }
            if (noiseGiven || !protocol.options().contains(RunOptions.EPSILON)) {
                double total = cost(setup).epsilon();
                if (total > target.get()) {
                    throw TuningOptions.EPSILON_TOTAL.invalid(String.format(Locale.ROOT, "the tuning would spend epsilon = %s"
                            + " > --epsilon-total %s with the candidates' noise as given; drop --epsilon / --noise-multiplier"
                            + " so that it is calibrated, or raise --epsilon-total", EpsilonFormat.upward(total, 6), target.get()));
                }
                return setup;
            }
            double goal = target.get();
            cost(with(setup, Math.max(goal, 10)));   // every pool member must make a run at all (errors name the member)
            try {
                candidateEpsilon = CandidateEpsilon.within(e -> costAt(setup, e), goal);
            } catch (CandidateEpsilon.Unreachable u) {
                throw TuningOptions.EPSILON_TOTAL.invalid(Double.isNaN(u.lowest())
                        ? "--epsilon-total " + goal + " cannot be met: a single candidate cannot even be calibrated to it;"
                        + " raise --epsilon-total"
                        : String.format(Locale.ROOT, "--epsilon-total %s cannot be met: even candidates at epsilon = %.3g"
                        + " each cost more once the tuning and the score (--score-noise %s) are added; raise --epsilon-total,"
                        + " raise --score-noise, or expect fewer candidates (--candidates)", goal, u.lowest(), score.noise()));
            }
            return with(setup, candidateEpsilon);
        }

        /** The total epsilon with candidates at {@code epsilon}; +Infinity when no noise reaches that epsilon. */
        private double costAt(CandidateSetup setup, double epsilon) {
            try {
                return cost(with(setup, epsilon)).epsilon();
            } catch (IllegalArgumentException e) {
                return Double.POSITIVE_INFINITY;
            }
        }

        private CandidateSetup with(CandidateSetup setup, double epsilon) {
            return setup.withFixed(RunOptions.EPSILON, epsilon);
        }

        /**
         * Prices the tuning from every pool member's planned ledger, worked out from its settings and the data sizes
         * (no run is built: no model, no noise stream).
         */
        TuningCost cost(CandidateSetup setup) {
            List<PrivacyLedger> planned = new ArrayList<>();
            List<NeighbouringRelation> relations = new ArrayList<>();
            for (CandidatePool.Entry e : pool.entries()) {
                Optional<PlannedLedger> member;
                try {
                    member = setup.plannedLedger(e.values(), seed);
                } catch (IllegalArgumentException ex) {
                    throw new IllegalArgumentException("pool configuration " + e.index() + " " + e.values() + " does not make a"
                            + " run: " + ex.getMessage() + "; narrow the search space", ex);
                }
                PlannedLedger p = member.orElseThrow(() -> new IllegalArgumentException(protocol.name() + " cannot be tuned"
                        + " privately: its privacy spend is not known before it runs, so the cost of a candidate cannot be"
                        + " bounded in advance; tune it with --tuning-data public on data declared public"));
                planned.add(p.ledger());
                relations.add(p.relation());
                if (p.notAGuarantee() != null) {
                    notAGuarantee = p.notAGuarantee();
                }
            }
            return TuningCost.of(planned, relations, score.event(), count, delta, setup.accountants());
        }

        /**
         * Checks that every candidate, run with its own seed, spends only what its pool member was priced at with the
         * tuning's seed: a seed that draws another graph or partition (and so another sampling rate, sensitivity or
         * kappa) makes another mechanism, which the cost does not cover.
         *
         * @throws IllegalArgumentException naming the first candidate that is not covered, and the fix
         */
        void requireCovered(CandidateSetup setup, List<PoolSampler.Draw> draws) {
            Map<Integer, PrivacyLedger> priced = new HashMap<>();
            Set<Map.Entry<Integer, Long>> checked = new HashSet<>();
            for (PoolSampler.Draw d : draws) {
                CandidatePool.Entry e = d.entry();
                if (d.seed() == seed || !checked.add(Map.entry(e.index(), d.seed()))) {
                    continue;
                }
                PrivacyLedger member = priced.computeIfAbsent(e.index(),
                        j -> setup.plannedLedger(e.values(), seed).orElseThrow().ledger());
                Optional<PlannedLedger> run;
                try {
                    run = setup.plannedLedger(e.values(), d.seed());
                } catch (IllegalArgumentException ex) {
                    throw notCovered(e, d.seed(), "makes no run with it (" + ex.getMessage() + ")");
                }
                if (run.isEmpty() || !run.get().ledger().isCoveredBy(member)) {
                    throw notCovered(e, d.seed(), "would spend what its cost, priced with the tuning's seed " + seed
                            + ", does not cover: the seed also draws the run's graph or partition, and with them its"
                            + " sampling rate, sensitivity or pairwise noise");
                }
            }
        }

        private IllegalArgumentException notCovered(CandidatePool.Entry e, long candidateSeed, String what) {
            return new IllegalArgumentException("with reproducible noise (--noise " + settings.get(RunOptions.NOISE,
                    NoiseKind.SECURE).cliName() + ") every candidate needs a seed of its own, and pool configuration "
                    + e.index() + " " + e.values() + " with seed " + candidateSeed + " " + what + ". Tune with --noise secure"
                    + " (every candidate then runs with the tuning's seed, which its noise and sampling never come from;"
                    + " a protocol whose secure spend is known only once its run is built, such as the random walk, relay or"
                    + " personalized runs, is tuned with --tuning-data public on data declared public), or fix settings"
                    + " whose privacy no seed changes (a fixed --topology such as ring or complete, an iid --partition)");
        }
    }

    private void announce(TuningCost cost, CandidatePool pool, CandidateCount count, double candidateEpsilon) {
        out.printf(Locale.ROOT, "Tuning %s: pool of %d configurations, %s candidates, best released%n", protocol.name(),
                pool.size(), count);
        if (!Double.isNaN(candidateEpsilon)) {
            out.printf(Locale.ROOT, "  each candidate calibrated to --epsilon %s%n", SearchDimension.format(candidateEpsilon));
        }
        out.printf(Locale.ROOT, "  one candidate (worst pool member + noisy score): epsilon = %s; the released best, tuning"
                + " included: epsilon = %s (delta = %s)%n", EpsilonFormat.upward(cost.candidate().epsilon()),
                EpsilonFormat.upward(cost.epsilon()), cost.delta());
        out.flush();
    }

    private TuningResult report(RunDirectory dir, OperatorRecord record, CandidateSetup setup, SearchSpace space,
                                List<CandidateResult> results, Optional<TuningCost> cost, boolean publicData, NoiseKind noise,
                                Workload.HeldOut held) throws IOException {
        List<CandidateResult> all = List.copyOf(results);
        Optional<CandidateResult> best = all.stream().filter(r -> r.model() != null)
                .reduce((a, b) -> b.score() > a.score() ? b : a);
        record.writeCandidates(space, all);
        Optional<RunSettings> bestSettings = best.map(b -> setup.settings(b.values(), b.seed()));
        // seeded noise anywhere (the candidates' runs, the score, the draws) voids the guarantee: the ledger says so
        boolean secureNoise = noise.isSecure() && all.stream().allMatch(CandidateResult::secureNoise);
        Optional<RunLedger> ledger = cost.map(c -> tuningLedger(c, secureNoise));
        Optional<Double> testAccuracy = best.filter(b -> held.training().test() != held.training().train())
                .map(b -> Evaluation.of(b.model(), held.training().test(), true).accuracy());
        // the statement first, then the model: a crash in between never leaves a released model without its statement
        String statement = publicData ? TuningStatement.publicData()
                : TuningStatement.privateTuning(cost.orElseThrow(), ledger.orElseThrow(), held.validation().size(), best.isPresent());
        dir.writeText("privacy.txt", statement);
        if (best.isPresent()) {
            writeBest(dir, best.get(), bestSettings.get(), ledger, publicData, testAccuracy);
            if (!publicData) {
                AtomicFiles.replace(dir.file("model.zip"), f -> ModelSerializer.writeModel(best.get().model(), f.toFile(), false));
            }
        }
        TerminalTable table = record.table(space, all, best);
        String bestLine = testAccuracy.map(a -> String.format(Locale.ROOT, "Best candidate: #%d, test accuracy %.4f%n",
                best.get().number() + 1, a)).orElse("");
        out.println();
        out.print(table.render());
        out.print(bestLine);
        out.println();
        out.print(statement);
        record.writeSummary(held.training().name(), table, bestLine, statement);
        record.writePlot(all);
        out.println("Tuning files: " + dir.path().toAbsolutePath());
        out.println("  released: " + dir.listing());
        out.println("  the operator's record (shows K; not covered, and neither is this screen): " + record.listing());
        out.flush();
        return new TuningResult(dir.path(), all, best, bestSettings, cost, ledger);
    }

    /** The released model's ledger: one application of the tuning's event, not a guarantee where a candidate's is not. */
    private RunLedger tuningLedger(TuningCost cost, boolean secureNoise) {
        RunLedger ledger = cost.ledger(settings.get(TuningOptions.EPSILON_TOTAL).map(e -> new PrivacyBudget(e, cost.delta()))
                .orElse(PrivacyBudget.unlimited(cost.delta())), secureNoise);
        if (candidatesNotAGuarantee != null) {
            ledger.markNotAGuarantee("neither is a candidate's: " + candidatesNotAGuarantee);
        }
        return ledger;
    }

    /** {@code best.json}: released, so it holds neither K nor the best candidate's place. */
    private void writeBest(RunDirectory dir, CandidateResult best, RunSettings run, Optional<RunLedger> ledger,
                           boolean publicData, Optional<Double> testAccuracy) {
        ObjectNode o = JSON.createObjectNode();
        o.put("algorithm", protocol.name());
        o.put("validationScore", best.score());
        testAccuracy.ifPresent(a -> o.put("testAccuracy", a));
        ObjectNode options = o.putObject("options");
        Map<String, String> texts = new LinkedHashMap<>(only(settings, WorkloadOptions.all()).texts());
        best.values().forEach((name, value) -> {
            if (name.equals(WorkloadOptions.HIDDEN.name()) || name.equals(WorkloadOptions.ACTIVATION.name())) {
                texts.put(name, value);
            }
        });
        texts.putAll(run.texts());
        texts.forEach(options::put);
        StringBuilder command = new StringBuilder("dpdl4j train --algo " + protocol.name());
        texts.forEach((name, value) -> command.append(" --").append(name).append(value.equals("true") ? "" : " " + value));
        o.put("train", command.toString());
        o.put("note", "train reruns this configuration on the whole training set (validation examples included); that run"
                + " spends its own budget" + (publicData ? "." : ", on top of the tuning's, if it uses the same data."));
        ledger.ifPresent(l -> {
            ObjectNode t = o.putObject("tuning");
            t.put("accounted", true);
            t.put("epsilon", l.epsilon());
            t.put("delta", l.delta());
            t.put("secureNoise", l.secureNoise());
            if (!l.secureNoise()) {
                t.put("warning", "seeded noise: anyone who knows the seed can remove it; these numbers are not a guarantee");
            }
        });
        if (publicData) {
            o.putObject("tuning").put("accounted", false);
        }
        dir.writeJson("best.json", o);
    }

    private Map<String, Object> config(SearchSpace space, CandidatePool pool, CandidateCount count, long k, Optional<TuningCost> cost) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("algorithm", protocol.name());
        c.put("settings", settings.texts());
        c.put("space", space.toJson());
        List<Map<String, String>> members = new ArrayList<>();
        pool.entries().forEach(e -> members.add(e.values()));
        c.put("pool", members);
        c.put("candidates", cost.isPresent() ? count.toString() : "every pool configuration once");
        c.put("k", k);
        cost.ifPresent(t -> {
            c.put("candidateEpsilon", t.candidate().epsilon());
            c.put("totalEpsilon", t.epsilon());
            c.put("delta", t.delta());
        });
        return c;
    }

    private static RunSettings only(RunSettings s, List<RunOption<?>> keep) {
        RunSettings r = RunSettings.empty();
        for (RunSettings.Setting<?> setting : s.all()) {
            if (keep.contains(setting.option())) {
                r = copy(r, setting);
            }
        }
        return r;
    }

    private static <T> RunSettings copy(RunSettings r, RunSettings.Setting<T> setting) {
        return r.with(setting.option(), setting.value());
    }

    private static RunSettings without(RunSettings s, List<RunOption<?>> drop) {
        RunSettings r = s;
        for (RunOption<?> o : drop) {
            r = r.without(o);
        }
        return r;
    }
}
