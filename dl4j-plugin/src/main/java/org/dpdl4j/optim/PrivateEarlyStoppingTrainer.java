package org.dpdl4j.optim;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.deeplearning4j.earlystopping.EarlyStoppingConfiguration;
import org.deeplearning4j.earlystopping.EarlyStoppingResult;
import org.deeplearning4j.earlystopping.EarlyStoppingResult.TerminationReason;
import org.deeplearning4j.earlystopping.listener.EarlyStoppingListener;
import org.deeplearning4j.earlystopping.scorecalc.ScoreCalculator;
import org.deeplearning4j.earlystopping.termination.EpochTerminationCondition;
import org.deeplearning4j.earlystopping.termination.InvalidScoreIterationTerminationCondition;
import org.deeplearning4j.earlystopping.termination.IterationTerminationCondition;
import org.deeplearning4j.earlystopping.termination.MaxScoreIterationTerminationCondition;
import org.deeplearning4j.earlystopping.trainer.IEarlyStoppingTrainer;
import org.deeplearning4j.nn.api.Model;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.runtime.TrainingDivergedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DL4J's early stopping, private: an {@link EarlyStoppingConfiguration} (score calculator, epoch and iteration
 * termination conditions, model saver) drives a {@link PrivateTrainer} in place of {@code net.fit}, which DL4J's own
 * {@code EarlyStoppingTrainer} calls and a private trainer refuses. The privacy budget is one more termination
 * condition: the run stops when the ledger would refuse the next step, and the last iterate is scored before it ends.
 *
 * <pre>{@code
 * EarlyStoppingConfiguration<MultiLayerNetwork> es = new EarlyStoppingConfiguration.Builder<MultiLayerNetwork>()
 *         .scoreCalculator(new DataSetLossCalculator(heldOut, true))
 *         .epochTerminationConditions(new MaxEpochsTerminationCondition(50), new ScoreImprovementEpochTerminationCondition(5))
 *         .modelSaver(new InMemoryModelSaver<>())
 *         .build();
 * EarlyStoppingResult<MultiLayerNetwork> result = new PrivateEarlyStoppingTrainer<>(es, trainer).fit();
 * MultiLayerNetwork best = result.getBestModel();   // covered by trainer.ledger()
 * }</pre>
 *
 * <p>Privacy. DP-SGD's guarantee covers every iterate, so the model kept, the iterate of the best-scoring epoch, is
 * covered by the trainer's ledger as far as the training examples go: it is computed from the iterates and the
 * score calculator's data alone (post-processing). Two conditions for that: the score calculator must read data
 * <i>outside</i> the training set (held-out data; a score on the training data would choose the epoch from private
 * examples without noise), and the held-out examples themselves are not protected by the ledger (the choice depends on
 * them): use data you may use in the clear. Iteration conditions are called after every step with a NaN score, because
 * the batch's loss is computed from private examples without noise; the DL4J conditions that decide from that loss
 * ({@code MaxScoreIterationTerminationCondition}, {@code InvalidScoreIterationTerminationCondition}) are refused. A
 * diverging loss still stops the run ({@link TrainingDivergedException}, reported as an error).
 *
 * @param <T> the network type, {@code MultiLayerNetwork} or {@code ComputationGraph}, as the trainer's
 */
public final class PrivateEarlyStoppingTrainer<T extends Model> implements IEarlyStoppingTrainer<T> {
    private static final Logger LOG = LoggerFactory.getLogger(PrivateEarlyStoppingTrainer.class);

    private final EarlyStoppingConfiguration<T> config;
    private final PrivateTrainer trainer;
    private final T model;
    private EarlyStoppingListener<T> listener;

    /**
     * @param config  DL4J's early-stopping configuration (it needs a score calculator on held-out data)
     * @param trainer the private trainer of the network, built with the training data
     * @throws IllegalArgumentException for an iteration condition that decides from the private batch loss
     */
    @SuppressWarnings("unchecked")
    public PrivateEarlyStoppingTrainer(EarlyStoppingConfiguration<T> config, PrivateTrainer trainer) {
        this.config = Objects.requireNonNull(config, "early-stopping configuration");
        this.trainer = Objects.requireNonNull(trainer, "trainer");
        config.validate();
        if (config.getScoreCalculator() == null) {
            throw new IllegalArgumentException("the early-stopping configuration has no score calculator: give"
                    + " scoreCalculator(...) on held-out data (for instance new DataSetLossCalculator(heldOut, true))");
        }
        for (IterationTerminationCondition c : config.getIterationTerminationConditions()) {
            if (c instanceof MaxScoreIterationTerminationCondition || c instanceof InvalidScoreIterationTerminationCondition) {
                throw new IllegalArgumentException(c.getClass().getSimpleName() + " decides from the training batch's"
                        + " loss, which is computed from private examples without noise: stopping on it would release"
                        + " more than the ledger accounts. Stop on a held-out score (ScoreImprovementEpochTerminationCondition,"
                        + " BestScoreEpochTerminationCondition) or on time (MaxTimeIterationTerminationCondition); a"
                        + " diverging loss stops the run anyway, and so does the privacy budget");
            }
        }
        this.model = (T) trainer.trainedModel();
    }

    @Override
    public void setListener(EarlyStoppingListener<T> earlyStoppingListener) {
        this.listener = earlyStoppingListener;
    }

    /** Layer-wise pretraining is not part of private training. */
    @Override
    public EarlyStoppingResult<T> pretrain() {
        throw new UnsupportedOperationException("layer-wise pretraining is not private; fit() trains privately");
    }

    /**
     * Trains epoch by epoch until a termination condition or the budget stops the run.
     *
     * @return DL4J's result: why it stopped, the score of every evaluated epoch, the best epoch and its model (from the
     *         configuration's model saver)
     */
    @Override
    public EarlyStoppingResult<T> fit() {
        if (listener != null) {
            listener.onStart(config, model);
        }
        config.getEpochTerminationConditions().forEach(EpochTerminationCondition::initialize);
        config.getIterationTerminationConditions().forEach(IterationTerminationCondition::initialize);
        ScoreCalculator<T> calculator = config.getScoreCalculator();
        boolean minimize = calculator.minimizeScore();
        Map<Integer, Double> scores = new LinkedHashMap<>();
        Best best = new Best(minimize);
        for (int epoch = 0; ; epoch++) {
            if (!trainer.budgetAllowsAnotherStep()) {
                return finish(TerminationReason.EpochTerminationCondition, budgetReached(), scores, best, epoch);
            }
            PrivateTrainer.EpochOutcome outcome;
            try {
                outcome = trainer.fitEpochUntil(this::iterationConditionMet);
            } catch (TrainingDivergedException e) {
                LOG.warn("Private early stopping ends at epoch {}: {}", epoch, e.getMessage());
                return finish(TerminationReason.Error, e.toString(), scores, best, epoch);
            }
            boolean last = outcome.budgetReached() || outcome.stopped();
            if ((epoch + 1) % config.getEvaluateEveryNEpochs() != 0 && !last) {
                continue;
            }
            double score = calculator.calculateScore(model);
            scores.put(epoch, score);
            if (best.improvedBy(score, epoch)) {
                save(true, score);
            }
            if (config.isSaveLastModel()) {
                save(false, score);
            }
            if (listener != null) {
                listener.onEpoch(epoch, score, config, model);
            }
            if (outcome.budgetReached()) {
                return finish(TerminationReason.IterationTerminationCondition, budgetReached(), scores, best, epoch + 1);
            }
            if (outcome.stopped()) {
                return finish(TerminationReason.IterationTerminationCondition, metIterationCondition(), scores, best, epoch + 1);
            }
            for (EpochTerminationCondition c : config.getEpochTerminationConditions()) {
                if (c.terminate(epoch, score, minimize)) {
                    return finish(TerminationReason.EpochTerminationCondition, c.toString(), scores, best, epoch + 1);
                }
            }
        }
    }

    /**
     * The trainer's privacy statement, with what it says about the early-stopping model: the ledger covers it for the
     * training examples; the held-out examples of the score are not protected by it.
     */
    public String privacyStatement() {
        return trainer.privacyStatement() + "\nThe early-stopping model is the iterate of the best-scoring epoch, chosen by"
                + " a score on held-out data: a function of the iterates and of that data, so the ledger above covers it"
                + " for the training examples (post-processing). The held-out examples are not protected by it.\n";
    }

    private boolean iterationConditionMet() {
        for (IterationTerminationCondition c : config.getIterationTerminationConditions()) {
            if (c.terminate(Double.NaN)) {
                return true;
            }
        }
        return false;
    }

    private String metIterationCondition() {
        return config.getIterationTerminationConditions().stream().filter(c -> c.terminate(Double.NaN))
                .map(Object::toString).findFirst().orElse("an iteration condition");
    }

    private String budgetReached() {
        RunLedger l = trainer.ledger().orElseThrow();
        return String.format(Locale.ROOT, "privacy budget reached: epsilon = %s of %s spent at delta = %s after %d steps;"
                + " the next step would exceed it", org.dpdl4j.privacy.ledger.EpsilonFormat.upward(l.epsilon()), l.budget().epsilon(), l.delta(), trainer.steps());
    }

    private void save(boolean bestModel, double score) {
        try {
            if (bestModel) {
                config.getModelSaver().saveBestModel(model, score);
            } else {
                config.getModelSaver().saveLatestModel(model, score);
            }
        } catch (IOException e) {
            throw new IllegalStateException("the early-stopping model saver could not save the "
                    + (bestModel ? "best" : "latest") + " model: " + e.getMessage(), e);
        }
    }

    private EarlyStoppingResult<T> finish(TerminationReason reason, String details, Map<Integer, Double> scores, Best best,
                                          int epochs) {
        T bestModel;
        try {
            bestModel = best.epoch < 0 ? null : config.getModelSaver().getBestModel();
        } catch (IOException e) {
            throw new IllegalStateException("the early-stopping model saver could not give the best model back: "
                    + e.getMessage(), e);
        }
        LOG.info("Private early stopping: {} after {} epochs ({}); best epoch {} with score {}", reason, epochs, details,
                best.epoch, best.score);
        EarlyStoppingResult<T> result = new EarlyStoppingResult<>(reason, details, scores, best.epoch, best.score, epochs,
                bestModel);
        if (listener != null) {
            listener.onCompletion(result);
        }
        return result;
    }

    /** The best score so far and its epoch (-1 before any). */
    private static final class Best {
        private final boolean minimize;
        private double score;
        private int epoch = -1;

        Best(boolean minimize) {
            this.minimize = minimize;
            this.score = minimize ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }

        /** Takes {@code candidate} when it is better (or the first score at all). */
        boolean improvedBy(double candidate, int candidateEpoch) {
            boolean better = minimize ? candidate < score : candidate > score;
            if (better || epoch < 0) {
                score = candidate;
                epoch = candidateEpoch;
                return true;
            }
            return false;
        }
    }
}
