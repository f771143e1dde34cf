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
    /** Words that belong to the code, not to the user: field names, enum constants, exception names (not options). */
    private static final Pattern INTERNAL = Pattern.compile(
            "\\brho\\b|trainFraction|(?<!-)\\btotal\\b|No enum constant|Exception|internal error|\\bnull\\b"
            + "|shardsPerNode|numFeatures|LibSvmFormat|BinaryLabelScheme|MatchingEngine|TargetNetwork|Feature|ALLOW_|0-based"
            + "|chmod");

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
        namesAndTracesFiles();
        Files.writeString(tmp.resolve("space-lr.json"), "{\"lr\": {\"log\": [0.01, 1]}}");
    }

    /** The files of the cases on internal names, traces, wrong diagnoses and silent acceptance (end of the list). */
    private static void namesAndTracesFiles() throws IOException {
        a9a("label", "+1 3:1 11:1\n3 5:1 9:1\n");
        a9a("index-high", "+1 3:1 11:1\n-1 5:1 124:1\n");
        a9a("index-negative", "+1 3:1 11:1\n-1 -1:1 9:1\n");
        a9a("index-zero", "+1 3:1 11:1\n-1 0:1 9:1\n");
        Path covtype = Files.createDirectories(tmp.resolve("data-covtype-label").resolve("covtype"));
        gzip(covtype.resolve("covtype_binary_scale_subset20k.csv.gz"), "3" + ",0.5".repeat(54) + "\n");
        Files.writeString(tmp.resolve("space-broken.json"), "{\"lr\": {\"log\": [0.01, 1],}}");
        Files.writeString(tmp.resolve("space-twice.json"), "{\"lr\": {\"log\": [0.01, 1]}, \"lr\": {\"log\": [0.1, 1]}}");
        Files.writeString(tmp.resolve("space-empty.json"), "{\"activation\": {\"choice\": []}}");
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
                train("sigma-cor with epsilon", "--sigma-cor goes with --sigma-cdp && drop --sigma-cor", "--algo", "decor",
                        "--clip", "1", "--epsilon", "3", "--sigma-cor", "4"),
                train("noise pair with explicit noise", "--noise-pair chooses among the noise pairs && drop --noise-pair",
                        "--algo", "decor", "--clip", "1", "--sigma-cdp", "2", "--sigma-cor", "4", "--noise-pair", "middle"),
                // options that would have no effect in this combination, or take another value than the one given
                bad("client sampling without a rate", "--client-sampling has no effect without --client-rate", "train",
                        "--dataset", "a9a", "--data-dir", dir("data-small"), "--algo", "fedavg", "--machines", "4",
                        "--client-sampling", "fixed", "--out", out("client-sampling")),
                bad("fixed client rate of no whole number", "--client-rate 0.25 with --client-sampling fixed && not a whole"
                        + " number && e.g. 0.2 or 0.3", "train", "--dataset", "a9a", "--data-dir", dir("data-small"), "--algo",
                        "fedavg", "--machines", "10", "--client-rate", "0.25", "--client-sampling", "fixed", "--out",
                        out("client-rate")),
                bad("colluding sets without colluders", "--colluding-sets chooses && --colluding-fraction", "train",
                        "--dataset", "a9a", "--data-dir", dir("data-small"), "--algo", "gopa", "--machines", "4", "--clip", "1",
                        "--epsilon", "2", "--colluding-sets", "sampled:10", "--out", out("colluding-sets")),
                train("alpha and step scale", "--step-scale multiplies the default step alpha && not both", "--algo",
                        "pg-extra", "--nodes", "16", "--alpha", "0.1", "--step-scale", "0.5"),
                train("mu without theta", "--mu splits the correction step && --theta", "--algo", "recal", "--nodes", "16", "--mu", "0.5"),
                bad("tune pool with grid search", "--pool has no effect with --search grid && --grid-points", "tune", "--algo",
                        "sgd", "--tuning-data", "public", "--dataset", "a9a", "--data-dir", dir("data-small"), "--space",
                        dir("space-lr.json"), "--search", "grid", "--pool", "8", "--out", out("t-pool")),
                bad("tune grid points with random search", "--grid-points has no effect with random search && --search grid",
                        "tune", "--algo", "sgd", "--tuning-data", "public", "--dataset", "a9a", "--data-dir", dir("data-small"), "--space",
                        dir("space-lr.json"), "--grid-points", "5", "--out", out("t-grid")),
                bad("attack ig with DLG's iterations", "--iterations has no effect with --method ig && --method dlg, idlg or"
                        + " auto", "attack", "dlg", "--target-index", "0", "--method", "ig", "--iterations", "5", "--out",
                        out("a-ig")),
                bad("attack dlg with Inverting Gradients' steps", "--ig-lr has no effect with --method dlg && --method ig or"
                        + " auto", "attack", "dlg", "--target-index", "0", "--method", "dlg", "--ig-lr", "0.5", "--out",
                        out("a-dlg")),
                bad("attack Adam's rate with L-BFGS", "--adam-lr has no effect with --optimizer lbfgs && --optimizer adam",
                        "attack", "idlg", "--target-index", "0", "--adam-lr", "0.5", "--out", out("a-adam")),
                bad("attack hidden activation of softmax", "--hidden-activation has no effect with --model softmax", "attack",
                        "dlg", "--target-index", "0", "--model", "softmax", "--hidden-activation", "tanh", "--out",
                        out("a-hidden")),
                bad("attack precision with the Java engine", "--precision has no effect with --engine auto && in double"
                        + " && --engine closed-form or samediff", "attack", "dlg", "--target-index", "0", "--precision", "double",
                        "--out", out("a-precision")),
                bad("attack report iDLG iterations on the CNN", "--idlg-iterations has no effect with --model cnn", "attack",
                        "report", "--model", "cnn", "--idlg-iterations", "5", "--out", out("a-report-cnn")),
                bad("attack report IG iterations without IG", "--ig-iterations has no effect with --model mlp && --ig-images",
                        "attack", "report", "--ig-iterations", "5", "--out", out("a-report-ig")),
                bad("audit with Philox noise", "--noise philox && use --noise secure or seeded", "audit", "--noise", "philox",
                        "--epsilon", "8", "--out", out("audit-philox")),
                bad("quick reproduction with seeds", "--seeds has no effect with --quick", "reproduce", "dp-sgd", "--dataset",
                        "a9a", "--quick", "--seeds", "5", "--out", out("r-quick-seeds")),
                bad("reproduce without a subcommand", "Missing subcommand: use decor, dp-sgd", "reproduce"),
                bad("bench without a subcommand", "Missing subcommand: use dp-step, noise", "bench"),
                bad("quick reproduction with the wide grid", "--wide-grid has no effect with --quick", "reproduce", "dp-sgd",
                        "--dataset", "mnist", "--quick", "--wide-grid", "--out", out("r-quick-wide")),
                bad("quick recal reproduction of mnist", "--quick runs a covtype sample only && drop --quick to reproduce MNIST",
                        "reproduce", "recal", "--quick", "--datasets", "covtype,mnist", "--out", out("recal-quick-mnist")),
                bad("audit rescore with an auditor", "--auditor does not apply with --rescore", "audit", "--rescore",
                        out("no-scores.csv"), "--auditor", "black-box"),
                bad("audit summarize with an algorithm", "--algo does not apply with --summarize", "audit", "--summarize",
                        out("no-audits"), "--algo", "dp-sgd"),
                bad("black-box audit with canary kind", "black-box auditor does not see && drop --canary", "audit", "--auditor",
                        "black-box", "--canary", "random", "--epsilon", "8", "--out", out("audit-black-box-canary")),
                bad("account decor grid without calibration", "--grid-size is the calibration's && --calibrate", "account",
                        "decor", "--topology", "ring", "--nodes", "8", "--clip", "1", "--sigma-cdp", "1", "--sigma-cor", "2",
                        "--steps", "10", "--delta", "1e-5", "--grid-size", "100"),
                bad("audit hidden layer of no units", "--hidden 0: every hidden layer needs at least 1 unit", "audit",
                        "--hidden", "0", "--out", out("audit-hidden")),
                train("torus of another size", "torus 3x3 has 9 nodes, but 16 were requested && give 9 nodes", "--algo",
                        "dsgd", "--topology", "torus:3x3", "--nodes", "16"),
                // privacy loss distributions certify even 1e-4 (with z near 5000); Renyi DP cannot
                train("impossible epsilon", "cannot be reached", "--algo", "dp-sgd", "--clip", "1", "--epsilon", "0.0001",
                        "--epochs", "100", "--accountant", "rdp"),
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
                train("finished run reopened with other settings", "is of a finished run && only with the settings it was"
                        + " saved with && --lr", "--epochs", "2", "--lr", "0.5", "--resume", "FINISHED"),
                train("resume with other settings", "--continue-with-new-settings", "--epochs", "4", "--lr", "0.5",
                        "--resume", "FINISHED"),
                train("dry run of a resumed run", "--dry-run prices a run from its first step && drop --resume", "--epochs", "4",
                        "--dry-run", "--resume", "FINISHED"),
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
                bad("dp-sgd chosen from nothing", "holds results.csv", "reproduce", "dp-sgd", "--dataset", "a9a",
                        "--chosen-from", out("r9-missing"), "--out", out("r9")),
                bad("dp-sgd chosen from its own output", "is the output directory", "reproduce", "dp-sgd", "--dataset", "a9a",
                        "--chosen-from", out("r10"), "--out", out("r10")),
                bad("dp-sgd unknown accountant", "unknown accountant 'moments'", "reproduce", "dp-sgd", "--dataset", "a9a",
                        "--accountant", "moments", "--out", out("r11")),
                bad("attack report unknown accountant", "--accountant: unknown accountant 'moments'", "attack", "report",
                        "--accountant", "moments", "--out", out("a2")),
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
                // one claim of --out for every command: never another command's directory, never a sibling instead
                bad("reproduce recal into a train run", "holds the output of 'dpdl4j train' && give another --out",
                        "reproduce", "recal", "--out", dir("finished")),
                bad("reproduce personalized into a train run", "holds the output of 'dpdl4j train' && give another --out",
                        "reproduce", "personalized", "--out", dir("finished")),
                bad("reproduce decor into a train run", "holds the output of 'dpdl4j train'", "reproduce", "decor", "--task",
                        "synthetic", "--quick", "--out", dir("finished")),
                bad("attack into a run", "already holds a run && give another --out", "attack", "dlg", "--target-index",
                        "0", "--out", dir("finished")),
                bad("attack compare into a run", "already holds a run", "attack", "compare", "--target-index", "0", "--out",
                        dir("finished")),
                bad("attack report into a run", "already holds a run", "attack", "report", "--out", dir("finished")),
                bad("tune into a run", "already holds a run", "tune", "--algo", "dp-sgd", "--dataset", "a9a", "--data-dir",
                        dir("data-small"), "--space", "dp-sgd", "--epsilon-total", "5", "--out", dir("finished")),
                bad("dp-sgd resume of nothing", "nothing to resume && drop --resume", "reproduce", "dp-sgd", "--dataset", "a9a",
                        "--resume", "--out", out("nothing-to-resume")),
                bad("resume into a directory that holds something else", "already holds a run", "train", "--dataset",
                        "synthetic-lsq", "--epochs", "2", "--resume", "FINISHED", "--out", dir("data-small")),
                // internal names, traces, wrong diagnoses and silent acceptance
                train("spark master with no threads", "--master local[0]: asks for 0 threads && local[N] with N >= 1",
                        "--algo", "dsgd", "--engine", "spark", "--master", "local[0]"),
                train("more blocks than nodes", "--blocks 17 asks for more blocks than this run has nodes (16) && --blocks 16"
                        + " or fewer", "--algo", "dsgd", "--engine", "spark", "--master", "local[1]", "--blocks", "17"),
                train("far more blocks than nodes", "--blocks 1000 asks for more blocks", "--algo", "dsgd", "--engine", "spark",
                        "--master", "local[1]", "--blocks", "1000"),
                bad("tune space not JSON", "space-broken.json, line 1, column 26: unexpected '}'", "tune", "--algo", "sgd",
                        "--tuning-data", "public", "--dataset", "synthetic-lsq", "--space", dir("space-broken.json"), "--out",
                        out("t1")),
                bad("tune space name twice", "'lr' is given twice", "tune", "--algo", "sgd", "--tuning-data", "public",
                        "--dataset", "synthetic-lsq", "--space", dir("space-twice.json"), "--out", out("t2")),
                bad("tune space empty choice", "'activation' has an empty choice list && at least one value", "tune", "--algo",
                        "sgd", "--tuning-data", "public", "--dataset", "synthetic-lsq", "--space", dir("space-empty.json"),
                        "--out", out("t3")),
                bad("attack closed form on a CNN", "cannot attack --model dlg-lenet && closed-form engine && convolutions",
                        "attack", "dlg", "--target-index", "0", "--engine", "closed-form", "--model", "dlg-lenet", "--out",
                        out("a11")),
                bad("analytic attack on a CNN", "cannot attack --model dlg-lenet && starts with a convolution", "attack",
                        "analytic", "--target-index", "0", "--model", "dlg-lenet", "--out", out("a12")),
                bad("attack report iDLG images above the images", "--idlg-images 5 is more than the 1 attacked images",
                        "attack", "report", "--images", "1", "--idlg-images", "5", "--out", out("a13")),
                bad("attack zero iterations", "--iterations && '0' must be a whole number >= 1", "attack", "dlg",
                        "--target-index", "0", "--iterations", "0", "--out", out("a14")),
                bad("LIBSVM label outside the data set's", "line 2 && the label \"3\" && -1 or +1 && correct this line's label",
                        "train", "--dataset", "a9a", "--data-dir", dir("data-label"), "--out", out("l1")),
                bad("LIBSVM index above the features", "line 2 && index 124, outside 1..123 && has 123 features", "train",
                        "--dataset", "a9a", "--data-dir", dir("data-index-high"), "--out", out("l2")),
                bad("LIBSVM negative index", "line 2 && index -1 && never negative", "train", "--dataset", "a9a",
                        "--data-dir", dir("data-index-negative"), "--out", out("l3")),
                bad("LIBSVM index zero", "line 2 && index 0 && add 1 to every index", "train", "--dataset", "a9a",
                        "--data-dir", dir("data-index-zero"), "--out", out("l4")),
                bad("covtype label outside the data set's", "line 1 && binary label (1 or 2) && right one for this data set",
                        "train", "--dataset", "covtype-20k", "--data-dir", dir("data-covtype-label"), "--out", out("l5")),
                train("zero shards per node", "--partition shards:0 && shards per node", "--algo", "fedavg", "--partition",
                        "shards:0"),
                bad("data directory is a file", "is a file, not a directory", "train", "--dataset", "a9a", "--data-dir",
                        dir("a-file"), "--out", out("d1")),
                bad("datasets data directory is a file", "is a file, not a directory", "datasets", "--data-dir", dir("a-file")),
                bad("account vanishing noise", "--noise-multiplier 1.0E-300 is too small for an epsilon to be computed",
                        "account", "dp-sgd", "--sample-rate", "0.01", "--noise-multiplier", "1e-300", "--steps", "10",
                        "--delta", "1e-5"),
                bad("account calibrate to a boundless target", "--target-epsilon && beyond what any noise gives", "account",
                        "calibrate", "--target-epsilon", "1e308", "--sample-rate", "0.01", "--steps", "10", "--delta", "1e-5"),
                bad("account recal whose noise decays to nothing", "dpdl4j account recal: && --zeta 0.5 over --lci 2000000000"
                        + " && no epsilon can be computed", "account", "recal", "--lci", "2000000000", "--zeta", "0.5",
                        "--sensitivity", "1", "--sigma", "1", "--delta", "1e-5"),
                bad("account personalized empty entries", "--epsilons ',,' has an empty entry", "account", "personalized",
                        "--epsilons", ",,", "--delta", "1e-5"),
                train("missing edge list", "the edge list && no-such-edges.txt does not exist", "--algo", "dsgd", "--topology",
                        "file:" + dir("no-such-edges.txt")),
                bad("reproduce personalized out is a file", "dpdl4j reproduce personalized: && a-file is a file, not a"
                        + " directory", "reproduce", "personalized", "--quick", "--out", dir("a-file")),
                bad("reproduce personalized negative feature bound", "--feature-norm-bound must be a positive finite number",
                        "reproduce", "personalized", "--quick", "--feature-norm-bound", "-1", "--out", dir("bound")),
                bad("reproduce recal zero feature bound", "--feature-norm-bound must be a positive finite number",
                        "reproduce", "recal", "--quick", "--feature-norm-bound", "0", "--out", dir("recal-bound")),
                // tune: a private search space may not vary what the guarantee is (refused before the data is read)
                tune("tune space searching the noise source", "--noise changes the guarantee && drop it from the space",
                        "{\"noise\": {\"choice\": [\"seeded\"]}}"),
                tune("tune space searching delta", "--delta changes the guarantee && give --delta once",
                        "{\"lr\": {\"log\": [0.1, 1]}, \"delta\": {\"log\": [1e-6, 1e-4]}}"),
                tune("tune space searching epsilon", "--epsilon changes the guarantee && --epsilon-total",
                        "{\"epsilon\": {\"choice\": [\"1\", \"8\"]}}"),
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

    /** {@code tune} of dp-sgd on a small a9a, searching the space written (as JSON) to a file of its own. */
    private static Arguments tune(String name, String expected, String spaceJson) {
        Path space = tmp.resolve("space-" + name.replace(' ', '-') + ".json");
        try {
            Files.writeString(space, spaceJson);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bad(name, expected, "tune", "--algo", "dp-sgd", "--dataset", "a9a", "--data-dir", dir("data-small"), "--clip", "1",
                "--space", space.toString(), "--epsilon-total", "3", "--out", out(name.replace(' ', '-')));
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
        assertTrue(r.out().contains("Defaults for synthetic-lsq (give an option to change it): ") && r.out().contains("--unit user"),
                "the data set's defaults the run took are named: " + r.out());
        CommandRun dry = CommandRun.of("train", "--dataset", "synthetic-lsq", "--algo", "ldp", "--clip", "1", "--sigma-cdp", "5",
                "--rounds", "5", "--delta", "0.5", "--noise", "seeded", "--dry-run");
        assertEquals(0, dry.exitCode(), dry.both());
        assertTrue(dry.out().contains("warning: --delta 0.5 is at least 1/N"), "a dry run warns too: " + dry.out());
    }

    /** A run refused after claiming --out (a new directory, a user's empty or non-empty one) leaves it as it was. */
    @Test
    void aRunThatFailsBeforeWritingLeavesOutAsItFoundIt() throws IOException {
        Path created = tmp.resolve("out").resolve("refused-new");
        CommandRun r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--save-node-models", "--out", created.toString());
        assertEquals(2, r.exitCode(), r.both());
        assertTrue(!Files.exists(created), "the directory the run created is gone");
        Path empty = Files.createDirectories(tmp.resolve("users-empty"));
        r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--save-node-models", "--out", empty.toString());
        assertEquals(2, r.exitCode(), r.both());
        Path users = Files.createDirectories(tmp.resolve("users-files"));
        Files.writeString(users.resolve("notes.txt"), "mine");
        r = CommandRun.of("train", "--dataset", "synthetic-lsq", "--out", users.toString());
        assertEquals(1, r.exitCode(), r.both());
        for (Path dir : List.of(empty, users)) {
            try (Stream<Path> entries = Files.list(dir)) {
                assertEquals(dir.equals(users) ? List.of("notes.txt") : List.of(),
                        entries.map(p -> p.getFileName().toString()).toList(), "no lock file left in " + dir);
            }
        }
    }

    @AfterAll
    static void tally() {
        int tried = TALLY.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf(Locale.ROOT, "bad inputs tried: %d; clear: %d, unclear: %d, stack trace: %d, silent: %d%n", tried,
                TALLY.getOrDefault(Outcome.CLEAR, 0), TALLY.getOrDefault(Outcome.UNCLEAR, 0),
                TALLY.getOrDefault(Outcome.STACK_TRACE, 0), TALLY.getOrDefault(Outcome.SILENT, 0));
    }
}
