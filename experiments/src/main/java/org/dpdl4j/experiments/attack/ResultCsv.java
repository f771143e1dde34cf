package org.dpdl4j.experiments.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.Snapshot;
import org.dpdl4j.experiments.report.AtomicFiles;

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
        StringBuilder text = new StringBuilder("iteration,evaluations,matching_loss,mse,psnr,ssim\n");
        for (Snapshot s : result.snapshots()) {
            text.append(s.iteration()).append(',').append(s.evaluations()).append(',').append(number(s.matchingLoss()))
                    .append(',').append(number(s.mse())).append(',').append(number(s.psnr())).append(',')
                    .append(number(s.ssim())).append('\n');
        }
        AtomicFiles.replace(file, text.toString());
    }

    /** Writes a header and one summary row per result. */
    public static void writeSummary(List<AttackResult> results, Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        StringBuilder text = new StringBuilder(SUMMARY_HEADER).append('\n');
        for (AttackResult r : results) {
            text.append(summaryRow(r)).append('\n');
        }
        AtomicFiles.replace(file, text.toString());
    }

    private static String number(double v) {
        return Double.toString(v);
    }
}
