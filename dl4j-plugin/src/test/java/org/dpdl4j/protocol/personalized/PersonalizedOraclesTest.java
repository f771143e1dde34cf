package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpdl4j.data.synthetic.FeatureNorm;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.AdvancedComposition;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.dpdl4j.privacy.ledger.EpsilonFormat;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The oracles of spec 6.7 on small instances of the collaborative classification task. */
class PersonalizedOraclesTest {

    private static RunLedger ledger() {
        return new RunLedger(new LedgerAccounting(AccountantFactory.standard(), NeighbouringRelation.REPLACE_ONE),
                PrivacyBudget.unlimited(1e-5), false);
    }

    /** Ten agents of the collaborative task, features L1-bounded (the Laplace release's norm). */
    private static PersonalizedProblem tenAgents() {
        return Instances.problem(Instances.generated(10, 3, FeatureNorm.L1, 12), 1.0);
    }

    /** Private coordinate descent of {@code plan} from random models, with seeded noise and the standard ledger. */
    private static CoordinateDescentRun privateRun(PersonalizedProblem problem, int[] schedule, ReleasePlan plan) {
        return new CoordinateDescentRun(RunSettings.empty(), ledger(), problem, randomModels(problem, 10), schedule, plan,
                new SeededNoiseStreams(11));
    }

    private static INDArray randomModels(PersonalizedProblem problem, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        INDArray m = problem.zeros();
        for (int i = 0; i < m.length(); i++) {
            m.putScalar(i, r.nextGaussian());
        }
        return m;
    }

    @Test
    void oracle1TheUpdateIsABlockGradientStepOfLengthOneOverL() {
        PersonalizedProblem problem = Instances.problem(Instances.generated(12, 5, FeatureNorm.L1, 1), 0.7);
        INDArray start = randomModels(problem, 2);
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 40, new SplittableRandom(3));
        CoordinateDescentRun run = new CoordinateDescentRun(RunSettings.empty(), null, problem, start, schedule, null, null);
        for (int t = 0; t < schedule.length; t++) {
            INDArray before = run.models();
            int i = schedule[t];
            INDArray expected = before.getRow(i).sub(problem.blockGradient(i, before).div(problem.blockLipschitz(i)));
            run.step();
            INDArray after = run.models();
            double error = after.getRow(i).sub(expected).norm2Number().doubleValue() / expected.norm2Number().doubleValue();
            assertTrue(error < 1e-12, "tick " + t + ": " + error);
            INDArray others = after.sub(before);
            others.getRow(i).assign(0);
            assertEquals(0.0, others.norm2Number().doubleValue(), "only the woken block changes");
        }
        assertEquals(schedule.length, java.util.Arrays.stream(run.wakeCounts()).sum());
        assertEquals(java.util.Arrays.stream(schedule).map(i -> problem.neighbours(i).length).sum(), run.messages(),
                "one message per neighbour and update");
    }

    @Test
    void oracle2ModelPropagationConvergesToTheLinearSystemsSolution() {
        PersonalizedProblem problem = Instances.problem(Instances.generated(12, 4, FeatureNorm.L1, 4), 0.5);
        INDArray local = LocalModels.solve(problem);
        INDArray star = ModelPropagationRun.fixedPoint(problem, local);
        ModelPropagationRun run = new ModelPropagationRun(RunSettings.empty(), problem, local,
                WakeSchedule.draw(problem.agentCount(), 6000, new SplittableRandom(5)));
        double previous = run.objective();
        while (!run.isFinished()) {
            run.step();
            double q = run.objective();
            assertTrue(q <= previous + 1e-12 * Math.abs(previous), "an exact block minimisation never increases Q_MP");
            previous = q;
        }
        double error = run.models().sub(star).norm2Number().doubleValue() / star.norm2Number().doubleValue();
        assertTrue(error < 1e-8, "relative distance to the fixed point " + error);
        // The fixed point satisfies the block equations (15) themselves.
        for (int i = 0; i < problem.agentCount(); i++) {
            double w = problem.mu() * problem.confidence(i);
            INDArray rhs = problem.neighbourAverage(i, star).addi(local.getRow(i).mul(w)).divi(1 + w);
            assertTrue(rhs.sub(star.getRow(i)).norm2Number().doubleValue() < 1e-10);
        }
    }

    @Test
    void oracle3DescentIsMonotoneAndNoSlowerThanProposition1OnAverage() {
        PersonalizedProblem problem = Instances.problem(Instances.generated(10, 4, FeatureNorm.L1, 6), 1.0);
        int n = problem.agentCount();
        // Q*: a long run.
        CoordinateDescentRun longRun = new CoordinateDescentRun(RunSettings.empty(), null, problem, problem.zeros(),
                WakeSchedule.draw(n, 8_000, new SplittableRandom(7)), null, null);
        longRun.runToEnd();
        double qStar = longRun.objective();
        double rate = 1 - problem.strongConvexity() / (n * problem.maxBlockLipschitz());
        int ticks = 300;
        double gapSum = 0;
        int runs = 10;
        double q0 = problem.objective(problem.zeros());
        for (int r = 0; r < runs; r++) {
            CoordinateDescentRun run = new CoordinateDescentRun(RunSettings.empty(), null, problem, problem.zeros(),
                    WakeSchedule.draw(n, ticks, new SplittableRandom(100 + r)), null, null);
            double previous = run.objective();
            while (!run.isFinished()) {
                run.step();
                double q = run.objective();
                assertTrue(q <= previous + 1e-12 * Math.abs(previous), "Q increased from " + previous + " to " + q);
                previous = q;
            }
            gapSum += previous - qStar;
        }
        double bound = Math.pow(rate, ticks) * (q0 - qStar);
        assertTrue(gapSum / runs <= bound, "mean gap " + gapSum / runs + " above Proposition 1's " + bound);
        INDArray optimum = longRun.models();
        for (int i = 0; i < n; i++) {
            assertTrue(problem.blockGradient(i, optimum).norm2Number().doubleValue() < 1e-9, "the long run reached Q*");
        }
    }

    @Test
    void oracle4ThePrivateUpdateAddsNoiseOfTheTheoremsScale() {
        PersonalizedProblem problem = Instances.problem(Instances.generated(12, 6, FeatureNorm.L1, 8), 0.8);
        int n = problem.agentCount();
        int[] schedule = WakeSchedule.draw(n, 3000, new SplittableRandom(9));
        for (ReleaseMechanism mechanism : ReleaseMechanism.values()) {
            double epsilonBar = 2.0;
            ReleasePlan plan = ReleasePlan.of(problem, schedule, mechanism, 1.0, epsilonBar, BudgetAllocation.EQUAL_SPLIT, 100,
                    1e-6, Math.exp(-5), 0);
            CoordinateDescentRun run = privateRun(problem, schedule, plan);
            double sum = 0;
            long count = 0;
            while (!run.isFinished()) {
                INDArray before = run.models();
                int t = (int) run.completedSteps();
                int i = schedule[t];
                long wake = run.wakeCounts()[i];
                double epsilon = plan.budget(i, wake);
                run.step();
                if (epsilon == 0) {
                    assertEquals(before, run.models(), "an agent whose releases are done no longer updates");
                    continue;
                }
                INDArray clean = before.getRow(i).sub(problem.blockGradient(i, before).div(problem.blockLipschitz(i)));
                double s = mechanism.scale(epsilon, 1e-6, 1.0, problem.agent(i).size());
                if (mechanism == ReleaseMechanism.LAPLACE) {
                    assertEquals(2.0 / (epsilon * problem.agent(i).size()), s, 1e-15, "s_i = 2 L_0 / (epsilon m_i)");
                }
                double expected = mechanism.variance(problem.alpha(i) * problem.mu() * problem.confidence(i) * s);
                assertEquals(expected, mechanism.variance(problem.mu() * problem.confidence(i) * problem.degree(i) * s
                        / problem.blockLipschitz(i)), 1e-12 * expected, "mu c_i D_ii / L_i = alpha_i mu c_i");
                INDArray noise = run.models().getRow(i).sub(clean);
                sum += noise.mul(noise).sumNumber().doubleValue() / expected;
                count += noise.length();
            }
            double ratio = sum / count;
            assertTrue(count > 3000, mechanism + ": " + count + " noise values");
            assertEquals(1.0, ratio, 0.1, mechanism + ": empirical / stated variance per coordinate = " + ratio);
            for (int i = 0; i < n; i++) {
                long releases = run.releases()[i];
                assertTrue(releases <= 100);
                assertEquals(releases * epsilonBar / 100, run.epsilonSum(i), 1e-12);
                assertTrue(run.epsilonAdvanced(i) <= run.epsilonSum(i) + 1e-15);
            }
        }
    }

    @Test
    void oracle5AllocationsSumToTheBudgetAndProposition2Decreases() {
        long[] ticks = {3, 17, 40, 41, 90, 300};
        double[] optimal = BudgetAllocation.OPTIMAL.budgets(0.15, ticks, 0, 0.97);
        double sum = 0;
        for (int k = 0; k < optimal.length; k++) {
            assertTrue(optimal[k] > 0);
            if (k > 0) {
                assertTrue(optimal[k] < optimal[k - 1], "budgets decrease with t");
            }
            sum += optimal[k];
        }
        assertEquals(0.15, sum, 1e-15);
        // Proposition 2's closed form: ((C^(1/3) - 1)/(C^(T/3) - 1)) C^(t/3) eps / lambda, lambda the sum over the ticks.
        double c = 0.97;
        int horizon = 400;
        double factor = (Math.cbrt(c) - 1) / (Math.pow(c, horizon / 3.0) - 1);
        double lambda = 0;
        for (long t : ticks) {
            lambda += factor * Math.pow(c, t / 3.0);
        }
        for (int k = 0; k < ticks.length; k++) {
            assertEquals(factor * Math.pow(c, ticks[k] / 3.0) * 0.15 / lambda, optimal[k], 1e-15);
        }
        // Lemma 3: over every tick 0..T-1 the unconditional optimum sums to epsilon-bar.
        double unconditional = 0;
        for (int t = 0; t < horizon; t++) {
            unconditional += factor * Math.pow(c, t / 3.0) * 0.15;
        }
        assertEquals(0.15, unconditional, 1e-12);
        double[] equal = BudgetAllocation.EQUAL_SPLIT.budgets(0.15, ticks, 4, 1);
        assertEquals(0.15, java.util.Arrays.stream(equal).sum(), 1e-15);
        assertEquals(0.0, equal[4]);
        assertEquals(0.15 / 4, equal[0], 1e-15);
        assertThrows(IllegalArgumentException.class, () -> BudgetAllocation.OPTIMAL.budgets(0.15, ticks, 0, 1.5));
    }

    @Test
    void oracle6TheThreeWayMinimumIsAtMostThePlainSumAndExactForOneRelease() {
        PersonalizedProblem problem = tenAgents();
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 2000, new SplittableRandom(13));
        ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, 1.0, 5.0, BudgetAllocation.EQUAL_SPLIT, 150,
                0, Math.exp(-5), 0.05);
        for (int i = 0; i < problem.agentCount(); i++) {
            long wakes = WakeSchedule.ticksOf(schedule, i).length;
            assertTrue(plan.epsilonAdvanced(i, wakes) <= plan.epsilonSum(i, wakes));
            assertEquals(0.05 + 5.0 / 150, plan.epsilonAdvanced(i, 1), 1e-15, "one release: the plain epsilon");
            assertEquals(0.05 + 5.0 / 150 * Math.min(150, wakes), plan.epsilonSum(i, wakes), 1e-12);
        }
        long wakes0 = WakeSchedule.ticksOf(schedule, 0).length;
        assertTrue(plan.epsilonAdvanced(0, wakes0) < plan.epsilonSum(0, wakes0), "many small releases compose below their sum");
    }

    @Test
    void theGuaranteeForEveryAgentTakesTheDeltaOfTheMostReleases() {
        // the optimal allocation gives every agent the same epsilon sum over however many wake-ups it had: the agent of
        // the largest sum (a tie broken by rounding) need not be the one with the most releases, whose delta is larger
        PersonalizedProblem problem = Instances.problem(Instances.generated(10, 3, FeatureNorm.L2, 12), 1.0);
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 400, new SplittableRandom(13));
        ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.GAUSSIAN, 1.0, 0.5, BudgetAllocation.OPTIMAL, 30,
                1e-6, Math.exp(-5), 0);
        CoordinateDescentRun run = privateRun(problem, schedule, plan);
        run.runToEnd();
        long[] released = run.releases();
        long most = java.util.Arrays.stream(released).max().orElseThrow();
        int largestEpsilon = 0;
        for (int i = 1; i < released.length; i++) {
            largestEpsilon = run.epsilonSum(i) > run.epsilonSum(largestEpsilon) ? i : largestEpsilon;
        }
        assertTrue(released[largestEpsilon] < most, "the case the statement must get right: the agent of the largest epsilon"
                + " released " + released[largestEpsilon] + " times, another " + most);
        String statement = run.privacyStatement();
        String delta = EpsilonFormat.upwardSignificant(most * 1e-6, 3);
        assertTrue(statement.contains(", " + delta + ")-DP for every agent, the plain composition"),
                "the delta of " + most + " releases, " + delta + ": " + statement);
        double[] deltas = new double[(int) most];
        java.util.Arrays.fill(deltas, 1e-6);
        String advanced = EpsilonFormat.upwardSignificant(AdvancedComposition.totalDelta(Math.exp(-5), deltas), 3);
        assertTrue(statement.contains(", " + advanced + ")-DP for every agent (agent"), "advanced composition's delta of "
                + most + " releases, " + advanced + ": " + statement);
    }

    @Test
    void aWarmStartIsChargedToEveryAgentsLedgerAsThePlanCountsIt() {
        PersonalizedProblem problem = tenAgents();
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 200, new SplittableRandom(13));
        double[] ledgerEpsilon = new double[2];
        for (int warm = 0; warm < 2; warm++) {
            ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, 1.0, 0.5, BudgetAllocation.EQUAL_SPLIT, 10,
                    0, Math.exp(-5), warm * 0.2);
            CoordinateDescentRun run = privateRun(problem, schedule, plan);
            run.runToEnd();
            PrivacyLedger spent = run.ledger().orElseThrow().ledger();
            assertEquals(run.plannedLedger().orElseThrow(), spent, "the run charges what its pricing plans");
            assertEquals(warm == 1, spent.entries().stream().anyMatch(e -> e.event().equals(new ZCdpEvent(0.2 * 0.2 / 2))),
                    "the warm start's zCDP charge");
            ledgerEpsilon[warm] = run.ledger().orElseThrow().epsilon();
        }
        assertTrue(ledgerEpsilon[1] > ledgerEpsilon[0], "the warm start costs: " + java.util.Arrays.toString(ledgerEpsilon));
    }

    @Test
    void aResumedRunChargesItsWarmStartOnceAndARunSavedWithoutTheChargeAtItsNextStep() {
        PersonalizedProblem problem = tenAgents();
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 200, new SplittableRandom(13));
        ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, 1.0, 0.5, BudgetAllocation.EQUAL_SPLIT, 10,
                0, Math.exp(-5), 0.2);
        ZCdpEvent warm = new ZCdpEvent(0.2 * 0.2 / 2);
        CoordinateDescentRun first = privateRun(problem, schedule, plan);
        first.run(50);
        RunState saved = first.state();
        RunState.Builder older = RunState.builder();
        saved.arrays().forEach(older::array);
        saved.numbers().forEach((k, v) -> {
            if (k.equals("warm_start_charged")) {
                return;
            }
            if (v.contains(".") || v.contains("E") || v.contains("N") || v.contains("I")) {
                older.number(k, Double.parseDouble(v));
            } else {
                older.number(k, Long.parseLong(v));
            }
        });
        for (RunState state : new RunState[]{saved, older.build()}) {
            CoordinateDescentRun resumed = privateRun(problem, schedule, plan);
            resumed.restore(state, 50);
            resumed.step();
            // this fresh ledger stands for the checkpoint's: the saved run had charged it, the older one had not
            boolean charged = resumed.ledger().orElseThrow().ledger().entries().stream().anyMatch(e -> e.event().equals(warm));
            assertEquals(state != saved, charged, state == saved ? "charged once, before the save" : "charged at the next step");
        }
    }

    @Test
    void theStatementSaysWhichBoundIsTheGuaranteeWhenTheLedgersRenyiFigureIsLooser() {
        PersonalizedProblem problem = tenAgents();
        int[] schedule = WakeSchedule.draw(problem.agentCount(), 400, new SplittableRandom(13));
        // few releases of a pure-DP mechanism: the Renyi conversion at delta is above their plain sum
        ReleasePlan plan = ReleasePlan.of(problem, schedule, ReleaseMechanism.LAPLACE, 1.0, 0.5, BudgetAllocation.EQUAL_SPLIT, 3,
                0, Math.exp(-5), 0);
        CoordinateDescentRun run = privateRun(problem, schedule, plan);
        run.runToEnd();
        double ledgerEpsilon = run.ledger().orElseThrow().epsilon();
        assertTrue(ledgerEpsilon > 0.5, "the Renyi figure of three Laplace releases: " + ledgerEpsilon);
        assertTrue(run.epsilon() <= 0.5, "the run's epsilon is the plain composition: " + run.epsilon());
        String statement = run.privacyStatement();
        String kind = CoordinateDescentRun.notAGuarantee(problem) == null ? "the guarantee" : "not a guarantee: see the WARNING";
        assertTrue(statement.contains("The run's epsilon (" + kind + "): (0.500000, 0)-DP for every agent"), statement);
        assertTrue(statement.contains("not an extra cost; here it is looser than the plain composition above, (0.500000, 0)-DP."),
                statement);
    }
}
