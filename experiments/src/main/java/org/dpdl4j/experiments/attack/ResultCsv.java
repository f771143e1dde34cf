package org.dpdl4j.experiments.attack;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.Snapshot;
import org.dpdl4j.runtime.RunFilePermissions;

/** Attack results as CSV: the snapshot trace of one attack, or one summary row per attack. */
public final class ResultCsv {
    /** Columns of {@link #summaryRow}. */
    public static final String SUMMARY_HEADER = "attack,protocol,observer,round,model_accuracy,noise_std,"
            + "noise_to_rms,mse,psnr,ssim,label_accuracy,final_matching_loss,seconds,evaluations,stop_reason";

    private ResultCsv() {
    }

    /** One line (no newline) summarising an attack, in the columns of {@link #SUMMARY_HEADER}. */
    public static String summaryRow(AttackResult r) {
        var p = r.provenance();
        return String.join(",", r.attack(), p.protocol(), p.observer(), Long.toString(p.round()),
                number(p.modelAccuracy()), number(r.noise().observedStd()), number(r.noise().ratio()), number(r.mse()),
                number(r.psnr()), number(r.ssim()), number(r.labelAccuracy()), number(r.finalMatchingLoss()),
                number(r.timing().seconds()), Long.toString(r.timing().evaluations()),
                r.stopReason().name().toLowerCase(Locale.ROOT));
    }

    /** Writes the snapshot trace: iteration, evaluations, matching loss, mean MSE, PSNR and SSIM. */
    public static void writeSnapshots(AttackResult result, Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("iteration,evaluations,matching_loss,mse,psnr,ssim\n");
            for (Snapshot s : result.snapshots()) {
                w.write(s.iteration() + "," + s.evaluations() + "," + number(s.matchingLoss()) + "," + number(s.mse())
                        + "," + number(s.psnr()) + "," + number(s.ssim()) + "\n");
            }
        }
        RunFilePermissions.restrictFile(file);
    }

    /** Writes a header and one summary row per result. */
    public static void writeSummary(List<AttackResult> results, Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(SUMMARY_HEADER + "\n");
            for (AttackResult r : results) {
                w.write(summaryRow(r) + "\n");
            }
        }
        RunFilePermissions.restrictFile(file);
    }

    private static String number(double v) {
        return Double.toString(v);
    }
}
