package org.dpdl4j.experiments.tuning;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.deeplearning4j.arbiter.optimize.api.Candidate;
import org.deeplearning4j.arbiter.optimize.api.OptimizationResult;
import org.deeplearning4j.arbiter.optimize.api.TaskCreator;
import org.deeplearning4j.arbiter.optimize.api.data.DataProvider;
import org.deeplearning4j.arbiter.optimize.api.data.DataSource;
import org.deeplearning4j.arbiter.optimize.api.score.ScoreFunction;
import org.deeplearning4j.arbiter.optimize.runner.CandidateInfo;
import org.deeplearning4j.arbiter.optimize.runner.CandidateStatus;
import org.deeplearning4j.arbiter.optimize.runner.IOptimizationRunner;
import org.deeplearning4j.arbiter.optimize.runner.listener.StatusListener;
import org.dpdl4j.experiments.report.ProgressBar;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.runtime.AbstractTrainingRun;
import org.dpdl4j.runtime.TrainingDivergedException;
import org.dpdl4j.runtime.TrainingRun;

/**
 * Arbiter's task creator for dpdl4j runs: a candidate's task builds its run ({@link CandidateSetup}), trains it to the
 * end with a progress bar, and scores its model ({@link ValidationScore}). A run that diverges gives no model and the
 * lowest score; an error in a candidate's settings fails the task (Arbiter records it).
 */
final class CandidateTrainer implements TaskCreator {
    private final CandidateSetup setup;
    private final ValidationScore score;
    private final long count;
    private final Consumer<CandidateResult> onResult;
    private volatile RuntimeException failure;

    /**
     * @param count    how many candidates the tuning runs (for the progress bar's label: the operator's screen)
     * @param onResult called with every finished candidate, in order
     */
    CandidateTrainer(CandidateSetup setup, ValidationScore score, long count, Consumer<CandidateResult> onResult) {
        this.setup = setup;
        this.score = score;
        this.count = count;
        this.onResult = onResult;
    }

    @Override
    public Callable<OptimizationResult> create(Candidate candidate, DataProvider dataProvider, ScoreFunction scoreFunction,
                                               List<StatusListener> statusListeners, IOptimizationRunner runner) {
        return () -> guarded(candidate);
    }

    @Override
    public Callable<OptimizationResult> create(Candidate candidate, Class<? extends DataSource> dataSource, Properties properties,
                                               ScoreFunction scoreFunction, List<StatusListener> statusListeners,
                                               IOptimizationRunner runner) {
        return () -> guarded(candidate);
    }

    /** The first error a candidate's task threw (Arbiter only logs it), or null. */
    RuntimeException failure() {
        return failure;
    }

    private OptimizationResult guarded(Candidate<?> candidate) {
        long start = System.currentTimeMillis();
        try {
            return train(candidate);
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            }
            CandidateInfo info = new CandidateInfo(candidate.getIndex(), CandidateStatus.Failed, null, start, start,
                    System.currentTimeMillis(), candidate.getFlatParameters(), e.toString());
            return new OptimizationResult(candidate, null, candidate.getIndex(), null, info, null);
        }
    }

    @SuppressWarnings("unchecked")
    private OptimizationResult train(Candidate<?> candidate) {
        long start = System.currentTimeMillis();
        Map<String, String> values = (Map<String, String>) candidate.getValue();
        int number = candidate.getIndex();
        int poolIndex = (Integer) candidate.getDataParameters().get(PoolSampler.POOL_INDEX);
        long seed = (Long) candidate.getDataParameters().get(PoolSampler.SEED);
        CandidateResult result;
        try (TrainingRun run = setup.build(values, seed);
             ProgressBar bar = ProgressBar.builder(String.format("candidate %d/%d", number + 1, count), run.plannedSteps())
                     .unit(run.stepUnit() + "s").build()) {
            run.addListener(r -> bar.step());
            CandidateResult.Outcome outcome = CandidateResult.Outcome.COMPLETED;
            try {
                run.runToEnd();
                if (run instanceof AbstractTrainingRun base) {
                    base.requireFiniteParameters();
                }
            } catch (PrivacyBudgetExceededException e) {
                outcome = CandidateResult.Outcome.BUDGET_REACHED;
            } catch (TrainingDivergedException e) {
                outcome = CandidateResult.Outcome.DIVERGED;
            }
            bar.finish();
            boolean scored = outcome != CandidateResult.Outcome.DIVERGED;
            double value = scored ? score.score(run.model()) : Double.NEGATIVE_INFINITY;
            result = new CandidateResult(number, poolIndex, values, seed, outcome, value,
                    run.ledger().map(l -> l.epsilon()).orElse(Double.NaN),
                    run.ledger().map(l -> l.secureNoise()).orElse(false), run.completedSteps(), run.plannedSteps(),
                    (System.currentTimeMillis() - start) / 1000.0, scored ? run.model() : null);
        }
        onResult.accept(result);
        long end = System.currentTimeMillis();
        CandidateInfo info = new CandidateInfo(number, CandidateStatus.Complete, result.score(), start, start, end,
                candidate.getFlatParameters(), null);
        return new OptimizationResult(candidate, result.score(), number, result, info, null);
    }
}
