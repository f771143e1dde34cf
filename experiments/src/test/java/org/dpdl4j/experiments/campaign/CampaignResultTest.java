package org.dpdl4j.experiments.campaign;

import static org.dpdl4j.experiments.campaign.FailureThresholdTest.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Aggregates and verdicts of a campaign built from hand-made records. */
class CampaignResultTest {
    private static final RowKey LS = new RowKey("decor", "eavesdropper", 8, "analytic-ls");
    private static final RowKey IDLG = LS.withAttack("idlg");
    private static final RowKey OPEN = new RowKey("dsgd", "eavesdropper", Double.POSITIVE_INFINITY, "analytic-ls");

    private static CampaignResult result(List<AttackRecord> records) {
        FailureThreshold.Bar bar = new FailureThreshold.Bar(14, 0.3, 14, 0.3, 9, 0.01);
        FailureThreshold threshold = new FailureThreshold(Map.of(0, bar, 1, bar, 2, bar, 3, bar), 5);
        return new CampaignResult(List.of(), records, List.of(), threshold, Map.of(), new double[0], 1.0);
    }

    @Test
    void anImageFailsOnlyWhenEveryAttackFailsAndIsRecoveredWhenAnyRecoversIt() {
        List<AttackRecord> records = List.of(
                // image 0: both attacks blind -> failed
                record(LS, 0, 10, 0.1, 1, 2), record(IDLG, 0, 13, 0.2, 1, 1),
                // image 1: idlg beats the bar of 14 dB -> not failed, not recovered
                record(LS, 1, 10, 0.1, 2, 2), record(IDLG, 1, 15, 0.2, 2, 2),
                // image 2: analytic recovers it -> not failed, recovered
                record(LS, 2, 35, 0.95, 3, 3), record(IDLG, 2, 10, 0.1, 3, 3),
                // image 3: both blind
                record(LS, 3, 11, 0.2, 4, 4), record(IDLG, 3, 12, 0.25, 4, 0));
        CampaignResult r = result(records);
        List<Verdict> verdicts = r.verdicts();
        assertEquals(1, verdicts.size());
        Verdict v = verdicts.get(0);
        assertEquals(4, v.images());
        assertEquals(0.5, v.failed(), 1e-12);
        assertEquals(0.25, v.recovered(), 1e-12);
        assertFalse(v.failsOnNinetyPercent());
        assertTrue(new Verdict("x", "y", 1, 10, 0.9, 0).failsOnNinetyPercent());
        assertFalse(new Verdict("x", "y", 1, 10, 0.89, 0).failsOnNinetyPercent());
    }

    @Test
    void rowSummariesAreMediansAndFractionsOfTheirOwnRecords() {
        List<AttackRecord> records = List.of(record(LS, 0, 10, 0.1, 1, 2), record(LS, 1, 20, 0.5, 2, 2),
                record(LS, 2, 35, 0.9, 3, 3), record(LS, 3, Double.NaN, Double.NaN, 4, -1),
                record(OPEN, 0, Double.POSITIVE_INFINITY, 1, 1, 1));
        CampaignResult r = result(records);
        assertEquals(List.of(LS, OPEN), r.rows());
        RowSummary s = r.summaries().get(0);
        assertEquals(4, s.images());
        assertEquals(20, s.medianPsnr(), 1e-12, "median of the finite values 10, 20, 35");
        assertEquals(0.5, s.medianSsim(), 1e-12);
        assertEquals(0.25, s.recovered(), 1e-12);
        assertEquals(0.5, s.failed(), 1e-12, "10 dB and no reconstruction fail; 20 dB beats 14 dB");
        assertEquals(0.5, s.failedBySpec(), 1e-12, "spec 8.3: 10 dB / 0.1 and no reconstruction");
        assertEquals(0.5, s.labelAccuracy(), 1e-12);
        assertEquals(100.0, s.noiseRatio(), 1e-12);
        assertEquals("50", s.rounds());
        RowSummary open = r.summaries().get(1);
        assertEquals(Double.POSITIVE_INFINITY, open.medianPsnr());
        assertEquals(1.0, open.recovered(), 1e-12);
        assertEquals(0.0, open.failed(), 1e-12);
    }

    @Test
    void rowKeysPrintEpsilonsAsTablesDo() {
        assertEquals("inf", OPEN.epsilonLabel());
        assertEquals("8", LS.epsilonLabel());
        assertEquals("0.500000", RowKey.formatEpsilon(0.5));
    }
}
