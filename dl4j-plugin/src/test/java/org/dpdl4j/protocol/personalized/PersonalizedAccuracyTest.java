package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.data.synthetic.FeatureNorm;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Accuracy sanity: collaboration helps without privacy, and private CD tends to it as the budget grows. */
class PersonalizedAccuracyTest {

    @Test
    void privateCdApproachesCdAsEpsilonGrows() {
        BelletProblem b = Instances.generated(40, 2, 0.1, FeatureNorm.L1, 21);
        PersonalizedProblem problem = Instances.problem(b, 10.0);
        List<AgentData> tests = Instances.test(b);
        int n = problem.agentCount();
        int[] schedule = WakeSchedule.draw(n, 100L * n, new SplittableRandom(22));
        CoordinateDescentRun cd = new CoordinateDescentRun(RunSettings.empty(), null, problem, problem.zeros(), schedule, null, null);
        cd.runToEnd();
        double clean = PersonalizedProblem.meanAccuracy(tests, cd.models());
        double local = PersonalizedProblem.meanAccuracy(tests, LocalModels.solve(problem));
        double[] accuracy = new double[3];
        double[] budgets = {0.1, 10, 10_000};
        for (int k = 0; k < budgets.length; k++) {
            ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, 1.0, budgets[k], BudgetAllocation.EQUAL_SPLIT,
                    100, 0, Math.exp(-5), 0);
            CoordinateDescentRun run = new CoordinateDescentRun(RunSettings.empty(), new RunLedger(new LedgerAccounting(
                    AccountantFactory.standard(), NeighbouringRelation.REPLACE_ONE), PrivacyBudget.unlimited(1e-5), false), problem,
                    problem.zeros(), schedule, plan, new SeededNoiseStreams(23));
            run.runToEnd();
            INDArray m = run.models();
            accuracy[k] = PersonalizedProblem.meanAccuracy(tests, m);
        }
        assertTrue(clean >= local, "collaboration helps without privacy: CD " + clean + ", local " + local);
        assertTrue(accuracy[0] <= accuracy[2] + 0.02, "more budget, no worse: " + java.util.Arrays.toString(accuracy));
        assertTrue(Math.abs(accuracy[2] - clean) < 0.03, "a huge budget gives CD's accuracy: " + accuracy[2] + " vs " + clean);
    }
}
