package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.dpdl4j.data.synthetic.FeatureNorm;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.ResumePolicy;
import org.dpdl4j.runtime.RunCheckpoint;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A resumed private coordinate descent reports what its agents released: its plan cannot change under it. */
class PersonalizedResumeTest {
    private static final PersonalizedProblem PROBLEM = Instances.problem(Instances.generated(10, 3, FeatureNorm.L1, 12), 1.0);
    private static final int[] SCHEDULE = WakeSchedule.draw(PROBLEM.agentCount(), 400, new SplittableRandom(13));

    private static CoordinateDescentRun run(double epsilonBar) {
        ReleasePlan plan = ReleasePlan.of(PROBLEM, SCHEDULE, ReleaseMechanism.LAPLACE, 1.0, epsilonBar, BudgetAllocation.EQUAL_SPLIT,
                40, 0, 1e-5, 0);
        return CoordinateDescentRun.withLedger(RunSettings.empty(), PROBLEM, PROBLEM.zeros(), SCHEDULE, plan,
                new SeededNoiseStreams(11), 1e-5, false, AccountantFactory.named(AccountantFactory.TIGHTEST));
    }

    @Test
    void aResumeUnderAnotherPlanIsRefusedAndTheSamePlanResumesExactly(@TempDir Path dir) {
        Path file = dir.resolve("cd.ckpt");
        double[] halfway;
        try (CoordinateDescentRun first = run(2.0)) {
            for (int t = 0; t < 200; t++) {
                first.step();
            }
            RunCheckpoint.save(first, file);
            halfway = new double[PROBLEM.agentCount()];
            for (int i = 0; i < halfway.length; i++) {
                halfway[i] = first.epsilonSum(i);
            }
        }
        // Half the budget per release: the 20 or so releases already made would be priced at half of what they spent.
        try (CoordinateDescentRun cheaper = run(1.0)) {
            double[] start = cheaper.parameters().toDoubleVector();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RunCheckpoint.resume(cheaper, RunCheckpoint.read(file), ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("another release plan") && e.getMessage().contains("--epsilon"), e.getMessage());
            // Refused before anything was restored: the models and the wake-up counts are the fresh run's.
            org.junit.jupiter.api.Assertions.assertArrayEquals(start, cheaper.parameters().toDoubleVector(), 0.0);
            assertEquals(0, java.util.Arrays.stream(cheaper.wakeCounts()).sum());
        }
        try (CoordinateDescentRun same = run(2.0)) {
            RunCheckpoint.resume(same, RunCheckpoint.read(file), ResumePolicy.strict());
            assertEquals(200, same.completedSteps());
            assertTrue(same.privacyStatement().contains("Not accounted: each agent's update weight"), same.privacyStatement());
            for (int i = 0; i < halfway.length; i++) {
                assertEquals(halfway[i], same.epsilonSum(i), 0.0, "agent " + i);
            }
        }
    }
}
