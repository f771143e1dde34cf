package org.dpdl4j.experiments.tuning;

import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.tuning.TuningCost;
import java.util.Locale;
import org.dpdl4j.privacy.ledger.LedgerStatement;
import org.dpdl4j.privacy.ledger.RunLedger;

/**
 * A tuning's {@code privacy.txt}: what is released and what it costs, tuning included, what is not covered (the
 * operator's record, which shows K), then the ledger. It never states K or a candidate's number: it is released.
 */
final class TuningStatement {
    private TuningStatement() {
    }

    /** The statement of a tuning on data declared public: nothing is accounted. */
    static String publicData() {
        return "Privacy of the tuning: NOT ACCOUNTED. The data was declared public (or held out of the private data) with"
                + " --tuning-data public, so choosing the best configuration costs nothing here. Each candidate's own run had"
                + " its ledger (run_epsilon in " + OperatorRecord.FOLDER + "/candidates.csv); a model trained with the best"
                + " configuration on private data is covered by that training's ledger only.\n";
    }

    /**
     * The statement of a private tuning.
     *
     * @param cost        the tuning's cost
     * @param ledger      the released model's ledger
     * @param validation  how many examples scored the candidates
     * @param released    whether a model was released (false: K = 0, or no candidate produced a model)
     */
    static String privateTuning(TuningCost cost, RunLedger ledger, long validation, boolean released) {
        StringBuilder s = new StringBuilder();
        if (!ledger.secureNoise()) {
            s.append("WARNING: SEEDED NOISE, NO GUARANTEE. The candidates' noise (--noise seeded), the noise on their scores"
                    + " and the draws of K, of the candidates and of their seeds are reproducible from --seed: anyone who knows"
                    + " it can remove the noise and recompute K, so the numbers below describe the noise level, not a"
                    + " guarantee. Tune with secure noise (the default: leave out --noise seeded) for a model you release.\n\n");
        }
        s.append(epsilon(cost, ledger));
        s.append(released ? "  Released: model.zip, best.json (the best candidate's configuration, seed and noisy validation"
                + " score) and this statement; none of them holds K or a candidate's place in the tuning ("
                + (ledger.secureNoise() ? "every candidate ran with the tuning's seed, which its cost was priced with and"
                + " which draws no noise and no sampling" : "each candidate's seed is drawn at random, not from its place")
                + ").\n"
                : "  Released: this statement only. No candidate produced a model (K = 0, or every candidate diverged).\n");
        s.append(howAndBound(cost, "the training data less " + validation + " validation examples"));
        s.append("  Not covered: the folder " + OperatorRecord.FOLDER + "/ (the tuner's own record: config.json with the pool"
                + " and K, candidates.csv, tuning.png and summary.md with every candidate and its score) and the tuning's"
                + " terminal output; publishing them releases more than the best candidate. The time the tuning took grows"
                + " with K: publish the released files' contents, not their timestamps, nor the run directory's name (its"
                + " start time, without --out).\n");
        s.append('\n').append(LedgerStatement.text(ledger));
        return s.toString();
    }

    /** The first line of a private tuning's statement: the released model's epsilon, tuning included. */
    static String epsilon(TuningCost cost, RunLedger ledger) {
        return String.format(Locale.ROOT, "Privacy of the released model, tuning included: epsilon = %s at delta = %s"
                + " (%s).%n", EpsilonFormat.upward(ledger.epsilon()), cost.delta(), cost.relation());
    }

    /**
     * How a private tuning ran and what bounds it, and one candidate's share.
     *
     * @param trainedOn what the candidates trained on, e.g. "the training data less 500 validation examples"
     */
    static String howAndBound(TuningCost cost, String trainedOn) {
        StringBuilder s = new StringBuilder();
        s.append("  How: K candidates were run, K drawn from " + distribution(cost) + " and kept secret; each candidate"
                + " trained one configuration drawn uniformly from a pool fixed in advance, on " + trainedOn + ", and"
                + " released its validation accuracy with Gaussian noise on the count of correct predictions; only the best"
                + " candidate (its model, configuration and noisy score) is released.\n");
        s.append("  Bound: Papernot & Steinke, \"Hyperparameter Tuning with Renyi Differential Privacy\" (ICLR 2022), "
                + (cost.event().isPoisson() ? "Theorem 6 (Poisson)" : "Theorem 2 (truncated negative binomial)")
                + ", applied to one candidate's Renyi curve: the pointwise maximum over the pool of every configuration's"
                + " planned ledger (worst party), composed with the score's Gaussian mechanism; converted to (epsilon,"
                + " delta) at the best order. It assumes K stays secret.\n");
        s.append(String.format(Locale.ROOT, "  One candidate alone: epsilon = %s; the tuning adds %s.%n",
                EpsilonFormat.upward(cost.candidate().epsilon()), EpsilonFormat.upward(cost.epsilon() - cost.candidate().epsilon())));
        return s.toString();
    }

    private static String distribution(TuningCost c) {
        return c.event().isPoisson() ? String.format(Locale.ROOT, "Poisson(mean %s)", c.event().mean())
                : String.format(Locale.ROOT, "the truncated negative binomial (eta %s, mean %s)", c.event().shape(), c.event().mean());
    }
}
