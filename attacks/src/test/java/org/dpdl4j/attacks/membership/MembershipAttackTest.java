package org.dpdl4j.attacks.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.data.synthetic.BelletAgent;
import org.dpdl4j.data.synthetic.BelletCollaborativeClassification;
import org.dpdl4j.data.synthetic.BelletConfig;
import org.dpdl4j.data.synthetic.BelletProblem;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.protocol.personalized.AgentData;
import org.dpdl4j.protocol.personalized.BudgetAllocation;
import org.dpdl4j.protocol.personalized.CoordinateDescentRun;
import org.dpdl4j.protocol.personalized.PersonalizedProblem;
import org.dpdl4j.protocol.personalized.ReleaseMechanism;
import org.dpdl4j.protocol.personalized.ReleasePlan;
import org.dpdl4j.protocol.personalized.WakeSchedule;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

class MembershipAttackTest {
    private static final BelletProblem TASK = BelletCollaborativeClassification.generate(
            BelletConfig.defaults().withAgents(12).withDim(60), 4);

    private static PersonalizedProblem problem() {
        List<AgentData> agents = TASK.agents().stream().map(a -> AgentData.ofClasses(a.train().features(), a.train().labels())).toList();
        return new PersonalizedProblem(agents, TASK.similarity(), PersonalizedProblem.inverseSizes(agents), 1.0);
    }

    private static int[] schedule(int n, long ticks) {
        return WakeSchedule.draw(n, ticks, new java.util.SplittableRandom(7));
    }

    private static double meanAuc(BroadcastInverter inverter, PersonalizedProblem problem) {
        List<AgentData> outsiders = TASK.agents().stream().map(BelletAgent::test).map(t -> AgentData.ofClasses(t.features(), t.labels()))
                .toList();
        return GradientAlignmentMembership.meanAuc(inverter, problem, outsiders);
    }

    @Test
    void theEavesdropperRecoversEveryLocalGradientOfNonPrivateCoordinateDescentExactly() {
        PersonalizedProblem problem = problem();
        CoordinateDescentRun run = new CoordinateDescentRun(RunSettings.empty(), null, problem, problem.zeros(),
                schedule(problem.agentCount(), 240), null, null);
        BroadcastInverter inverter = new BroadcastInverter(problem, problem.zeros());
        run.tapBroadcasts(inverter);
        run.runToEnd();
        int checked = 0;
        for (int i = 0; i < problem.agentCount(); i++) {
            for (ObservedGradient o : inverter.gradients(i)) {
                INDArray truth = problem.localGradient(i, o.theta()).subi(o.theta().mul(2 * problem.lambda(i)));
                assertEquals(0, truth.sub(o.gradient()).norm2Number().doubleValue(), 1e-10 * (1 + truth.norm2Number().doubleValue()));
                checked++;
            }
        }
        assertEquals(240, checked, "every broadcast is inverted");
        double auc = meanAuc(inverter, problem);
        assertTrue(auc > 0.75, "non-private broadcasts reveal membership (0.82 on this seed): AUC " + auc);
    }

    @Test
    void privateBroadcastsHideMembership() {
        PersonalizedProblem problem = problem();
        int n = problem.agentCount();
        int[] schedule = schedule(n, 240);
        ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, 1.0, 0.15, BudgetAllocation.EQUAL_SPLIT, 20, 0,
                1e-5, 0);
        CoordinateDescentRun run = CoordinateDescentRun.withStandardLedger(RunSettings.empty(), problem, problem.zeros(), schedule, plan,
                new SeededNoiseStreams(3), 1e-5, false);
        BroadcastInverter inverter = new BroadcastInverter(problem, problem.zeros());
        run.tapBroadcasts(inverter);
        run.runToEnd();
        double auc = meanAuc(inverter, problem);
        assertTrue(Math.abs(auc - 0.5) < 0.1, "at epsilon 0.15 the scores are noise: AUC " + auc);
    }

    @Test
    void aucIsTheMannWhitneyStatistic() {
        assertEquals(1.0, Auc.of(new double[]{3, 4}, new double[]{1, 2}), 0);
        assertEquals(0.0, Auc.of(new double[]{1}, new double[]{2, 3}), 0);
        assertEquals(0.5, Auc.of(new double[]{1, 2}, new double[]{1, 2}), 0);
        assertEquals(5.0 / 6, Auc.of(new double[]{2, 4}, new double[]{1, 3, 0}), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> Auc.of(new double[0], new double[]{1}));
    }
}
