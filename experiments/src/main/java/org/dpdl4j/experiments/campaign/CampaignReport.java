package org.dpdl4j.experiments.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.image.PanelGrid;
import org.dpdl4j.attacks.observe.CampaignSettings;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.experiments.report.AtomicFiles;
import org.dpdl4j.privacy.accounting.AccountantFactory;

/**
 * Writes a campaign's results: {@code report.md} (setup, calibration, the derivation of the failure threshold, the
 * table, the verdicts), {@code results.csv} (one row per protocol, observer, epsilon and attack), {@code images.csv}
 * (one row per attacked image and attack), {@code baselines.csv} (the information-free baselines) and one PNG grid
 * per attack (originals, then the reconstructions of every row).
 */
public final class CampaignReport {
    private final CampaignResult result;
    private final RunWorkload workload;
    private final AttackCampaign.Plan plan;
    private final String command;

    /**
     * @param command the command line that produced the campaign, quoted in the report
     */
    public CampaignReport(CampaignResult result, RunWorkload workload, AttackCampaign.Plan plan, String command) {
        this.result = Objects.requireNonNull(result, "result must not be null");
        this.workload = Objects.requireNonNull(workload, "workload must not be null");
        this.plan = Objects.requireNonNull(plan, "plan must not be null");
        this.command = Objects.requireNonNull(command, "command must not be null");
    }

    /** Writes every file into {@code directory} (created if needed) and returns the files written. */
    public List<Path> write(Path directory) throws IOException {
        Files.createDirectories(directory);
        List<Path> files = new ArrayList<>();
        files.add(writeText(directory.resolve("results.csv"), resultsCsv()));
        files.add(writeText(directory.resolve("images.csv"), imagesCsv()));
        files.add(writeText(directory.resolve("baselines.csv"), baselinesCsv()));
        for (CampaignAttack attack : plan.attacks()) {
            Path grid = directory.resolve("grid-" + attack.label() + ".png");
            writeGrid(attack.label(), grid);
            files.add(grid);
        }
        files.add(writeText(directory.resolve("report.md"), markdown()));
        return files;
    }

    /** Whole or not at all: the journal the report is built from is deleted once every file is written. */
    private static Path writeText(Path file, String text) throws IOException {
        return AtomicFiles.replace(file, text);
    }

    /** The aggregate table as CSV. */
    public String resultsCsv() {
        StringBuilder s = new StringBuilder("algorithm,observer,epsilon,attack,images,rounds,model_accuracy,"
                + "noise_to_rms,median_psnr,median_ssim,recovered,failed,failed_spec,label_accuracy\n");
        for (RowSummary r : result.summaries()) {
            RowKey k = r.key();
            s.append(String.join(",", k.algorithm(), quoted(k.observer()), k.epsilonLabel(), k.attack(),
                    Integer.toString(r.images()), r.rounds(), num(r.modelAccuracy()), num(r.noiseRatio()),
                    num(r.medianPsnr()), num(r.medianSsim()), num(r.recovered()), num(r.failed()),
                    num(r.failedBySpec()), num(r.labelAccuracy()))).append('\n');
        }
        return s.toString();
    }

    /** One row per attacked image and attack. */
    public String imagesCsv() {
        StringBuilder s = new StringBuilder("algorithm,observer,epsilon,attack,target,party,round,model_accuracy,"
                + "noise_std,noise_to_rms,psnr,ssim,true_label,recovered_label,recovered,failed,seconds\n");
        for (AttackRecord r : result.records()) {
            RowKey k = r.key();
            s.append(String.join(",", k.algorithm(), quoted(k.observer()), k.epsilonLabel(), k.attack(),
                    Integer.toString(r.target()), Integer.toString(r.party()), Long.toString(r.round()),
                    num(r.modelAccuracy()), num(r.noiseStd()), num(r.noiseRatio()), num(r.psnr()), num(r.ssim()),
                    Integer.toString(r.trueLabel()), Integer.toString(r.recoveredLabel()),
                    Boolean.toString(r.recovered()), Boolean.toString(result.failed(r)), num(r.seconds())))
                    .append('\n');
        }
        return s.toString();
    }

    /** The blind guesses (pure-noise reconstructions, the mean image) and the failure bar of every target. */
    public String baselinesCsv() {
        StringBuilder s = new StringBuilder("baseline,algorithm,observer,epsilon,attack,target,psnr,ssim\n");
        for (AttackRecord r : result.noiseOnly()) {
            RowKey k = r.key();
            s.append(String.join(",", "noise-only", k.algorithm(), quoted(k.observer()), k.epsilonLabel(), k.attack(),
                    Integer.toString(r.target()), num(r.psnr()), num(r.ssim()))).append('\n');
        }
        for (var e : result.threshold().bars().entrySet()) {
            FailureThreshold.Bar b = e.getValue();
            s.append(String.join(",", "mean-image", "", "", "", "", Integer.toString(e.getKey()),
                    num(b.meanImagePsnr()), num(b.meanImageSsim()))).append('\n');
            s.append(String.join(",", "failure-bar", "", "", "", "", Integer.toString(e.getKey()), num(b.psnr()),
                    num(b.ssim()))).append('\n');
        }
        return s.toString();
    }

    private void writeGrid(String attack, Path file) throws IOException {
        int[] targets = workload.targets();
        List<String> columns = new ArrayList<>();
        for (int t : targets) {
            columns.add("#" + t);
        }
        List<String> labels = new ArrayList<>();
        List<List<PanelGrid.Cell>> rows = new ArrayList<>();
        labels.add("original");
        List<PanelGrid.Cell> originals = new ArrayList<>();
        for (int t : targets) {
            originals.add(new PanelGrid.Cell(result.originals().get(t), "label " + workload.train().label(t)));
        }
        rows.add(originals);
        for (RowKey key : result.rows()) {
            if (!key.attack().equals(attack)) {
                continue;
            }
            Map<Integer, AttackRecord> byTarget = new LinkedHashMap<>();
            for (AttackRecord r : result.recordsOf(key)) {
                byTarget.put(r.target(), r);
            }
            List<PanelGrid.Cell> cells = new ArrayList<>();
            for (int t : targets) {
                AttackRecord r = byTarget.get(t);
                cells.add(r == null ? new PanelGrid.Cell(null, "") : new PanelGrid.Cell(r.pixels(), psnr(r.psnr())));
            }
            rows.add(cells);
            labels.add(key.algorithm() + " / " + key.observer() + "\neps " + key.epsilonLabel());
        }
        AtomicFiles.replace(file, f -> new PanelGrid(workload.shape(), 2).writePng(attack + ": reconstructions of MNIST training"
                + " images by protocol, observer and epsilon (captions: PSNR)", columns, labels, rows, f));
    }

    /** The report in Markdown. */
    public String markdown() {
        CampaignSettings s = workload.settings();
        int[] targets = workload.targets();
        long params = workload.newModel().numParams();
        StringBuilder md = new StringBuilder();
        boolean cnn = s.model() == org.dpdl4j.attacks.observe.AttackedModel.TANH_CNN;
        md.append(cnn ? "# Gradient inversion against the central protocols on the CNN\n\n"
                : "# Gradient inversion against every protocol\n\n");
        md.append("Produced by `").append(command).append("` in ")
                .append(String.format(Locale.ROOT, "%.1f minutes", result.seconds() / 60)).append(". Every number"
                        + " below is measured in that run; `images.csv` has one row per attacked image, `results.csv`"
                        + " the table, `baselines.csv` the baselines, `grid-*.png` the reconstructions.\n\n");

        md.append("## What was attacked\n\n");
        md.append(String.format(Locale.ROOT, "* **Targets**: MNIST training images %s (pixels in [0, 1]). Every"
                + " protocol trains on all %d training images (the relay protocols on a sample, see their setting below);"
                + " the model's accuracy is measured on the %d test images.%n", targetRange(targets), workload.train().size(), workload.test().size()));
        if (cnn) {
            md.append(String.format(Locale.ROOT, "* **Model**: the end-to-end tanh CNN of private image classification"
                    + " (conv 16 8x8 stride 2, max-pool 2x2 stride 1, conv 32 4x4 stride 2, max-pool 2x2 stride 1, dense"
                    + " 32, softmax; %d parameters), Xavier initialisation with seed %d, single precision, SGD with"
                    + " learning rate %s. Its first layer is a convolution, so no analytic inversion applies: the"
                    + " reconstructions come from Inverting Gradients. Only the central protocols train it (the"
                    + " multi-party protocols' stacked engine computes fully connected layers).%n", params, s.seed(),
                    s.learningRate()));
        } else {
            md.append(String.format(Locale.ROOT, "* **Model**: MLP %d-%d-%d with sigmoid hidden units and a softmax"
                    + " output (%d parameters, dense first layer with bias), Xavier initialisation with seed %d, single"
                    + " precision, SGD with learning rate %s. Sigmoid units keep the matching loss smooth, the setting in"
                    + " which DLG works. RECAL and DP-RECAL train the linear least-squares model of their paper instead"
                    + " (%d-%d with intercept, one-hot labels; the setting of each run is in the table below).%n",
                    workload.train().numFeatures(), s.hiddenUnits(), workload.train().numClasses(), params, s.seed(),
                    s.learningRate(), workload.train().numFeatures(), workload.train().numClasses()));
        }
        md.append("* **Batch size 1**: in the attacked round the attacked party (node, client, machine, or the single"
                + " trainer) releases the gradient of exactly one example, the target. Each protocol draws its batches"
                + " from seeded streams, so the example a party draws in a round is known before training; the target"
                + " is swapped into that row of the party's data (the example there moves to the target's old place,"
                + " so the training set stays a permutation). Target j goes to party j mod P in round "
                + s.attackRound() + " + j / P. `images.csv` records the party and round of every case; the"
                + " non-private rows, where the analytic inversion is exact, confirm that the release holds the"
                + " target. The relay protocols compute an agent's gradient over all its records, so there the attacked"
                + " agent holds only the target (one run per target).\n");
        md.append(String.format(Locale.ROOT, "* **Attacked releases**: after %d rounds (steps) of ordinary training;"
                + " the model accuracy column gives the state each release came from.%n", s.attackRound()));
        md.append(String.format(Locale.ROOT, "* **Privacy**: epsilon in {%s} at delta = %s, the noise calibrated as"
                + " each protocol's trainer does (below; dp-recal as its paper prices it, which is not a proven bound) and priced by the `%s` accountant (%s). The per-example (or"
                + " per-update) clip is C = %s. Noise comes from seeded streams: reproducible, distributed as the secure"
                + " streams, but not secret.%n%n", epsilons(), s.delta(), s.accountant(),
                AccountantFactory.describe(s.accountant()), s.clipNorm()));

        md.append("## Protocols, observers and calibration\n\n");
        md.append("| protocol | epsilon | setting | accounting the calibration assumed | noise |\n");
        md.append("| --- | --- | --- | --- | --- |\n");
        for (RunInfo run : result.runs()) {
            md.append("| ").append(run.algorithm()).append(" | ").append(RowKey.formatEpsilon(run.epsilon()))
                    .append(" | ").append(run.calibration().getOrDefault("model", "")).append(" | ")
                    .append(run.calibration().getOrDefault("accounting", "-")).append(" | ")
                    .append(run.calibration().getOrDefault("noise", "")).append(" |\n");
        }
        md.append("\n| protocol | observer | what it sees and attacks |\n| --- | --- | --- |\n");
        List<String> seen = new ArrayList<>();
        for (RowKey key : result.rows()) {
            String id = key.algorithm() + "|" + key.observer();
            if (!seen.contains(id)) {
                seen.add(id);
                md.append("| ").append(key.algorithm()).append(" | ").append(key.observer()).append(" | ")
                        .append(ObserverNotes.describe(key.algorithm(), key.observer())).append(" |\n");
            }
        }
        md.append("\n## Attacks\n\n");
        for (CampaignAttack attack : plan.attacks()) {
            md.append("* **").append(attack.label()).append("**: ").append(attack.description());
            if (attack.imageLimit() < targets.length) {
                md.append(" **Run on the first ").append(attack.imageLimit()).append(" images only** (time budget);"
                        + " on the others the verdict rests on the other attacks.");
            }
            md.append('\n');
        }
        md.append('\n');

        md.append("## The failure threshold, derived\n\n");
        FailureThreshold threshold = result.threshold();
        md.append(String.format(Locale.ROOT, "A reconstruction *fails* when it is no closer to its target than a guess"
                + " made **without any information about the image**. For every target the campaign scores %d such"
                + " blind guesses:%n%n", threshold.blindGuesses()));
        md.append("1. every reconstruction the attacks made from a **pure-noise observation**: a private release whose"
                + " observed vector is replaced by Gaussian noise of that release's own per-coordinate std (same"
                + " model, scale and noise level, no gradient of any image in it); ")
                .append(plan.baselinesPerRow()).append(" per private (protocol, observer, epsilon) row and attack;\n");
        md.append("2. the **mean training image** (the best blind guess in squared error).\n\n");
        md.append("Each reconstruction of target i is scored against target i; each blind guess is scored against"
                + " every target (it holds no information about any of them). Target i's **bar** is the best PSNR"
                + " and the best SSIM any blind guess reaches on it, and a reconstruction **fails** when its PSNR and"
                + " its SSIM are both at or below the bar. The bar is per image because how close a blind guess comes"
                + " depends strongly on the digit (a thin 1 is mostly background, which a dark guess matches); one"
                + " bar for all images would call noise on a thin digit a success and a partial recovery of a wide"
                + " digit a failure. Taking the best of all blind guesses, rather than a percentile, makes a blind"
                + " attack fail with probability about 1 - 2/(N+1) per attack (N blind guesses of its kind, two"
                + " metrics), so the 90% criterion below is not met or missed by chance.\n\n");
        double[] barPsnr = threshold.bars().values().stream().mapToDouble(FailureThreshold.Bar::psnr).toArray();
        double[] barSsim = threshold.bars().values().stream().mapToDouble(FailureThreshold.Bar::ssim).toArray();
        double[] meanPsnr = threshold.bars().values().stream().mapToDouble(FailureThreshold.Bar::meanImagePsnr)
                .toArray();
        double[] meanSsim = threshold.bars().values().stream().mapToDouble(FailureThreshold.Bar::meanImageSsim)
                .toArray();
        double[] noisePsnr = threshold.bars().values().stream().mapToDouble(FailureThreshold.Bar::noiseOnlyPsnr)
                .toArray();
        double[] noiseSsim = threshold.bars().values().stream().mapToDouble(FailureThreshold.Bar::noiseOnlySsim)
                .toArray();
        md.append("| over the targets | best noise-only PSNR | best noise-only SSIM | mean image PSNR | mean image SSIM |"
                + " **bar: PSNR** | **bar: SSIM** |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        md.append(String.format(Locale.ROOT, "| median | %s | %s | %s | %s | **%s dB** | **%s** |%n",
                fmt(Percentiles.median(noisePsnr), 2), fmt(Percentiles.median(noiseSsim), 3),
                fmt(Percentiles.median(meanPsnr), 2), fmt(Percentiles.median(meanSsim), 3),
                fmt(Percentiles.median(barPsnr), 2), fmt(Percentiles.median(barSsim), 3)));
        md.append(String.format(Locale.ROOT, "| range | %s | %s | %s | %s | %s | %s |%n%n", range(noisePsnr, 2),
                range(noiseSsim, 3), range(meanPsnr, 2), range(meanSsim, 3), range(barPsnr, 2), range(barSsim, 3)));
        md.append(String.format(Locale.ROOT, "`baselines.csv` lists every blind guess's score and each target's bar."
                + " For comparison the table also gives the fixed thresholds of spec 8.3 (failed: PSNR <= %.0f dB"
                + " and SSIM <= %.1f). A protocol *protects* an image when **every** attack fails on it."
                + " *Recovered* means PSNR >= 30 dB (spec 8.3).%n%n", CampaignThresholds.SPEC_FAILED_PSNR,
                CampaignThresholds.SPEC_FAILED_SSIM));

        md.append("## Results\n\n");
        md.append("Medians over the ").append(targets.length).append(" images. noise/RMS: per-coordinate noise std of"
                + " the observation over the RMS of the noise-free (clipped) gradient it is a multiple of.\n\n");
        md.append("| protocol | observer | epsilon | attack | images | rounds | model accuracy | noise/RMS |"
                + " median PSNR (dB) |"
                + " median SSIM | recovered | failed | failed (spec 8.3) | label accuracy |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (RowSummary r : result.summaries()) {
            RowKey k = r.key();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %s | %.3f | %s | %s | %.3f | %.0f%% | %.0f%% |"
                            + " %.0f%% | %.0f%% |%n", k.algorithm(), k.observer(), k.epsilonLabel(), k.attack(), r.images(),
                    r.rounds(),
                    r.modelAccuracy(), ratio(r.noiseRatio()), psnr(r.medianPsnr()), r.medianSsim(), 100 * r.recovered(),
                    100 * r.failed(), 100 * r.failedBySpec(), 100 * r.labelAccuracy()));
        }
        md.append("\n## Verdict: does recovery fail on at least 90% of the images?\n\n");
        md.append("An image fails when every attack fails on it; recovered when any attack recovers it.\n\n");
        md.append("| protocol | observer | epsilon | images failed | recovered by some attack | fails on >= 90%? |\n");
        md.append("| --- | --- | --- | --- | --- | --- |\n");
        List<Verdict> privateVerdicts = new ArrayList<>();
        for (Verdict v : result.verdicts()) {
            boolean isPrivate = Double.isFinite(v.epsilon());
            if (isPrivate) {
                privateVerdicts.add(v);
            }
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f%% | %.0f%% | %s |%n", v.algorithm(),
                    v.observer(), RowKey.formatEpsilon(v.epsilon()), 100 * v.failed(), 100 * v.recovered(),
                    isPrivate ? (v.failsOnNinetyPercent() ? "**yes**" : "**NO**") : "- (not private)"));
        }
        md.append('\n').append(findings(privateVerdicts)).append('\n');
        return md.toString();
    }

    /** The statements the numbers support, written from them. */
    private String findings(List<Verdict> privateVerdicts) {
        StringBuilder s = new StringBuilder("## Findings\n\n");
        List<Verdict> notFailing = privateVerdicts.stream().filter(v -> !v.failsOnNinetyPercent()).toList();
        if (notFailing.isEmpty() && !privateVerdicts.isEmpty()) {
            Verdict weakest = privateVerdicts.stream().min(java.util.Comparator.comparingDouble(Verdict::failed))
                    .orElseThrow();
            List<String> levels = plan.epsilons().stream().map(RowKey::formatEpsilon).toList();
            s.append(String.format(Locale.ROOT, "* Every private variant at every epsilon tried (%s) hides at least 90%%"
                            + " of the images from every observer: every attack fails on them (the lowest share: %.0f%%,"
                            + " %s / %s at epsilon %s).%n", String.join(", ", levels), 100 * weakest.failed(),
                    weakest.algorithm(), weakest.observer(), RowKey.formatEpsilon(weakest.epsilon())));
        }
        for (Verdict v : notFailing) {
            s.append(String.format(Locale.ROOT, "* **%s, observed by the %s, at epsilon %s does NOT hide the images:**"
                            + " recovery fails on only %.0f%% of them (%.0f%% recovered with PSNR >= 30 dB).%n",
                    v.algorithm(), v.observer(), RowKey.formatEpsilon(v.epsilon()), 100 * v.failed(),
                    100 * v.recovered()));
        }
        for (RowSummary r : result.summaries()) {
            if (!Double.isFinite(r.key().epsilon()) && r.recovered() < Verdict.REQUIRED_FAILURE) {
                s.append(String.format(Locale.ROOT, "* Without privacy, %s recovers only %.0f%% of the images from %s"
                                + " / %s (median PSNR %s dB): a limit of that attack on that view, not a protection.%n",
                        r.key().attack(), 100 * r.recovered(), r.key().algorithm(), r.key().observer(),
                        psnr(r.medianPsnr())));
            }
        }
        List<Verdict> open = result.verdicts().stream().filter(v -> !Double.isFinite(v.epsilon())).toList();
        long exposed = open.stream().filter(v -> v.recovered() >= 0.9).count();
        s.append(String.format(Locale.ROOT, "* Without privacy, %d of the %d (protocol, observer) views give at"
                + " least 90%% of the images back with PSNR >= 30 dB.%n", exposed, open.size()));
        double minRatio = result.summaries().stream().filter(r -> Double.isFinite(r.key().epsilon()))
                .mapToDouble(RowSummary::noiseRatio).min().orElse(Double.NaN);
        if (Double.isFinite(minRatio)) {
            s.append(String.format(Locale.ROOT, "* The smallest noise any private view leaves is %.3g times the RMS of"
                    + " the clipped gradient. With batch size 1 a calibrated release adds noise of order z C per"
                    + " coordinate to a gradient of norm at most C spread over d coordinates (%d for the attacked network%s), so the"
                    + " ratio is of order z sqrt(d): DP at these epsilons buries a single example's gradient.%n", minRatio,
                    workload.newModel().numParams(), result.summaries().stream().anyMatch(r -> r.key().algorithm().endsWith("recal"))
                            ? String.format(Locale.ROOT, ", %d for the relay protocols' linear model",
                            (workload.train().numFeatures() + 1) * workload.train().numClasses()) : ""));
        }
        double chance = 1.0 / workload.train().numClasses();
        for (RowSummary r : result.summaries()) {
            if (Double.isFinite(r.key().epsilon()) && r.labelAccuracy() >= 0.5) {
                s.append(String.format(Locale.ROOT, "* Labels leak: %s / %s at epsilon %s (%s) reads %.0f%% of the"
                                + " labels (chance: %.0f%%).%n", r.key().algorithm(), r.key().observer(),
                        r.key().epsilonLabel(), r.key().attack(), 100 * r.labelAccuracy(), 100 * chance));
            }
        }
        s.append("* Observers marked *worst case* know every other party's data; they bound what a real observer of"
                + " that view can learn from above.\n");
        return s.toString();
    }

    private String epsilons() {
        List<String> e = new ArrayList<>();
        e.add("inf");
        plan.epsilons().forEach(x -> e.add(RowKey.formatEpsilon(x)));
        return String.join(", ", e);
    }

    private static String targetRange(int[] targets) {
        boolean consecutive = true;
        for (int i = 1; i < targets.length; i++) {
            consecutive &= targets[i] == targets[i - 1] + 1;
        }
        return consecutive && targets.length > 1 ? targets[0] + ".." + targets[targets.length - 1]
                : java.util.Arrays.toString(targets);
    }

    private static String psnr(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return Double.isInfinite(v) ? "exact" : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String ratio(double v) {
        return v == 0 ? "0" : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String range(double[] values, int digits) {
        double lo = java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
        double hi = java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        return fmt(lo, digits) + " - " + fmt(hi, digits);
    }

    private static String fmt(double v, int digits) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : Double.toString(v);
    }

    private static String quoted(String text) {
        return text.contains(",") ? "\"" + text + "\"" : text;
    }
}
