package org.dpdl4j.experiments.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.experiments.workload.Evaluation;
import org.dpdl4j.experiments.workload.Workload;
import org.dpdl4j.experiments.workload.WorkloadOptions;
import org.dpdl4j.models.Architecture;
import org.dpdl4j.models.ModelKind;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.ProtocolRegistry;
import org.dpdl4j.protocol.decentralized.DecentralizedOptions;
import org.dpdl4j.runtime.options.PartyOptions;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.dpdl4j.experiments.training.SessionOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** End to end through Arbiter's runner, on a small generated logistic task (no data files needed). */
class TuningSessionTest {
    private static final int N = 600;

    /**
     * Two Gaussian classes in 5 dimensions. The workload is named a9a only so that the data set defaults of the
     * candidates' options apply; every option that matters is given.
     */
    static Workload toy() {
        SplittableRandom r = new SplittableRandom(11);
        double[][] x = new double[2 * N][5];
        int[] y = new int[2 * N];
        for (int i = 0; i < x.length; i++) {
            y[i] = i % 2;
            for (int j = 0; j < 5; j++) {
                x[i][j] = r.nextGaussian() * 0.5 + (y[i] == 1 ? 0.4 : -0.4);
            }
        }
        INDArray features = Nd4j.create(x).castTo(DataType.FLOAT);
        LabeledData all = new LabeledData("toy", features, y, 2);
        var parts = all.split(0.5, 3);
        return new Workload("a9a", split(parts.train()), split(parts.test()), parts.train(), null, null, ModelKind.LOGISTIC,
                Architecture.defaults(), DataType.FLOAT, 2);
    }

    private static Workload.Split split(LabeledData d) {
        return new Workload.Split(d.features(), d.labelMatrix(LabelEncoding.BINARY));
    }

    static RunSettings settings(Path out) {
        return RunSettings.empty().withText(WorkloadOptions.DATASET, "a9a").withText(SessionOptions.OUT, out.toString())
                .withText(RunOptions.NOISE, "seeded").withText(RunOptions.CLIP, "1").withText(RunOptions.BATCH_SIZE, "50")
                .withText(TuningOptions.SPACE, "unused: the test passes the space")
                .withText(TuningOptions.CANDIDATES, "geometric:4").withText(TuningOptions.POOL, "6")
                .withText(TuningOptions.EPSILON_TOTAL, "3").withText(TuningOptions.VALIDATION_FRACTION, "0.2");
    }

    static SearchSpace space() {
        return new SearchSpace(List.of(SearchDimension.log("lr", 0.05, 2), SearchDimension.choice("epochs", List.of("1", "2"))));
    }

    @Test
    void aPrivateTuningReleasesTheBestCandidateWithinItsTotalBudget(@TempDir Path dir) throws Exception {
        StringWriter text = new StringWriter();
        TuningSession session = new TuningSession(ProtocolRegistry.standard().get("dp-sgd"), settings(dir.resolve("run")), List.of(),
                new PrintWriter(text, true));
        TuningResult result = session.run(toy(), space());
        assertTrue(result.epsilon() <= 3.0, "spent " + result.epsilon());
        assertTrue(result.epsilon() > result.cost().orElseThrow().candidate().epsilon(), "the tuning costs more than one candidate");
        assertFalse(result.candidates().isEmpty(), "the seeded draw of K is at least 1 for the truncated negative binomial");
        CandidateResult best = result.best().orElseThrow();
        for (CandidateResult c : result.candidates()) {
            assertTrue(c.score() <= best.score());
            assertTrue(c.epsilon() <= Double.parseDouble(result.bestSettings().orElseThrow().texts().get("epsilon")) + 1e-9,
                    "every candidate stays within its calibrated epsilon");
        }
        assertTrue(best.score() > 0.7, "the best candidate learned the task: " + best.score());
        // reproducible noise comes from the seed, so each candidate draws one (DP-SGD's privacy does not depend on it),
        // a draw rather than its place: a seed derived from the place would reveal a lower bound on K
        assertTrue(result.candidates().stream().mapToLong(c -> c.seed() - c.number()).distinct().count()
                == result.candidates().size(), "every candidate's seed is a draw, not its place plus a constant");
        Path run = dir.resolve("run");
        for (String f : List.of("best.json", "model.zip", "privacy.txt", "operator/config.json", "operator/candidates.csv",
                "operator/summary.md", "operator/tuning.png")) {
            assertTrue(Files.isRegularFile(run.resolve(f)), f);
        }
        String privacy = Files.readString(run.resolve("privacy.txt"));
        assertTrue(privacy.contains("tuning included") && privacy.contains("Theorem 2"), privacy);
        assertEquals(result.candidates().size() + 1, Files.readAllLines(run.resolve("operator/candidates.csv")).size());
        String bestJson = Files.readString(run.resolve("best.json"));
        assertTrue(bestJson.contains("dpdl4j train --algo dp-sgd") && bestJson.contains("\"lr\" : \"" + best.values().get("lr") + "\""),
                bestJson);
    }

    @Test
    void theSameSeedGivesTheSameTuning(@TempDir Path dir) throws Exception {
        TuningResult a = new TuningSession(ProtocolRegistry.standard().get("dp-sgd"), settings(dir.resolve("a")), List.of(),
                new PrintWriter(new StringWriter())).run(toy(), space());
        TuningResult b = new TuningSession(ProtocolRegistry.standard().get("dp-sgd"), settings(dir.resolve("b")), List.of(),
                new PrintWriter(new StringWriter())).run(toy(), space());
        assertEquals(Files.readString(dir.resolve("a/operator/candidates.csv")), Files.readString(dir.resolve("b/operator/candidates.csv")));
        assertEquals(a.epsilon(), b.epsilon());
    }

    @Test
    void publicTuningTrainsEveryPoolMemberOnceAndAccountsNothing(@TempDir Path dir) throws Exception {
        RunSettings s = RunSettings.empty().withText(WorkloadOptions.DATASET, "a9a").withText(SessionOptions.OUT, dir.resolve("p").toString())
                .withText(RunOptions.BATCH_SIZE, "50").withText(TuningOptions.SPACE, "x").withText(TuningOptions.SEARCH, "grid")
                .withText(TuningOptions.GRID_POINTS, "2").withText(TuningOptions.TUNING_DATA, "public");
        TuningResult r = new TuningSession(ProtocolRegistry.standard().get("sgd"), s, List.of(), new PrintWriter(new StringWriter()))
                .run(toy(), space());
        assertEquals(4, r.candidates().size(), "2 learning rates x 2 epoch counts");
        assertTrue(r.cost().isEmpty() && Double.isInfinite(r.epsilon()));
        assertTrue(Files.readString(dir.resolve("p/privacy.txt")).contains("NOT ACCOUNTED"));
    }

    /**
     * Example-level LDP: its nodes hold a Dirichlet partition drawn from the run's seed, and their smallest local size
     * sets the sampling rate, so a candidate with a seed of its own is another mechanism than the one priced with the
     * tuning's seed.
     */
    private static RunSettings ldp(Path out) {
        return settings(out).withText(DecentralizedOptions.UNIT, "example").withText(PartyOptions.NODES, "4").withText(RunOptions.ROUNDS, "4")
                .withText(RunOptions.BATCH_SIZE, "10").withText(TuningOptions.CANDIDATES, "geometric:2");
    }

    @Test
    void aSeededTuningWhoseSeedDrawsThePrivacyIsRefusedBeforeTraining(@TempDir Path dir) {
        var ldp = ProtocolRegistry.standard().get("ldp");
        SearchSpace lr = new SearchSpace(List.of(SearchDimension.log("lr", 0.05, 2)));
        var e = assertThrows(IllegalArgumentException.class, () -> new TuningSession(ldp, ldp(dir.resolve("seeded")), List.of(),
                new PrintWriter(new StringWriter())).run(toy(), lr));
        assertTrue(e.getMessage().contains("does not cover") && e.getMessage().contains("Tune with --noise secure")
                && e.getMessage().contains("pool configuration"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("seeded/operator/candidates.csv")), "refused before any candidate trained");
    }

    @Test
    void aSecureTuningRunsEveryCandidateWithTheSeedItsCostWasPricedWith(@TempDir Path dir) throws Exception {
        var ldp = ProtocolRegistry.standard().get("ldp");
        SearchSpace lr = new SearchSpace(List.of(SearchDimension.log("lr", 0.05, 2)));
        TuningResult r = new TuningSession(ldp, ldp(dir.resolve("secure")).without(RunOptions.NOISE).withText(RunOptions.SEED, "7"),
                List.of(), new PrintWriter(new StringWriter())).run(toy(), lr);
        assertFalse(r.candidates().isEmpty());
        assertTrue(r.candidates().stream().allMatch(c -> c.seed() == 7), "every candidate runs with the tuning's seed: "
                + r.candidates().stream().map(CandidateResult::seed).toList());
        assertTrue(r.epsilon() <= 3.0, "spent " + r.epsilon());
    }

    @Test
    void impossibleOrMeaninglessRequestsAreRefusedBeforeTraining(@TempDir Path dir) {
        var sgd = ProtocolRegistry.standard().get("sgd");
        var e = assertThrows(IllegalArgumentException.class, () -> new TuningSession(sgd, settings(dir.resolve("x")).without(RunOptions.NOISE)
                .without(RunOptions.CLIP), List.of(), new PrintWriter(new StringWriter())).run(toy(), space()));
        assertTrue(e.getMessage().contains("--tuning-data public"), e.getMessage());
        var dpSgd = ProtocolRegistry.standard().get("dp-sgd");
        e = assertThrows(IllegalArgumentException.class, () -> new TuningSession(dpSgd, settings(dir.resolve("y"))
                .withText(TuningOptions.EPSILON_TOTAL, "0.001"), List.of(), new PrintWriter(new StringWriter())).run(toy(), space()));
        assertTrue(e.getMessage().contains("cannot be met"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new TuningSession(dpSgd, settings(dir.resolve("z")), List.of(),
                new PrintWriter(new StringWriter())).run(toy(), new SearchSpace(List.of(SearchDimension.integer("rounds", 1, 3)))));
        assertTrue(e.getMessage().contains("does not read --rounds"), e.getMessage());
    }

    @Test
    void theScoreIsTheValidationAccuracyWithNoiseOfTheGivenStandardDeviationOnTheCount() {
        Workload w = toy();
        MultiLayerNetwork net = w.network(new org.nd4j.linalg.learning.config.Sgd(0.1), 0, 1);
        double exact = Evaluation.of(net, w.test(), true).accuracy();
        assertEquals(exact, new ValidationScore(w.test(), true, 0, null).score(net), 0.0);
        ValidationScore noisy = new ValidationScore(w.test(), true, 30, NoiseKind.SEEDED.source(new NoiseKey(5, "s", 0, 0)));
        int draws = 4000;
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < draws; i++) {
            double d = (noisy.score(net) - exact) * w.test().size();
            sum += d;
            sq += d * d;
        }
        double mean = sum / draws;
        double sd = Math.sqrt(sq / draws - mean * mean);
        assertEquals(0, mean, 4 * 30 / Math.sqrt(draws), "unbiased");
        assertEquals(30, sd, 30 * 0.1, "the noise is on the count of correct predictions");
        assertEquals(30, noisy.event().orElseThrow().noiseMultiplier(), 0.0);
    }
}
