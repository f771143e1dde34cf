package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Spec 5.7 oracles 1 and 4: RECAL and the synchronous AFBS iteration reach the centralised Lasso solution. */
class RecalConvergenceTest {
    private static final List<NodeData> DATA = LassoInstances.agents(8, 30, 20, 2, 11);

    static CompositeProblem problem(Penalty penalty) {
        return CompositeProblem.of(DATA, SmoothLoss.LEAST_SQUARES, penalty, false);
    }

    static Penalty lasso() {
        CompositeProblem unpenalized = problem(Penalty.none());
        INDArray g = new ProximalSolver(unpenalized).gradient(unpenalized.zeros());
        return Penalty.l1(0.1 * g.amaxNumber().doubleValue());
    }

    static Graph graph(String name) {
        return name.equals("ring") ? Topologies.ring(8) : Topologies.complete(8);
    }

    static CompositeRun run(PrimalDualAlgorithm algorithm, CompositeProblem p, Graph g, long iterations) {
        CompositeRun run = PrimalDualRunBuilder.of(algorithm).model(LassoInstances.leastSquares(20, 2, false)).problem(p)
                .graph(g).iterations(iterations).noiseKind(NoiseKind.SEEDED).seed(5).build();
        run.runToEnd();
        return run;
    }

    @Test
    void theCentralisedSolutionIsCertified() {
        CompositeProblem p = problem(lasso());
        ProximalSolver.Solution s = new ProximalSolver(p).solve(1e-15, 100_000);
        assertTrue(s.certified(), "the polished solution passes the optimality check");
        assertTrue(s.optimality() < 1e-10, "optimality residual " + s.optimality());
        long zeros = java.util.Arrays.stream(s.x().data().asDouble()).filter(v -> v == 0).count();
        assertTrue(zeros > 0 && zeros < 40, "the Lasso solution is sparse but not empty: " + zeros + " zeros of 40");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring", "complete"})
    void recalReachesTheCentralisedSolution(String graph) {
        CompositeProblem p = problem(lasso());
        INDArray star = new ProximalSolver(p).solve(1e-15, 100_000).x();
        CompositeRun run = run(PrimalDualAlgorithm.RECAL, p, graph(graph), 4000);
        assertTrue(run.relativeError(star) < 1e-10, graph + ": relative error " + run.relativeError(star));
        assertEquals(4000, run.messages(), "one baton pass per iteration");
    }

    @Test
    void recalWithAnElasticNetReachesItsSolution() {
        CompositeProblem p = problem(Penalty.elasticNet(lasso().l1(), 5.0));
        INDArray star = new ProximalSolver(p).solve(1e-15, 100_000).x();
        CompositeRun run = run(PrimalDualAlgorithm.RECAL, p, graph("ring"), 4000);
        assertTrue(run.relativeError(star) < 1e-10, "relative error " + run.relativeError(star));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ring", "complete"})
    void theSynchronousIterationReachesTheSameSolution(String graph) {
        CompositeProblem p = problem(lasso());
        INDArray star = new ProximalSolver(p).solve(1e-15, 100_000).x();
        SynchronousAfbs sync = (SynchronousAfbs) run(PrimalDualAlgorithm.RECAL_SYNC, p, graph(graph), 1500);
        assertTrue(sync.relativeError(star) < 1e-10, "relative error " + sync.relativeError(star));
        assertEquals(0.0, sync.lastCorrection(), "theta = 2: the (6d) corrections are identically zero");
    }

    @Test
    void generalThetaAndMuAddNonZeroCorrectionsAndStillConverge() {
        CompositeProblem p = problem(lasso());
        INDArray star = new ProximalSolver(p).solve(1e-15, 100_000).x();
        SynchronousAfbs sync = new SynchronousAfbs(org.dpdl4j.runtime.options.RunSettings.empty(), p,
                LinearModel.of(LassoInstances.leastSquares(20, 2, false)),
                RecalSteps.defaults(p.smoothness(), 1.0, 0.5), 3000, StepOrigin.agentsData(p.smoothness()));
        sync.step();
        assertTrue(sync.lastCorrection() > 0, "the (6d) corrections apply for theta = 1");
        sync.runToEnd();
        assertTrue(sync.relativeError(star) < 1e-8, "relative error " + sync.relativeError(star));
    }

    @Test
    void logisticLossWithAnInterceptApproachesTheCentralisedSolution() {
        List<NodeData> data = LassoInstances.classification(8, 30, 20, 3, 4);
        CompositeProblem p = CompositeProblem.of(data, SmoothLoss.LOGISTIC, Penalty.elasticNet(0.5, 2.0), true);
        INDArray star = new ProximalSolver(p).solve(1e-14, 200_000).x();
        CompositeRun run = PrimalDualRunBuilder.of(PrimalDualAlgorithm.RECAL).model(LassoInstances.softmax(20, 3)).problem(p)
                .graph(Topologies.ring(8)).iterations(8_000).noiseKind(NoiseKind.SEEDED).seed(2).build();
        run.runToEnd();
        assertTrue(run.relativeError(star) < 0.01, "relative error " + run.relativeError(star));
        double gap = (p.objective(run.output()) - p.objective(star)) / p.objective(star);
        assertTrue(gap >= -1e-12 && gap < 1e-4, "objective gap " + gap);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg-extra", "nids"})
    void theBaselinesReachTheCentralisedSolution(String name) {
        CompositeProblem p = problem(lasso());
        INDArray star = new ProximalSolver(p).solve(1e-15, 100_000).x();
        CompositeRun run = run(PrimalDualAlgorithm.of(name), p, graph("ring"), 3000);
        assertTrue(run.relativeError(star) < 1e-8, name + ": relative error " + run.relativeError(star));
        long publications = name.equals("nids") ? 2999 : 3000;   // NIDS publishes from its second iteration on
        assertEquals(publications * 16, run.messages(), "every agent sends to both ring neighbours at every publication");
    }
}
