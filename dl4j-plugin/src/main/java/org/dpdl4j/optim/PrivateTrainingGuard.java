package org.dpdl4j.optim;

import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listener a {@link PrivateTrainer} puts on the network it trains, so that DL4J's own training cannot touch it
 * unnoticed: {@code net.fit(...)}, and what calls it ({@code EarlyStoppingTrainer}, Arbiter's task creators,
 * {@code ParallelWrapper}), would take steps without clipping or noise and outside the ledger, and the model would no
 * longer be private. Private steps never call it ({@link TrainableNetwork#listeners()} leaves it out); DL4J's
 * {@code fit} calls it before the gradient reaches the updater, and it refuses there, so the parameters and the updater
 * state stay as they were. Copies of the network ({@code net.clone()}) are not guarded.
 */
final class PrivateTrainingGuard implements TrainingListener {
    private static final Logger LOG = LoggerFactory.getLogger(PrivateTrainingGuard.class);
    static final String REFUSAL = "This network is trained by a PrivateTrainer: DL4J's own training (net.fit, or"
            + " EarlyStoppingTrainer and others that call it) would train it without clipping and noise, outside the"
            + " privacy ledger, and the model would no longer be private. Train it with trainer.fit(epochs) or"
            + " trainer.fitEpoch(); for early stopping use PrivateEarlyStoppingTrainer with DL4J's"
            + " EarlyStoppingConfiguration. To train it without privacy (on public data), close the trainer first: the"
            + " model it then releases is covered by no ledger.";

    private final Model guarded;

    PrivateTrainingGuard(Model guarded) {
        this.guarded = guarded;
    }

    private void refuse(Model model) {
        if (model != guarded) {
            return;
        }
        LOG.error(REFUSAL);
        throw new IllegalStateException(REFUSAL);
    }

    @Override
    public void iterationDone(Model model, int iteration, int epoch) {
        refuse(model);
    }

    @Override
    public void onEpochStart(Model model) {
        refuse(model);
    }

    @Override
    public void onEpochEnd(Model model) {
        refuse(model);
    }

    @Override
    public void onForwardPass(Model model, List<INDArray> activations) {
        refuse(model);
    }

    @Override
    public void onForwardPass(Model model, Map<String, INDArray> activations) {
        refuse(model);
    }

    @Override
    public void onGradientCalculation(Model model) {
        refuse(model);
    }

    @Override
    public void onBackwardPass(Model model) {
        refuse(model);
    }
}
