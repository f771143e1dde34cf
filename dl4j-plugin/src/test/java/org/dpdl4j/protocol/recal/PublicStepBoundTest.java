package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Steps from a public feature bound: every agent's bound is at least its smoothness, nothing the run releases or
 * draws its noise from changes when one record is replaced by another within the bound (it does with the agents' own
 * smoothness), the statement says which, and records beyond the bound are refused.
 */
class PublicStepBoundTest {
    private static final List<NodeData> DATA = LassoInstances.agents(6, 40, 12, 2, 3);
    private static final double BOUND = largestNorm(DATA) * 1.5;

    private static double largestNorm(List<NodeData> data) {
        return data.stream().mapToDouble(d -> d.features().norm2(1).maxNumber().doubleValue()).max().orElseThrow();
    }

    /** {@code data} with agent 0's first record replaced by a record of norm {@code norm} along the first feature. */
    private static List<NodeData> replacedFirstRecord(double norm) {
        List<NodeData> out = new ArrayList<>(DATA);
        INDArray f = DATA.get(0).features().castTo(DataType.DOUBLE).dup();
        INDArray record = Nd4j.zeros(DataType.DOUBLE, 1, f.size(1));
        record.putScalar(0, norm);
        f.putRow(0, record);
        out.set(0, new NodeData(f, DATA.get(0).labels()));
        return out;
    }

    private static PrimalDualRunBuilder builder(PrimalDualAlgorithm algorithm, List<NodeData> data, boolean intercept) {
        return PrimalDualRunBuilder.of(algorithm).model(LassoInstances.leastSquares(12, 2, intercept)).agents(data)
                .penalty(Penalty.l1(0.5)).graph(Topologies.ring(6)).iterations(60).clip(4).noiseKind(NoiseKind.SEEDED).seed(5)
                .target(2, 1e-5);
    }

    @Test
    void theBoundIsAtLeastEveryAgentsSmoothnessAndFollowsOnlyTheCounts() {
        for (boolean intercept : new boolean[] {false, true}) {
            for (SmoothLoss loss : SmoothLoss.values()) {
                CompositeProblem p = CompositeProblem.of(DATA, loss, Penalty.none(), intercept);
                double[] bound = p.publicSmoothness(BOUND);
                double[] own = p.smoothness();
                for (int i = 0; i < bound.length; i++) {
                    assertTrue(bound[i] >= own[i] / 1.01, loss + ", agent " + i + ": " + bound[i] + " < " + own[i]);
                    assertEquals(loss.curvature() * 40 * (BOUND * BOUND + (intercept ? 1 : 0)), bound[i], 1e-12 * bound[i]);
                }
            }
        }
    }

    @Test
    void withTheBoundNoStepOrNoiseStdDependsOnARecordsValues() {
        List<NodeData> replaced = replacedFirstRecord(BOUND);
        for (PrimalDualAlgorithm algorithm : List.of(PrimalDualAlgorithm.DP_RECAL, PrimalDualAlgorithm.DP_PG_EXTRA,
                PrimalDualAlgorithm.DP_NIDS)) {
            CompositeRun a = builder(algorithm, DATA, false).featureNormBound(BOUND).build();
            CompositeRun b = builder(algorithm, replaced, false).featureNormBound(BOUND).build();
            CompositeRun ownA = builder(algorithm, DATA, false).build();
            CompositeRun ownB = builder(algorithm, replaced, false).build();
            for (int i = 0; i < 6; i++) {
                assertEquals(a.privacy().sigma(i), b.privacy().sigma(i), 0.0, algorithm + ", agent " + i);
                assertEquals(a.privacy().sensitivity(i), b.privacy().sensitivity(i), 0.0, algorithm + ", agent " + i);
            }
            // with the agents' own smoothness the replaced record moves what the bound keeps fixed: RECAL's steps
            // (its sensitivity 4 beta_i tau_i G_rec does not depend on L_i), the baselines' step and so their noise
            if (a instanceof RelayRecal relay) {
                assertArrayEquals(relay.steps().tau(), ((RelayRecal) b).steps().tau(), 0.0);
                assertNotEquals(((RelayRecal) ownA).steps().tau()[0], ((RelayRecal) ownB).steps().tau()[0], algorithm.cliName());
            } else {
                assertEquals(((GossipRun) a).alpha(), ((GossipRun) b).alpha(), 0.0);
                assertNotEquals(ownA.privacy().sigma(0), ownB.privacy().sigma(0), algorithm.cliName());
            }
            assertTrue(a.privacyStatement().contains("follow the public feature bound"), a.privacyStatement());
            assertFalse(a.privacyStatement().contains("Not accounted"), a.privacyStatement());
            assertTrue(ownA.privacyStatement().contains("Not accounted: the step sizes"), ownA.privacyStatement());
        }
    }

    @Test
    void theReportedStepConditionFollowsTheBoundNotTheData() {
        List<NodeData> replaced = replacedFirstRecord(BOUND);
        for (double scale : new double[] {1, 3, 40}) {
            CompositeRun a = builder(PrimalDualAlgorithm.DP_RECAL, DATA, false).featureNormBound(BOUND).stepScale(scale).build();
            CompositeRun b = builder(PrimalDualAlgorithm.DP_RECAL, replaced, false).featureNormBound(BOUND).stepScale(scale).build();
            assertEquals(a.resolved().get("stepCondition"), b.resolved().get("stepCondition"), "scale " + scale);
        }
        CompositeRun large = builder(PrimalDualAlgorithm.DP_RECAL, DATA, false).featureNormBound(BOUND).stepScale(40).build();
        assertTrue(String.valueOf(large.resolved().get("stepCondition")).startsWith("violated"), large.resolved().toString());
    }

    @Test
    void theBoundCannotChangeOnResume(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path file = dir.resolve("run.ckpt");
        CompositeRun bounded = builder(PrimalDualAlgorithm.DP_PG_EXTRA, DATA, false).featureNormBound(BOUND).build();
        for (int k = 0; k < 10; k++) {
            bounded.step();
        }
        org.dpdl4j.runtime.RunCheckpoint.save(bounded, file);
        for (PrimalDualRunBuilder other : List.of(builder(PrimalDualAlgorithm.DP_PG_EXTRA, DATA, false),
                builder(PrimalDualAlgorithm.DP_PG_EXTRA, DATA, false).featureNormBound(2 * BOUND))) {
            CompositeRun run = other.build();
            RuntimeException e = assertThrows(RuntimeException.class, () -> org.dpdl4j.runtime.RunCheckpoint.resume(run,
                    org.dpdl4j.runtime.RunCheckpoint.read(file), org.dpdl4j.runtime.ResumePolicy.allowingChanges()));
            assertTrue(e.getMessage().contains("feature-norm-bound"), e.getMessage());
        }
        CompositeRun same = builder(PrimalDualAlgorithm.DP_PG_EXTRA, DATA, false).featureNormBound(BOUND).build();
        org.dpdl4j.runtime.RunCheckpoint.resume(same, org.dpdl4j.runtime.RunCheckpoint.read(file),
                org.dpdl4j.runtime.ResumePolicy.strict());
        assertEquals(10, same.completedSteps());
    }

    @Test
    void aGivenAlphaIsAccountedAndExcludesTheBound() {
        CompositeRun run = builder(PrimalDualAlgorithm.DP_PG_EXTRA, DATA, false).alpha(1e-3).build();
        assertTrue(run.privacyStatement().contains("alpha = 0.001 was given"), run.privacyStatement());
        assertFalse(run.privacyStatement().contains("Not accounted"), run.privacyStatement());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builder(PrimalDualAlgorithm.DP_PG_EXTRA, DATA, false).alpha(1e-3).featureNormBound(BOUND).build());
        assertTrue(e.getMessage().contains("drop --feature-norm-bound"), e.getMessage());
    }

    @Test
    void aRecordBeyondTheBoundIsRefusedWithTheFix() {
        for (boolean intercept : new boolean[] {false, true}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> builder(PrimalDualAlgorithm.DP_RECAL, replacedFirstRecord(BOUND * 1.001), intercept)
                            .featureNormBound(BOUND).build());
            assertTrue(e.getMessage().contains("agent 0") && e.getMessage().contains("raise the bound"), e.getMessage());
            // a record exactly at the bound is within it, the intercept's one not counted against B
            builder(PrimalDualAlgorithm.DP_RECAL, replacedFirstRecord(BOUND), intercept).featureNormBound(BOUND).build();
        }
        assertThrows(IllegalArgumentException.class, () -> builder(PrimalDualAlgorithm.DP_RECAL, DATA, false)
                .featureNormBound(-1).build());
    }
}
