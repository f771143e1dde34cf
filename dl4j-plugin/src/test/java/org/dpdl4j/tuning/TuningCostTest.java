package org.dpdl4j.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.accounting.ComposedEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.RepeatAndSelect;
import org.dpdl4j.privacy.accounting.SelfComposedEvent;
import org.dpdl4j.privacy.ledger.LedgerEntry;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.junit.jupiter.api.Test;

class TuningCostTest {
    private static final NeighbouringRelation REL = NeighbouringRelation.ADD_OR_REMOVE_ONE;

    private static PrivacyLedger gaussians(double sigma, long count) {
        return new PrivacyLedger(List.of(new LedgerEntry(new GaussianEvent(sigma), count, LedgerEntry.ALL_PARTIES, "g", true, 0)));
    }

    @Test
    void theCostIsTheTheoremAppliedToTheCostliestPoolMemberWithTheScore() {
        // pool: 4 releases at sigma 8 and 1 release at sigma 3 (the costlier: rho = 1/18 > 4/128), score sigma 20
        TuningCost cost = TuningCost.of(List.of(gaussians(8, 4), gaussians(3, 1)), List.of(REL, REL),
                Optional.of(new GaussianEvent(20)), CandidateCount.geometric(10), 1e-5);
        RdpAccountant candidate = new RdpAccountant(REL);
        candidate.compose(ComposedEvent.of(new GaussianEvent(3), new GaussianEvent(20)));
        assertEquals(candidate.epsilon(1e-5), cost.candidate().epsilon(), 1e-12);
        // Theorem 2 by hand on the accountant's orders: geometric, gamma = 1/10
        double[] orders = RdpAccountant.defaultOrders();
        double[] eps = candidate.rdp();
        double[] tuned = RepeatAndSelect.truncatedNegativeBinomial(orders, eps, 1, 0.1);
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < orders.length; i++) {
            best = Math.min(best, Math.max(0, tuned[i] + Math.log(1 / 1e-5) / (orders[i] - 1)));
        }
        assertTrue(cost.epsilon() <= best + 1e-9, cost.epsilon() + " vs the classical conversion " + best);
        assertTrue(cost.epsilon() > cost.candidate().epsilon());
        // rho-zCDP closed form at lambda: eps(l) = rho l with rho = 1/18 + 1/800; the bound at lambda = 8, lambda-hat = 8
        double rho = 1.0 / 18 + 1.0 / 800;
        double atEight = rho * 8 + 2 * ((1 - 1.0 / 8) * rho * 8 + Math.log(10) / 8) + Math.log(10) / 7;
        int eight = java.util.Arrays.binarySearch(orders, 8.0);
        assertTrue(eight >= 0, "8 is one of the default orders");
        assertTrue(tuned[eight] <= atEight + 1e-12, "the minimum over lambda-hat is at most its value at 8");
        assertEquals(REL, cost.relation());
    }

    @Test
    void poissonAndOneCostlyPartyAreCovered() {
        PrivacyLedger parties = new PrivacyLedger(List.of(
                new LedgerEntry(new GaussianEvent(5), 2, LedgerEntry.ALL_PARTIES, "all", true, 0),
                new LedgerEntry(new GaussianEvent(2), 1, 3, "party 3", true, 0),
                new LedgerEntry(new GaussianEvent(4), 1, 7, "party 7", true, 0)));
        TuningCost cost = TuningCost.of(List.of(parties), List.of(REL), Optional.empty(), CandidateCount.poisson(5), 1e-5);
        RdpAccountant worst = new RdpAccountant(REL);
        worst.compose(ComposedEvent.of(new SelfComposedEvent(new GaussianEvent(5), 2), new GaussianEvent(2)));
        assertEquals(worst.epsilon(1e-5), cost.candidate().epsilon(), 1e-12, "the worst party's ledger");
        assertTrue(cost.event().isPoisson());
    }

    @Test
    void candidatesUnderDifferentRelationsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> TuningCost.of(List.of(gaussians(2, 1), gaussians(2, 1)),
                List.of(REL, NeighbouringRelation.REPLACE_ONE), Optional.empty(), CandidateCount.geometric(3), 1e-5));
        assertTrue(e.getMessage().contains("relations"), e.getMessage());
    }
}
