package org.dpdl4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyBudgetExceededException;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The two properties every protocol's run must have, checked the same way for all of them: a budget stop leaves the
 * run exactly as its last completed step left it, and a run resumed from a checkpoint continues bit for bit as an
 * uninterrupted one, ledger included.
 */
public final class RunAssertions {
    private RunAssertions() {
    }

    /** Every parameter of the run: the parties' models where it keeps several, else its model. */
    public static double[] snapshot(TrainingRun run) {
        return Nd4j.toFlattened(run.partyParameters().orElseGet(run::parameters)).toDoubleVector();
    }

    /** An epsilon budget strictly between two epsilons, e.g. those after k and k + 1 steps. */
    public static double between(double below, double above) {
        assertTrue(below < above, "the epsilons must increase: " + below + " then " + above);
        return below + (above - below) / 2;
    }

    /**
     * Steps the run until its budget stops it, and checks that the refused step changed nothing: the parameters
     * (bit for bit), the ledger's entries, its epsilon and the step count are those after the last completed step,
     * which is within the budget, while the refused one would have exceeded it.
     *
     * @param expectedSteps the steps the budget allows
     * @return the refusal
     */
    public static PrivacyBudgetExceededException assertStopsAtBudget(TrainingRun run, long expectedSteps) {
        RunLedger ledger = run.ledger().orElseThrow(() -> new AssertionError(run.protocol() + " keeps no ledger"));
        PrivacyBudget budget = ledger.budget();
        assertTrue(budget.isLimited(), "the run has no budget");
        for (long i = 0; i <= expectedSteps; i++) {
            double[] before = snapshot(run);
            PrivacyLedger entries = ledger.ledger();
            double epsilon = run.epsilon();
            long done = run.completedSteps();
            try {
                run.step();
            } catch (PrivacyBudgetExceededException stop) {
                assertEquals(expectedSteps, done, "steps completed before the stop");
                assertEquals(done, run.completedSteps(), "the refused step is not counted");
                assertEquals(done, stop.stepsDone());
                assertArrayEquals(before, snapshot(run), 0.0, "the refused step must not touch the model");
                assertEquals(entries, ledger.ledger(), "the refused step must record nothing");
                assertEquals(epsilon, run.epsilon(), 0.0);
                assertEquals(epsilon, stop.epsilonSpent(), 0.0);
                assertTrue(budget.allows(epsilon), "spent " + epsilon + " is within " + budget);
                assertFalse(budget.allows(stop.epsilonNext()), "the refused step would reach " + stop.epsilonNext());
                assertEquals(budget.epsilon(), stop.budget(), 0.0);
                assertTrue(stop.getMessage().contains("budget"), stop.getMessage());
                return stop;
            }
            assertTrue(budget.allows(run.epsilon()), "step " + run.completedSteps() + " spent " + run.epsilon()
                    + ", above " + budget);
        }
        return fail("the budget did not stop " + run.protocol() + " after " + expectedSteps + " steps (epsilon "
                + run.epsilon() + ", " + budget + ")");
    }

    /**
     * Runs {@code total} steps uninterrupted; then {@code cut} steps, a checkpoint and one more step that is lost;
     * then resumes a fresh run from the checkpoint and completes the {@code total} steps. The resumed run must end
     * with the same parameters (bit for bit), the same ledger and the same epsilon.
     *
     * @param build makes identical fresh runs (same seeds, same data, same model)
     */
    public static void assertResumeEqualsUninterrupted(Supplier<? extends TrainingRun> build, long cut, long total, Path file) {
        assertTrue(0 < cut && cut < total, "cut inside the run");
        double[] uninterrupted;
        double epsilon;
        Optional<PrivacyLedger> ledger;
        try (TrainingRun run = build.get()) {
            run.run(total);
            uninterrupted = snapshot(run);
            epsilon = run.epsilon();
            ledger = run.ledger().map(RunLedger::ledger);
        }
        try (TrainingRun run = build.get()) {
            run.run(cut);
            RunCheckpoint.save(run, file);
            run.step();   // work after the checkpoint is lost in the "crash"
        }
        try (TrainingRun run = build.get()) {
            ResumeReport report = RunCheckpoint.resume(run, RunCheckpoint.read(file), ResumePolicy.strict());
            assertEquals(cut, report.fromStep());
            assertFalse(report.newSegment(), "same settings: the ledger continues its segment");
            assertEquals(cut, run.completedSteps());
            run.run(total - cut);
            assertArrayEquals(uninterrupted, snapshot(run), 0.0, run.protocol() + ": resumed parameters");
            assertEquals(epsilon, run.epsilon(), 0.0, run.protocol() + ": resumed epsilon");
            assertEquals(ledger, run.ledger().map(RunLedger::ledger), run.protocol() + ": resumed ledger");
        }
    }
}
