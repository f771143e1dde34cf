package org.dpdl4j.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input as a new user gives it, to every command: malformed and out-of-range numbers, options that do nothing for
 * the chosen algorithm or data set, unknown names, impossible privacy targets, corrupt data files, damaged or
 * mismatched checkpoints, occupied run directories. Each must end with a non-zero exit and one message, in the
 * user's terms, that names the problem (the expected text) and no stack trace or internal name. The tally of the
 * outcomes (clear / unclear / stack trace / silent) is printed at the end.
 */
class BadInputTest {
    /** How a case ended. */
    enum Outcome { CLEAR, UNCLEAR, STACK_TRACE, SILENT }

    private static final Map<Outcome, Integer> TALLY = new EnumMap<>(Outcome.class);
    /** Words that belong to the code, not to the user: field names, enum constants, exception names. */
    private static final Pattern INTERNAL = Pattern.compile(
            "\\brho\\b|trainFraction|\\btotal\\b|No enum constant|Exception|internal error|\\bnull\\b");

    @TempDir
    static Path tmp;
    private static Path finished;
    private static Path corrupt;
    private static Path truncated;

    @BeforeAll
    static void files() throws IOException {
        // A finished run whose checkpoint the resume cases damage.
        Path run = tmp.resolve("finished");
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--epochs", "2", "--out", run.toString());
        assertEquals(0, r.exitCode(), r.both());
        finished = run.resolve("checkpoint.bin");
        byte[] bytes = Files.readAllBytes(finished);
        byte[] flipped = bytes.clone();
        flipped[flipped.length - 9] ^= 0x10;
        corrupt = Files.write(tmp.resolve("flipped.bin"), flipped);
        truncated = Files.write(tmp.resolve("truncated.bin"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Files.writeString(tmp.resolve("a-file"), "not a directory\n");

        StringBuilder valid = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            valid.append(i % 2 == 0 ? "+1 " : "-1 ").append(1 + i % 7).append(":1 ").append(20 + i % 11).append(":1\n");
        }
        a9a("small", valid.toString());   // a valid (not canonical) a9a, so these cases need no real data
        a9a("overflow", "+1 3:1 11:1\n-1 5:1e39 9:1\n");
        a9a("nan", "+1 3:1 11:1\n-1 5:NaN 9:1\n");
        a9a("malformed", "+1 3:1 11:1\n-1 5:abc\n");
        Path noTest = tmp.resolve("data-no-test").resolve("a9a");
        Files.createDirectories(noTest);
        gzip(noTest.resolve("a9a.gz"), "+1 3:1\n-1 5:1\n");
        Path dirAsFile = tmp.resolve("data-dir-as-file").resolve("a9a");
        Files.createDirectories(dirAsFile.resolve("a9a.t.gz"));
        gzip(dirAsFile.resolve("a9a.gz"), "+1 3:1\n-1 5:1\n");
    }

    /** A data directory whose a9a training file holds {@code train} (the test file is fine). */
    private static void a9a(String name, String train) throws IOException {
        Path dir = tmp.resolve("data-" + name).resolve("a9a");
        Files.createDirectories(dir);
        gzip(dir.resolve("a9a.gz"), train);
        gzip(dir.resolve("a9a.t.gz"), "+1 3:1\n-1 5:1\n");
    }

    private static void gzip(Path file, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static String dir(String name) {
        return tmp.resolve(name).toString();
    }

    private static String out(String name) {
        return tmp.resolve("out").resolve(name).toString();
    }

    /** One case: a name, the texts the message must contain (joined by " && "), and the arguments. */
    private static Arguments bad(String name, String expected, String... args) {
        return Arguments.of(name, expected, List.of(args));
    }

    /** {@code train} on the synthetic task (no data needed) with the given options. */
    private static Arguments train(String name, String expected, String... options) {
        List<String> args = new ArrayList<>(List.of("train", "--dataset", "synthetic-lsq", "--out", out(name)));
        args.addAll(List.of(options));
        return Arguments.of(name, expected, args);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // numbers: malformed, not finite, out of range (checked before any work)
                train("lr NaN", "--lr NaN: must be a plain finite number", "--lr", "NaN"),
                train("lr negative", "--lr -1: must be a number > 0", "--lr", "-1"),
                train("lr overflows float", "--lr 1e39: must be a number > 0 and <= 1e6", "--lr", "1e39"),
                train("lr infinite", "--lr Infinity: must be a plain finite number", "--lr", "Infinity"),
                train("epochs not a number", "--epochs abc: is not a number", "--epochs", "abc"),
                train("epochs zero", "--epochs 0: must be a number > 0", "--epochs", "0"),
                bad("batch size zero", "--batch-size 0: dsgd samples a batch at every node", "train", "--dataset", "a9a",
                        "--data-dir", dir("data-small"), "--algo", "dsgd", "--batch-size", "0", "--out", out("batch0")),
                train("private batch size zero", "--batch-size 0: dp-sgd needs a batch size from 1", "--algo", "dp-sgd",
                        "--clip", "1", "--epsilon", "1", "--batch-size", "0"),
                train("batch size fraction", "--batch-size 2.5: is not a whole number", "--batch-size", "2.5"),
                train("eval every zero", "--eval-every 0: must be a whole number >= 1", "--eval-every", "0"),
                train("checkpoint every negative", "--checkpoint-every -1: must be a whole number >= 0",
                        "--checkpoint-every", "-1"),
                train("seed fraction", "--seed 1.5: is not a whole number", "--seed", "1.5"),
                train("seed too large", "--seed 99999999999999999999: is not a whole number", "--seed",
                        "99999999999999999999"),
                train("weight decay negative", "--weight-decay -0.1: must be a number >= 0", "--weight-decay", "-0.1"),
                train("lr decay negative", "--lr-decay -0.5: must be a number >= 0", "--algo", "dsgd", "--lr-decay", "-0.5"),
                train("rounds zero", "--rounds 0: must be a whole number >= 1", "--algo", "dsgd", "--rounds", "0"),
                train("epsilon zero", "--epsilon 0: must be a number > 0", "--algo", "decor", "--clip", "1", "--epsilon", "0"),
                train("epsilon infinite", "--epsilon Infinity: must be a plain finite number", "--algo", "decor", "--clip",
                        "1", "--epsilon", "Infinity"),
                train("delta zero", "--delta 0: must be a number strictly between 0 and 1", "--algo", "decor", "--clip", "1",
                        "--epsilon", "1", "--delta", "0"),
                train("delta above one", "--delta 1.5: must be a number strictly between 0 and 1", "--algo", "decor", "--clip", "1",
                        "--epsilon", "1", "--delta", "1.5"),
                train("clip zero", "--clip 0: must be a number > 0", "--algo", "decor", "--clip", "0", "--epsilon", "1"),
                train("sigma negative", "--sigma-cdp -2: must be a number > 0", "--algo", "ldp", "--clip", "1",
                        "--sigma-cdp", "-2"),
                train("nodes malformed", "--nodes 3x: must be a whole number >= 1, or RxC", "--algo", "dsgd", "--nodes", "3x"),
                // names
                train("unknown algorithm", "unknown --algo 'gossip-magic'", "--algo", "gossip-magic"),
                train("unknown data set", "--dataset cifar", "--dataset", "cifar"),
                train("unknown topology", "--topology foo: unknown topology 'foo'", "--algo", "dsgd", "--topology", "foo"),
                train("unknown adversary", "--adversary foo: unknown adversary 'foo'", "--algo", "decor", "--clip", "1",
                        "--epsilon", "1", "--adversary", "foo"),
                train("unknown noise source", "unknown noise source 'foo'", "--algo", "decor", "--clip", "1", "--epsilon",
                        "1", "--noise", "foo"),
                train("unknown sampling", "--sampling foo: is not one of poisson, fixed", "--algo", "dp-sgd", "--clip", "1",
                        "--epsilon", "1", "--sampling", "foo"),
                train("unknown activation", "--activation FOO: is not one of", "--activation", "FOO"),
                train("unknown model", "--model foo", "--model", "foo"),
                train("unknown updater", "--updater foo", "--updater", "foo"),
                train("bad partition", "--partition dirichlet:-1", "--algo", "fedavg", "--partition", "dirichlet:-1"),
                // options the chosen algorithm or data set does not read
                train("epochs with decor", "--epochs has no effect with --algo decor", "--algo", "decor", "--clip", "1",
                        "--epsilon", "1", "--epochs", "3"),
                train("updater with decor", "--updater has no effect with --algo decor", "--algo", "decor", "--clip", "1",
                        "--epsilon", "1", "--updater", "adam"),
                bad("hidden with logistic", "--hidden has no effect", "train", "--dataset", "a9a", "--data-dir",
                        dir("data-small"), "--model", "logistic", "--hidden", "10", "--out", out("hidden")),
                bad("test fraction with a9a", "--test-fraction has no effect", "train", "--dataset", "a9a", "--data-dir",
                        dir("data-small"), "--test-fraction", "0.2", "--out", out("test-fraction")),
                train("batch size with the synthetic task", "--batch-size has no effect", "--algo", "dsgd", "--batch-size", "5"),
                train("sampling with the synthetic task", "--sampling has no effect", "--algo", "decor", "--clip", "1",
                        "--epsilon", "1", "--sampling", "poisson"),
                train("noise with sgd", "--noise has no effect with --algo sgd", "--noise", "seeded"),
                train("sampling with sgd", "--sampling has no effect with --algo sgd", "--sampling", "fixed"),
                bad("pixels with a9a", "--pixels has no effect", "train", "--dataset", "a9a", "--data-dir", dir("data-small"),
                        "--pixels", "standardized", "--out", out("pixels")),
                train("node models of one model", "--save-node-models has no effect", "--save-node-models"),
                train("continue without resume", "--continue-with-new-settings has no effect without --resume",
                        "--continue-with-new-settings"),
                // privacy settings that cannot work
                train("private without clip", "--clip", "--algo", "decor", "--epsilon", "1"),
                train("epsilon and sigma", "either --epsilon", "--algo", "decor", "--clip", "1", "--epsilon", "3",
                        "--sigma-cdp", "2", "--sigma-cor", "4"),
                train("impossible epsilon", "cannot be reached", "--algo", "dp-sgd", "--clip", "1", "--epsilon", "0.0001",
                        "--epochs", "100"),
                // sizes that do not fit
                bad("too many nodes", "needs about", "train", "--dataset", "a9a", "--data-dir", dir("data-small"), "--algo",
                        "decor", "--model", "mlp", "--hidden", "4096", "--nodes", "100000", "--clip", "1", "--epsilon", "1",
                        "--out", out("nodes")),
                train("nodes of the synthetic task", "this task has 16 users", "--algo", "dsgd", "--nodes", "100"),
                // data files
                bad("value overflows float", "line 2 && overflows 32-bit float", "train", "--dataset", "a9a", "--data-dir", dir("data-overflow"),
                        "--out", out("overflow")),
                bad("NaN in data", "line 2 && is not finite", "train", "--dataset", "a9a", "--data-dir", dir("data-nan"), "--out", out("nan")),
                bad("malformed data line", "line 2 && is not a number", "train", "--dataset", "a9a", "--data-dir", dir("data-malformed"),
                        "--out", out("malformed")),
                bad("missing data file", "a9a.t.gz", "train", "--dataset", "a9a", "--data-dir", dir("data-no-test"),
                        "--out", out("missing")),
                bad("directory in place of a data file", "is a directory", "train", "--dataset", "a9a", "--data-dir",
                        dir("data-dir-as-file"), "--out", out("dir-as-file")),
                bad("non-canonical data refused", "is not the canonical one && or drop --strict-data to train on them anyway",
                        "train", "--dataset", "a9a", "--data-dir", dir("data-small"), "--strict-data", "--out", out("strict")),
                bad("missing data directory", "does not exist", "train", "--dataset", "a9a", "--data-dir",
                        dir("no-such-dir"), "--out", out("no-dir")),
                // checkpoints and run directories
                train("flipped checkpoint", "integrity", "--epochs", "2", "--resume", "FLIPPED"),
                train("truncated checkpoint", "is truncated", "--epochs", "2", "--resume", "TRUNCATED"),
                train("not a checkpoint", "not a dpdl4j checkpoint", "--epochs", "2", "--resume", "CONFIG"),
                train("missing checkpoint", "does not exist", "--epochs", "2", "--resume", dir("nowhere.bin")),
                train("finished run resumed", "finished", "--epochs", "2", "--resume", "FINISHED"),
                train("resume with other settings", "--continue-with-new-settings", "--epochs", "4", "--lr", "0.5",
                        "--resume", "FINISHED"),
                bad("out is a file", "is a file", "train", "--dataset", "synthetic-lsq", "--out", dir("a-file")),
                bad("out holds a run", "already holds a run", "train", "--dataset", "synthetic-lsq", "--out", dir("finished")),
                // the other commands
                bad("reproduce unknown task", "unknown --task 'foo'", "reproduce", "decor", "--task", "foo", "--out",
                        out("r1")),
                bad("reproduce negative epsilon", "'-1' must be a number > 0", "reproduce", "decor", "--task", "synthetic",
                        "--epsilons", "-1", "--out", out("r2")),
                bad("reproduce unknown topology", "unknown topology 'blob'", "reproduce", "decor", "--task", "synthetic",
                        "--topologies", "blob", "--out", out("r3")),
                bad("reproduce unknown noise", "unknown noise source 'foo'", "reproduce", "decor", "--task", "synthetic",
                        "--noise", "foo", "--out", out("r4")),
                bad("reproduce zero rounds", "'0' must be a whole number", "reproduce", "decor", "--task", "synthetic",
                        "--rounds", "0", "--out", out("r5")),
                bad("mu2 zero machines", "'0' must be a whole number", "reproduce", "mu2", "--machines", "0", "--out",
                        out("r6")),
                bad("mu2 unknown trust", "unknown --trust 'foo'", "reproduce", "mu2", "--trust", "foo", "--out", out("r7")),
                bad("dp-sgd unknown data set", "unknown --dataset 'foo'", "reproduce", "dp-sgd", "--dataset", "foo", "--out",
                        out("r8")),
                bad("attack negative index", "'-1' must be a whole number >= 0", "attack", "dlg", "--target-index", "-1",
                        "--out", out("a1")),
                bad("attack unknown algorithm", "unknown algorithm 'foo'", "attack", "dlg", "--target-index", "0", "--algo",
                        "foo", "--out", out("a2")),
                bad("attack unknown observer", "unknown observer 'foo'", "attack", "dlg", "--target-index", "0",
                        "--observer", "foo", "--out", out("a3")),
                bad("attack zero batch", "'0' must be a whole number >= 1", "attack", "dlg", "--target-index", "0",
                        "--batch-size", "0", "--out", out("a4")),
                bad("attack both noise options", "either --noise-std or --noise-relative", "attack", "dlg", "--target-index",
                        "0", "--noise-std", "1", "--noise-relative", "1", "--out", out("a5")),
                bad("attack unknown optimizer", "unknown value 'foo'", "attack", "dlg", "--target-index", "0", "--optimizer",
                        "foo", "--out", out("a6")),
                bad("attack least squares", "least-squares has no classification loss", "attack", "dlg", "--target-index",
                        "0", "--model", "least-squares", "--out", out("a7")),
                bad("attack report unknown protocol", "unknown protocol 'foo'", "attack", "report", "--protocols", "foo",
                        "--out", out("a8")),
                bad("attack report negative epsilon", "'-1' must be a number > 0", "attack", "report", "--epsilons", "-1",
                        "--out", out("a9")),
                bad("attack compare zero epsilon", "'0' must be a number > 0", "attack", "compare", "--target-index", "0",
                        "--epsilon", "0", "--out", out("a10")),
                bad("account sampling rate above one", "--sample-rate must lie in (0, 1]", "account", "dp-sgd",
                        "--sample-rate", "2", "--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5"),
                bad("account NaN noise", "'NaN' must be a plain finite number", "account", "dp-sgd", "--sample-rate", "0.01",
                        "--noise-multiplier", "NaN", "--steps", "10", "--delta", "1e-5"),
                bad("account delta one", "'1' must be a number strictly between 0 and 1", "account", "dp-sgd", "--sample-rate", "0.01",
                        "--noise-multiplier", "1", "--steps", "10", "--delta", "1"),
                bad("account decor unknown topology", "unknown topology 'foo'", "account", "decor", "--topology", "foo",
                        "--nodes", "16", "--clip", "1", "--steps", "100", "--delta", "1e-5", "--sigma-cdp", "1",
                        "--sigma-cor", "1"),
                bad("datasets unknown", "unknown data set 'foo'", "datasets", "fetch", "foo"),
                bad("bench zero batch", "'0' must be a whole number >= 1", "bench", "dp-step", "--batch-size", "0"),
                bad("bench recal zero blocks", "'0' must be a whole number >= 1", "bench", "recal", "--blocks", "0"),
                // memory: every run is estimated before anything large is allocated or any file written, and one that cannot
                // fit is refused with what it needs, what there is and what would fit. These run in this JVM, so their sizes
                // are far beyond any test JVM's -Xmx and maxbytes. First the probe's two runs on real MNIST (skipped without
                // DPDL4J_DATA), then the same without real data and one run per protocol family (the personalized family's
                // collaborative task is checked before it generates its users' data)
                bad("60000 MNIST clients of an MLP", "needs about && at most && (--machines", "train", "--algo", "dp-fedavg-central",
                        "--dataset", "mnist", "--data-dir", "REAL_DATA", "--machines", "60000", "--clip", "1", "--epsilon", "3",
                        "--out", out("memory-mnist-clients")),
                bad("an MNIST network of ten billion parameters", "needs about && a smaller model", "train", "--dataset", "mnist",
                        "--data-dir", "REAL_DATA", "--hidden", "100000,100000", "--out", out("memory-mnist-hidden")),
                memory("60000 clients of a wide MLP", "(--machines", "--algo", "dp-fedavg-central", "--machines", "60000",
                        "--model", "mlp", "--hidden", "4096", "--clip", "1", "--epsilon", "3"),
                memory("sgd on ten billion parameters", "a smaller model", "--model", "mlp", "--hidden", "100000,100000"),
                memory("dp-sgd on ten billion parameters", "a smaller model", "--algo", "dp-sgd", "--model", "mlp", "--hidden",
                        "100000,100000", "--clip", "1", "--epsilon", "1"),
                memory("dsgd on ten billion parameters", "a smaller model", "--algo", "dsgd", "--model", "mlp", "--hidden",
                        "100000,100000"),
                memory("mu2 on ten billion parameters", "a smaller model", "--algo", "mu2-sgd", "--model", "mlp", "--hidden",
                        "100000,100000", "--lipschitz", "1", "--smoothness", "1"),
                memory("random walk on ten billion parameters", "a smaller model", "--algo", "random-walk", "--model", "mlp",
                        "--hidden", "100000,100000", "--clip", "1", "--epsilon", "1", "--rounds", "10"),
                memory("dp-recal over 100000 agents", "(--nodes", "--algo", "dp-recal", "--nodes", "100000", "--clip", "1",
                        "--epsilon", "1", "--rounds", "10"),
                bad("personalized learning of 100000 users", "needs about && (--users", "train", "--dataset", "collaborative",
                        "--algo", "personalized-cd", "--users", "100000", "--rounds", "10", "--out", out("memory-users")));
    }

    /** {@code train} on the small valid a9a of a run too large for any machine: refused up front, saying what fits. */
    private static Arguments memory(String name, String fix, String... options) {
        List<String> args = new ArrayList<>(List.of("train", "--dataset", "a9a", "--data-dir", dir("data-small"), "--out",
                out("memory-" + name.replace(' ', '-'))));
        args.addAll(List.of(options));
        return Arguments.of(name, "needs about && " + fix, args);
    }

    /** The placeholders of the checkpoint cases, replaced once the files exist. */
    private static List<String> resolve(List<String> args) {
        return args.stream().map(a -> switch (a) {
            case "FLIPPED" -> corrupt.toString();
            case "TRUNCATED" -> truncated.toString();
            case "CONFIG" -> finished.resolveSibling("config.json").toString();
            case "FINISHED" -> finished.toString();
            case "REAL_DATA" -> CommandRun.realDataDir("the memory cases on real MNIST");
            default -> a;
        }).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isRefusedWithAClearMessage(String name, String expected, List<String> args) {
        CommandRun r = CommandRun.of(resolve(args).toArray(String[]::new));
        Outcome outcome;
        if (r.exitCode() == 0) {
            outcome = Outcome.SILENT;
        } else if (r.err().contains("\tat ") || r.out().contains("\tat ") || r.err().contains("Exception in thread")) {
            outcome = Outcome.STACK_TRACE;
        } else if (!mentionsAll(r.err(), expected) || INTERNAL.matcher(r.err()).find()) {
            outcome = Outcome.UNCLEAR;
        } else {
            outcome = Outcome.CLEAR;
        }
        synchronized (TALLY) {
            TALLY.merge(outcome, 1, Integer::sum);
        }
        assertEquals(Outcome.CLEAR, outcome, name + ": expected a message containing '" + expected + "'\n" + r.both());
        assertTrue(r.exitCode() == 1 || r.exitCode() == 2, name + ": exit code " + r.exitCode());
    }

    /** Whether the text contains every part of {@code expected} (parts joined by " && "), ignoring case. */
    private static boolean mentionsAll(String text, String expected) {
        String lower = text.toLowerCase(Locale.ROOT);
        return Stream.of(expected.split(" && ")).allMatch(part -> lower.contains(part.toLowerCase(Locale.ROOT)));
    }

    @Test
    void aDeltaOfAtLeastOneOverNIsAcceptedWithAWarningThatSaysWhy() {
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "ldp", "--clip", "1", "--sigma-cdp", "5",
                "--rounds", "5", "--delta", "0.5", "--noise", "seeded", "--out", out("delta"));
        assertEquals(0, r.exitCode(), r.both());
        assertTrue(r.out().contains("warning: --delta 0.5 is at least 1/N") && r.out().contains("in the clear"), r.out());
    }

    @AfterAll
    static void tally() {
        int tried = TALLY.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf(Locale.ROOT, "bad inputs tried: %d; clear: %d, unclear: %d, stack trace: %d, silent: %d%n", tried,
                TALLY.getOrDefault(Outcome.CLEAR, 0), TALLY.getOrDefault(Outcome.UNCLEAR, 0),
                TALLY.getOrDefault(Outcome.STACK_TRACE, 0), TALLY.getOrDefault(Outcome.SILENT, 0));
    }
}
