package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpdl4j.data.synthetic.FeatureNorm;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;

/** Private coordinate descent prices its pure-DP and Gaussian releases with the named accountant. */
class PersonalizedAccountantChoiceTest {
    private static double spent(ReleaseMechanism mechanism, String pricing) {
        PersonalizedProblem problem = Instances.problem(Instances.generated(10, 3, FeatureNorm.L1, 12), 1.0);
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 400, new SplittableRandom(13));
        ReleasePlan plan = ReleasePlan.of(problem, schedule, mechanism, 1.0, 0.5, BudgetAllocation.EQUAL_SPLIT, 40,
                mechanism == ReleaseMechanism.LAPLACE ? 0 : 1e-6, 1e-5, 0);
        try (CoordinateDescentRun run = CoordinateDescentRun.withLedger(RunSettings.empty(), problem, problem.zeros(), schedule, plan,
                new SeededNoiseStreams(11), 1e-5, false, AccountantFactory.named(pricing))) {
            assertEquals(pricing, run.ledger().orElseThrow().accounting().method());
            while (run.completedSteps() < run.plannedSteps()) {
                run.step();
            }
            return run.ledger().orElseThrow().epsilon();
        }
    }

    @Test
    void renyiDpAloneNeverReportsLessThanTheDefault() {
        for (ReleaseMechanism mechanism : ReleaseMechanism.values()) {
            double tightest = spent(mechanism, AccountantFactory.TIGHTEST);
            double additive = spent(mechanism, AccountantFactory.ADDITIVE);
            double rdp = spent(mechanism, AccountantFactory.RDP);
            assertTrue(tightest > 0 && tightest <= additive && additive <= rdp, mechanism + ": " + tightest + " <= " + additive
                    + " <= " + rdp);
        }
    }
}
