package org.dpdl4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpdl4j.experiments.campaign.AttackCampaign;
import org.dpdl4j.experiments.campaign.CampaignAttack;
import org.dpdl4j.experiments.campaign.CampaignJournal;
import org.dpdl4j.experiments.campaign.CampaignProtocols;
import org.dpdl4j.experiments.campaign.CampaignReport;
import org.dpdl4j.experiments.campaign.CampaignResult;
import org.dpdl4j.experiments.campaign.RowSummary;
import org.dpdl4j.experiments.campaign.Verdict;
import org.dpdl4j.attacks.inversion.DlgConfig;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.CampaignSettings;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.attacks.observe.AttackedModel;
import org.dpdl4j.attacks.inversion.InvertingGradientsConfig;
import org.dpdl4j.experiments.report.Provenance;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.data.TrainTest;
import org.dpdl4j.data.catalog.Datasets;
import org.dpdl4j.data.mnist.PixelScaling;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dpdl4j attack report}: attacks every protocol from every observer position at batch size 1, without
 * privacy and at each epsilon, on MNIST training images 0..N-1, and writes {@code report.md}, {@code results.csv},
 * {@code images.csv}, {@code baselines.csv} and one reconstruction grid per attack.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Gradient inversion against every protocol x observer x epsilon (MNIST training images"
                + " 0..N-1, batch size 1): report.md, results.csv, images.csv, baselines.csv, grid-<attack>.png.",
                "Prints a progress line per run and row, then the table and the verdicts."})
final class AttackReportCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(converter = Converters.PositiveInt.class, names = "--images", defaultValue = "20", paramLabel = "N",
            description = "Attacked images: MNIST training images 0..N-1 (default ${DEFAULT-VALUE}).")
    int images;

    @Option(converter = Converters.Positive.class, names = "--epsilons", defaultValue = "1,8", split = ",", paramLabel = "E",
            description = "Epsilons of the private protocols, at delta 1e-5 (default ${DEFAULT-VALUE}).")
    List<Double> epsilons;

    @Option(names = "--protocols", split = ",", paramLabel = "NAME",
            description = "Protocols to attack (default: all of ${COMPLETION-CANDIDATES}).",
            completionCandidates = ProtocolNames.class)
    List<String> protocols;

    @Option(converter = Converters.NonNegativeInt.class, names = "--attack-round", defaultValue = "50", paramLabel = "T",
            description = "Rounds (steps) of training before the first attacked release (default ${DEFAULT-VALUE}).")
    int attackRound;

    @Option(converter = Converters.PositiveInt.class, names = "--idlg-iterations", defaultValue = "300", paramLabel = "N",
            description = "L-BFGS steps of each iDLG run (default ${DEFAULT-VALUE}, the DLG reference's).")
    int idlgIterations;

    @Option(converter = Converters.PositiveInt.class, names = "--idlg-images", paramLabel = "N",
            description = "Run iDLG on the releases of the first N images only (default: all); the analytic"
                    + " inversion always runs on all.")
    Integer idlgImages;

    @Option(converter = Converters.NonNegativeInt.class, names = "--ig-images", defaultValue = "0", paramLabel = "N",
            description = "Also run Inverting Gradients, on the releases of the first N images (default"
                    + " ${DEFAULT-VALUE}: not with --model mlp, every image with --model cnn).")
    int igImages;

    @Option(converter = Converters.PositiveInt.class, names = "--ig-iterations", defaultValue = "2000", paramLabel = "N",
            description = "Adam steps per start of Inverting Gradients (default ${DEFAULT-VALUE}).")
    int igIterations;

    @Option(names = "--model", defaultValue = "mlp", paramLabel = "MODEL",
            description = "Attacked network: mlp (784-128-10, sigmoid; every protocol; analytic inversion and iDLG) or"
                    + " cnn (the private tanh CNN with max pooling; the central protocols sgd and dp-sgd, whose engine"
                    + " clips convolutions; Inverting Gradients) (default ${DEFAULT-VALUE}).")
    String model;

    @Option(converter = Converters.PositiveInt.class, names = "--baselines", defaultValue = "5", paramLabel = "K",
            description = "Pure-noise baseline attacks per private (protocol, observer, epsilon) row (default"
                    + " ${DEFAULT-VALUE}).")
    int baselines;

    @Option(names = "--seed", defaultValue = "1234", paramLabel = "S",
            description = "Master seed of models, data split, sampling, noise and dummies (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--accountant", defaultValue = AccountantFactory.TIGHTEST, paramLabel = "A",
            description = "How every private run's noise is calibrated to its epsilon: tightest (default: the smallest"
                    + " valid bound, the least noise), rdp (Renyi DP alone, as results/attacks was made) or additive.")
    String accountant;

    @Mixin
    DataDirOption data;

    @Option(names = "--out", defaultValue = "results/attacks", paramLabel = "DIR",
            description = "Output directory, new or empty (or the unfinished report's, with --resume); a directory that"
                    + " holds another report is refused (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--resume",
            description = "Continue the report that an interrupted run (a crash, a kill) left in --out, with the same"
                    + " options: every finished row is kept from its journal (journal.jsonl, written as each row"
                    + " finishes and deleted once the report is written) and only the rest runs.")
    boolean resume;

    @Option(names = "--keep-journal",
            description = "Keep journal.jsonl after the report is written: every record with its reconstruction's"
                    + " pixels bit for bit (images.csv has the scores only).")
    boolean keepJournal;

    /** Candidates for --protocols in the help. */
    static final class ProtocolNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return CampaignProtocols.names().iterator();
        }
    }

    private ParameterException bad(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter console = spec.commandLine().getOut();
        boolean cnn = switch (model.toLowerCase(Locale.ROOT)) {
            case "mlp" -> false;
            case "cnn" -> true;
            default -> throw bad("--model: unknown value '" + model + "'; use mlp or cnn");
        };
        List<String> central = List.of("sgd", "dp-sgd");
        List<ProtocolScenario> chosen;
        try {
            chosen = protocols == null ? CampaignProtocols.all() : CampaignProtocols.named(protocols);
            if (cnn) {
                List<String> others = protocols == null ? List.of()
                        : protocols.stream().filter(p -> !central.contains(p)).toList();
                if (!others.isEmpty()) {
                    throw new IllegalArgumentException(String.join(", ", others) + " cannot train the CNN (the stacked"
                            + " engines of the multi-party protocols compute fully connected layers); with --model cnn"
                            + " use " + String.join(", ", central));
                }
                chosen = CampaignProtocols.named(protocols == null ? central : protocols);
            }
        } catch (IllegalArgumentException e) {
            throw bad("--protocols: " + e.getMessage());
        }
        var parsed = spec.commandLine().getParseResult();
        for (String idlgOption : List.of("--idlg-iterations", "--idlg-images")) {
            if (cnn && parsed.hasMatchedOption(idlgOption)) {
                throw bad(idlgOption + " has no effect with --model cnn (only Inverting Gradients attacks the CNN); drop it");
            }
        }
        if (!cnn && igImages == 0 && parsed.hasMatchedOption("--ig-iterations")) {
            throw bad("--ig-iterations has no effect with --model mlp unless --ig-images is above 0 (Inverting Gradients runs"
                    + " on the MLP only on that many images); drop it, or give --ig-images");
        }
        if (idlgImages != null) {
            requireAtMostImages("--idlg-images", idlgImages);
        }
        requireAtMostImages("--ig-images", igImages);
        try {
            AccountantFactory.named(accountant);
        } catch (IllegalArgumentException e) {
            throw bad("--accountant: " + e.getMessage());
        }
        // --out is claimed before the data is read, so a taken directory is refused at once
        RunDirectory run;
        if (resume) {
            try {
                run = RunDirectory.claim(out, "dpdl4j attack report", "dpdl4j attack report --resume",
                        RunDirectory.Reuse.SAME_COMMAND);
            } catch (IllegalStateException e) {
                throw bad("--resume: " + e.getMessage());
            }
        } else {
            if (out != null && Files.isRegularFile(out.resolve(CampaignJournal.FILE_NAME))) {
                throw bad("--out " + out + " holds an unfinished report; continue it with --resume --out " + out
                        + ", or give another --out");
            }
            run = RunDirectory.of(out, "dpdl4j attack report", "attack-report");
        }
        try (run) {
            TrainTest mnist = Datasets.mnist(data.resolve(spec.commandLine()), PixelScaling.UNIT_INTERVAL);
            if (images < 1 || images > mnist.train().size()) {
                throw bad("--images must lie in 1.." + mnist.train().size() + ", got " + images);
            }
            int[] targets = new int[images];
            for (int i = 0; i < images; i++) {
                targets[i] = i;
            }
            RunWorkload workload;
            AttackCampaign.Plan plan;
            try {
                CampaignSettings defaults = CampaignSettings.defaults();
                CampaignSettings settings = new CampaignSettings(seed, defaults.hiddenUnits(), defaults.learningRate(),
                        defaults.clipNorm(), defaults.delta(), attackRound,
                        cnn ? AttackedModel.TANH_CNN : AttackedModel.SIGMOID_MLP, accountant);
                workload = new RunWorkload(mnist.train(), mnist.test(), targets, ImageShape.MNIST, settings);
                CampaignAttack ig = CampaignAttack.invertingGradients(InvertingGradientsConfig.defaults()
                        .withIterations(igIterations).withSeed(seed));
                List<CampaignAttack> attacks = new java.util.ArrayList<>();
                if (cnn) {
                    attacks.add(igImages > 0 ? ig.limitedTo(igImages) : ig);
                } else {
                    DlgConfig idlg = CampaignAttack.defaultIdlg().withIterations(idlgIterations)
                            .withSnapshotEvery(idlgIterations);
                    CampaignAttack idlgAttack = CampaignAttack.idlg(idlg);
                    attacks.add(CampaignAttack.analyticLeastSquares());
                    attacks.add(idlgImages == null ? idlgAttack : idlgAttack.limitedTo(idlgImages));
                    if (igImages > 0) {
                        attacks.add(ig.limitedTo(igImages));
                    }
                }
                plan = new AttackCampaign.Plan(chosen, epsilons, attacks, baselines);
            } catch (IllegalArgumentException e) {
                throw bad(e.getMessage());
            }
            List<String> args = spec.commandLine().getParseResult().originalArgs();
            String description = AttackCampaign.describe(workload, plan);
            CampaignJournal journal;
            if (resume) {
                try {
                    journal = CampaignJournal.resume(run.file(CampaignJournal.FILE_NAME), description);
                } catch (IllegalStateException e) {
                    throw bad("--resume: " + e.getMessage());
                }
                console.printf(Locale.ROOT, "resuming the report in %s%n", run.path());
            } else {
                run.writeConfig(config(chosen), Provenance.capture(Map.of("master", seed), args));
                journal = CampaignJournal.create(run.file(CampaignJournal.FILE_NAME), description);
            }
            console.printf(Locale.ROOT, "attacking MNIST training images 0..%d: %d protocols, epsilons %s, first attacked"
                    + " round %d%n", images - 1, chosen.size(), epsilons, attackRound);
            console.flush();
            CampaignResult result;
            try (journal) {
                result = AttackCampaign.run(workload, plan, line -> {
                    console.println(line);
                    console.flush();
                }, journal);
            }
            String command = "dpdl4j " + String.join(" ", args);
            new CampaignReport(result, workload, plan, command).write(run.path());
            if (!keepJournal) {
                journal.delete();
            }
            printTable(console, result);
            console.printf(Locale.ROOT, "wrote %s (report.md, results.csv, images.csv, baselines.csv, grid-*.png) in %.1f"
                    + " minutes%n", run.path(), result.seconds() / 60);
            console.flush();
            return 0;
        }
    }

    /** A subset of the attacked images larger than the set itself is a mistake, not "all of them". */
    private void requireAtMostImages(String option, int subset) {
        if (subset > images) {
            throw bad(option + " " + subset + " is more than the " + images + " attacked images (--images " + images
                    + "); give at most " + images + ", or raise --images");
        }
    }

    private Map<String, Object> config(List<ProtocolScenario> chosen) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("images", images);
        config.put("epsilons", epsilons);
        config.put("protocols", chosen.stream().map(ProtocolScenario::algorithm).toList());
        config.put("attack_round", attackRound);
        config.put("idlg_iterations", idlgIterations);
        config.put("idlg_images", idlgImages);
        config.put("baselines", baselines);
        config.put("model", model);
        config.put("ig_images", igImages);
        config.put("ig_iterations", igIterations);
        config.put("seed", seed);
        config.put("accountant", accountant);
        return config;
    }

    private static void printTable(PrintWriter out, CampaignResult result) {
        out.println();
        out.printf(Locale.ROOT, "%-18s %-18s %-4s %-11s %7s %6s %9s %9s %6s %9s %7s %6s%n", "protocol", "observer", "eps",
                "attack", "round", "acc", "noise/rms", "PSNR", "SSIM", "recovered", "failed", "label");
        for (RowSummary r : result.summaries()) {
            out.printf(Locale.ROOT, "%-18s %-18s %-4s %-11s %7s %6.3f %9.3g %9s %6.3f %8.0f%% %6.0f%% %5.0f%%%n",
                    r.key().algorithm(), r.key().observer(), r.key().epsilonLabel(), r.key().attack(), r.rounds(),
                    r.modelAccuracy(), r.noiseRatio(), Double.isInfinite(r.medianPsnr()) ? "exact"
                            : String.format(Locale.ROOT, "%.1f", r.medianPsnr()), r.medianSsim(), 100 * r.recovered(),
                    100 * r.failed(), 100 * r.labelAccuracy());
        }
        out.println();
        for (Verdict v : result.verdicts()) {
            if (Double.isFinite(v.epsilon())) {
                out.printf(Locale.ROOT, "%s / %s at epsilon %s: recovery fails on %.0f%% of the images -> %s%n",
                        v.algorithm(), v.observer(), org.dpdl4j.experiments.campaign.RowKey.formatEpsilon(v.epsilon()),
                        100 * v.failed(), v.failsOnNinetyPercent() ? "protected (>= 90%)" : "NOT protected (< 90%)");
            }
        }
    }
}
