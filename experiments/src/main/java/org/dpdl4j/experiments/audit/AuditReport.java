package org.dpdl4j.experiments.audit;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.dpdl4j.audit.AuditResult;
import org.dpdl4j.experiments.report.RunDirectory;
import org.dpdl4j.privacy.ledger.EpsilonFormat;

/**
 * What every {@code dpdl4j audit} run writes and prints, whatever it audited: {@code canaries.csv} (coins and scores,
 * for re-scoring), {@code audit.json}, {@code summary.md}, the audit in words, and the closing lines
 * {@code epsilon_lower=} and {@code epsilon=} (the accountant's).
 *
 * @param title           what was audited, e.g. "DP-SGD on mnist"
 * @param audit           the audit of the scores
 * @param epsilon         the accountant's epsilon of the run (its ledger's, for the protected unit)
 * @param canaries        the canaries and how they were scored, in words
 * @param run             the run's size and noise, in words
 * @param steps           the steps (rounds) the noise was released in
 * @param noiseMultiplier z
 * @param samplingRate    q, the probability that a step samples a given example (client)
 * @param accuracy        the final model's accuracy on its training data
 * @param extra           more entries for {@code audit.json}, after the common ones
 */
public record AuditReport(String title, AuditResult audit, double epsilon, String canaries, String run, long steps,
                          double noiseMultiplier, double samplingRate, double accuracy, Map<String, Object> extra) {

    /** Writes the files into {@code dir} and prints the audit, ending with {@code epsilon_lower=} and {@code epsilon=}. */
    public void write(RunDirectory dir, boolean[] coins, double[] scores, PrintWriter console) throws IOException {
        dir.writeText("canaries.csv", new CanaryFile(coins, scores).text());
        dir.writeJson("audit.json", json());
        dir.writeText("summary.md", summary());
        console.print(audit.text());
        console.printf(Locale.ROOT, "training accuracy %.4f (on the private training data, not covered by the guarantee)%n",
                accuracy);
        console.println("Wrote " + dir.path() + ": " + dir.listing());
        // the lower bound rounded down and the accountant's epsilon up: neither line claims more than was shown
        console.println("epsilon_lower=" + EpsilonFormat.downward(audit.epsilonLower(), 6));
        console.println("epsilon=" + EpsilonFormat.upward(epsilon, 6));
        console.flush();
    }

    Map<String, Object> json() {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("epsilon_lower", audit.epsilonLower());
        j.put("epsilon", epsilon);
        j.put("confidence", audit.confidence());
        j.put("delta", audit.delta());
        j.put("canaries", audit.canaries());
        j.put("included", audit.included());
        j.put("guesses", audit.guesses().guesses());
        j.put("correct", audit.guesses().correct());
        j.put("k_plus", audit.guesses().kPlus());
        j.put("k_minus", audit.guesses().kMinus());
        j.put("guess_plan", audit.plan().describe());
        j.put("auc", audit.auc());
        j.put("tpr_at_fpr_1pct", audit.tprAtFpr1pct());
        j.put("tpr_at_fpr_0.1pct", audit.tprAtFpr01pct());
        j.put("steps", steps);
        j.put("noise_multiplier", noiseMultiplier);
        j.put("sampling_rate", samplingRate);
        j.put("training_accuracy", accuracy);
        j.putAll(extra);
        return j;
    }

    String summary() {
        return String.format(Locale.ROOT, """
                        # One-run privacy audit of %s

                        | | |
                        | --- | --- |
                        | accountant's epsilon (delta = %s) | %s |
                        | audit's epsilon lower bound (%s%% confidence) | %s |
                        | guesses | %d right of %d (kPlus = %d, kMinus = %d) |
                        | canaries | %d, %d included (%s) |
                        | membership inference | AUC %.4f, TPR %.4f at FPR 1%%, %.4f at FPR 0.1%% |
                        | run | %s |
                        | training accuracy | %.4f |

                        The lower bound is what this run provably does not beat, at the stated confidence: the run is not
                        (eps, delta)-DP for any eps below it. It is not an estimate of the run's true epsilon: a bound well
                        below the accountant's epsilon is expected of a correct mechanism and no sign of a flaw; a bound
                        above it means the mechanism or its analysis is broken (or, with probability at most one minus the
                        confidence, bad luck). Guesses: %s.
                        """, title, audit.delta(), EpsilonFormat.upward(epsilon), AuditResult.confidencePercent(audit.confidence()),
                EpsilonFormat.downward(audit.epsilonLower(), 4),
                audit.guesses().correct(), audit.guesses().guesses(), audit.guesses().kPlus(), audit.guesses().kMinus(),
                audit.canaries(), audit.included(), canaries, audit.auc(), audit.tprAtFpr1pct(), audit.tprAtFpr01pct(), run,
                accuracy, audit.plan().describe());
    }
}
