package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.data.synthetic.FeatureNorm;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Private personalized CD with its local smoothness from a public feature bound: the bound is above the paper's
 * data-derived constant, and the update weights, block constants and the optimal allocation's budgets stay put when
 * a record is replaced by another within the bound (they move with the paper's constant); the statement says which;
 * rows beyond the bound are refused.
 */
class PublicSmoothnessTest {
    private static final BelletProblem TASK = Instances.generated(8, 3, FeatureNorm.L2, 21);
    private static final int[] SCHEDULE = WakeSchedule.draw(8, 240, new SplittableRandom(3));

    /** The task's problem with agent 0's first row replaced by a unit row along the first feature. */
    private static PersonalizedProblem replaced() {
        List<AgentData> agents = new ArrayList<>(Instances.train(TASK));
        AgentData first = agents.get(0);
        INDArray f = first.features().dup();
        f.getRow(0).assign(0);
        f.putScalar(0, 0, 1.0);
        agents.set(0, new AgentData(f, first.labels()));
        return new PersonalizedProblem(agents, TASK.similarity(), PersonalizedProblem.inverseSizes(agents), 1.0);
    }

    private static double[] budgets(PersonalizedProblem p) {
        ReleasePlan plan = ReleasePlan.of(p, SCHEDULE, ReleaseMechanism.GAUSSIAN, 1.0, 0.5, BudgetAllocation.OPTIMAL, 30,
                1e-6, 1e-5, 0);
        double[] out = new double[30];
        for (int k = 0; k < out.length; k++) {
            out[k] = plan.budget(0, k);
        }
        return out;
    }

    @Test
    void theBoundIsAboveThePapersConstantAndNothingMovesWithARecord() {
        PersonalizedProblem own = Instances.problem(TASK, 1.0);
        PersonalizedProblem bounded = own.withPublicSmoothness(1.0);
        assertTrue(Double.isNaN(own.featureNormBound()));
        assertEquals(1.0, bounded.featureNormBound());
        for (int i = 0; i < own.agentCount(); i++) {
            assertTrue(bounded.localSmoothness(i) >= own.localSmoothness(i), "agent " + i);
            assertEquals(0.25 + 2 * own.lambda(i), bounded.localSmoothness(i), 1e-15);
            assertEquals(own.degree(i), bounded.degree(i), 0.0);
        }
        PersonalizedProblem other = replaced();
        PersonalizedProblem otherBounded = other.withPublicSmoothness(1.0);
        assertEquals(bounded.alpha(0), otherBounded.alpha(0), 0.0);
        assertEquals(bounded.maxBlockLipschitz(), otherBounded.maxBlockLipschitz(), 0.0);
        assertArrayEquals(budgets(bounded), budgets(otherBounded), 0.0);
        // the paper's constant moves with the record: the gap the bound closes
        assertNotEquals(own.alpha(0), other.alpha(0));
    }

    @Test
    void theStatementSaysWhereTheWeightsComeFrom() {
        PersonalizedProblem own = Instances.problem(TASK, 1.0);
        for (PersonalizedProblem p : List.of(own, own.withPublicSmoothness(1.0))) {
            ReleasePlan plan = ReleasePlan.of(p, SCHEDULE, ReleaseMechanism.GAUSSIAN, 1.0, 0.5, BudgetAllocation.EQUAL_SPLIT, 30,
                    1e-6, 1e-5, 0);
            try (CoordinateDescentRun run = CoordinateDescentRun.withLedger(RunSettings.empty(), p, p.zeros(), SCHEDULE, plan,
                    new SeededNoiseStreams(5), 1e-5, false, AccountantFactory.named(AccountantFactory.TIGHTEST))) {
                run.runToEnd();
                String text = run.privacyStatement();
                if (p == own) {
                    // weights and noise that follow the agents' own records: not a guarantee, and the statement says why
                    assertTrue(text.contains("Not accounted: each agent's update weight"), text);
                    assertEquals(CoordinateDescentRun.notAGuarantee(p), run.ledger().orElseThrow().notAGuarantee().orElseThrow());
                    assertTrue(text.contains("WARNING: this epsilon is not a guarantee: each agent's update weight"), text);
                } else {
                    assertTrue(text.contains("follow the public feature bound ||x|| <= 1.0"), text);
                    assertFalse(text.contains("Not accounted"), text);
                    assertTrue(run.ledger().orElseThrow().notAGuarantee().isEmpty());
                }
            }
        }
    }

    @Test
    void theBoundCannotChangeOnResume(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        PersonalizedProblem own = Instances.problem(TASK, 1.0);
        java.nio.file.Path file = dir.resolve("cd.ckpt");
        try (CoordinateDescentRun first = run(own.withPublicSmoothness(1.0))) {
            for (int t = 0; t < 50; t++) {
                first.step();
            }
            org.dpdl4j.runtime.RunCheckpoint.save(first, file);
        }
        // equal split: the budgets would not tell, the update weights would change
        for (PersonalizedProblem other : List.of(own, own.withPublicSmoothness(2.0))) {
            try (CoordinateDescentRun run = run(other)) {
                RuntimeException e = assertThrows(RuntimeException.class, () -> org.dpdl4j.runtime.RunCheckpoint.resume(run,
                        org.dpdl4j.runtime.RunCheckpoint.read(file), org.dpdl4j.runtime.ResumePolicy.allowingChanges()));
                assertTrue(e.getMessage().contains("feature-norm-bound"), e.getMessage());
            }
        }
        try (CoordinateDescentRun same = run(own.withPublicSmoothness(1.0))) {
            org.dpdl4j.runtime.RunCheckpoint.resume(same, org.dpdl4j.runtime.RunCheckpoint.read(file),
                    org.dpdl4j.runtime.ResumePolicy.strict());
            assertEquals(50, same.completedSteps());
        }
    }

    private static CoordinateDescentRun run(PersonalizedProblem p) {
        ReleasePlan plan = ReleasePlan.of(p, SCHEDULE, ReleaseMechanism.GAUSSIAN, 1.0, 0.5, BudgetAllocation.EQUAL_SPLIT, 30,
                1e-6, 1e-5, 0);
        return CoordinateDescentRun.withLedger(RunSettings.empty(), p, p.zeros(), SCHEDULE, plan, new SeededNoiseStreams(5),
                1e-5, false, AccountantFactory.named(AccountantFactory.TIGHTEST));
    }

    @Test
    void rowsBeyondTheBoundAreRefusedWithTheFix() {
        PersonalizedProblem own = Instances.problem(TASK, 1.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> own.withPublicSmoothness(0.01));
        assertTrue(e.getMessage().contains("beyond the public bound --feature-norm-bound 0.01")
                && e.getMessage().contains("raise the bound"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> own.withPublicSmoothness(Double.NaN));
    }
}
