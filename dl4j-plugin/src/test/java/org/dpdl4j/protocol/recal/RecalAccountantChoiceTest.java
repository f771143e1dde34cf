package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;

/** DP-PG-EXTRA calibrated to a target: its ledger is priced by the named accountant and stays within the target. */
class RecalAccountantChoiceTest {
    private static final List<NodeData> DATA = LassoInstances.agents(8, 30, 20, 2, 11);

    @Test
    void aCalibratedRunStaysWithinItsTargetUnderEveryAccountant() {
        for (String pricing : AccountantFactory.NAMES) {
            CompositeProblem p = CompositeProblem.of(DATA, SmoothLoss.LEAST_SQUARES, Penalty.l1(1.0), false);
            try (CompositeRun run = PrimalDualRunBuilder.of(PrimalDualAlgorithm.DP_PG_EXTRA).model(LassoInstances.leastSquares(20, 2, false))
                    .problem(p).graph(Topologies.ring(8)).iterations(30).clip(5).noiseKind(NoiseKind.SEEDED).seed(9)
                    .accountant(AccountantFactory.named(pricing)).target(2, 1e-5).build()) {
                assertEquals(pricing, run.ledger().orElseThrow().accounting().method());
                while (run.completedSteps() < run.plannedSteps()) {
                    run.step();
                }
                double spent = run.ledger().orElseThrow().epsilon();
                assertTrue(spent <= 2 && spent > 1.99, pricing + ": " + spent);
            }
        }
    }
}
