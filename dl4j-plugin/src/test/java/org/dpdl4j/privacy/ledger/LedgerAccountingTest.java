package org.dpdl4j.privacy.ledger;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.ComposedEvent;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.LaplaceEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.RdpAccountant;
import org.dpdl4j.privacy.accounting.SampledWithoutReplacementEvent;
import org.dpdl4j.privacy.accounting.ExactGaussianAccountant;
import org.dpdl4j.privacy.accounting.GaussianPrivacyCurve;
import org.dpdl4j.privacy.accounting.PldAccountant;
import org.dpdl4j.privacy.accounting.TightestAccountant;
import org.dpdl4j.privacy.accounting.TightestAdditiveAccountant;
import org.dpdl4j.privacy.accounting.ZCdpAccountant;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a ledger costs: closed forms for single entries, the choice of analysis, and parallel composition. */
class LedgerAccountingTest {
    private static final long[] COUNTS = {1, 7, 200, 100_000};
    private static final double[] DELTAS = {1e-9, 1e-5, 0.01};

    /** A ledger of one entry: {@code count} applications of {@code event} to every party. */
    static PrivacyLedger single(DpEvent event, long count) {
        return new PrivacyLedger(List.of(entry(event, count, LedgerEntry.ALL_PARTIES)));
    }

    static LedgerEntry entry(DpEvent event, long count, int party) {
        return new LedgerEntry(event, count, party, "test " + event, true, 0);
    }

    /** rho of one Gaussian release with noise multiplier z: 1/(2 z^2), or 2/z^2 when neighbours replace one unit. */
    private static double gaussianRho(double z, NeighbouringRelation relation) {
        return (relation == REPLACE_ONE ? 2.0 : 0.5) / (z * z);
    }

    /** Unsampled Gaussian releases, with their rho in closed form. */
    private static List<Object[]> linearEvents(NeighbouringRelation relation) {
        List<Object[]> out = new ArrayList<>();
        for (double z : new double[]{0.5, 1.1, 3.0, 17.0}) {
            out.add(new Object[]{new GaussianEvent(z), gaussianRho(z, relation)});
        }
        for (double kappa : new double[]{1e-4, 0.3, 2.5}) {
            CorrelatedGaussianEvent c = new CorrelatedGaussianEvent(kappa, 1.7);
            // kappa C^2 / 2 per unit of sensitivity: the equivalent Gaussian's multiplier is 1 / (C sqrt(kappa)).
            double rho = gaussianRho(c.toGaussian().noiseMultiplier(), relation);
            assertEquals((relation == REPLACE_ONE ? 4 : 1) * kappa * 1.7 * 1.7 / 2, rho, 1e-14 * rho);
            out.add(new Object[]{c, rho});
        }
        for (double rho : new double[]{1e-6, 0.05, 0.8}) {
            out.add(new Object[]{new ZCdpEvent(rho), rho});
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(NeighbouringRelation.class)
    void unsampledGaussianEntriesCostTheExactCurveAndZcdpStatementsTheirClosedForm(NeighbouringRelation relation) {
        LedgerAccounting accounting = LedgerAccounting.standard(relation);
        for (Object[] e : linearEvents(relation)) {
            DpEvent event = (DpEvent) e[0];
            double rho = (double) e[1];
            boolean gaussian = !(event instanceof ZCdpEvent);
            for (long count : COUNTS) {
                for (double delta : DELTAS) {
                    // a Gaussian mechanism is rho-zCDP with rho = mu^2 / 2, and the exact curve prices mu
                    double exact = gaussian ? GaussianPrivacyCurve.epsilon(Math.sqrt(2 * count * rho), delta) : ZCdp.epsilon(count * rho, delta);
                    EpsilonBound b = accounting.bound(single(event, count), delta, Conversion.STANDARD);
                    String what = count + " x " + event + " at delta " + delta;
                    assertEquals(exact, b.epsilon(), 1e-12 * exact, what);
                    assertEquals(gaussian ? ExactGaussianAccountant.NAME : ZCdpAccountant.NAME, b.accountant(), what);
                    assertTrue(b.epsilon() <= ZCdp.epsilon(count * rho, delta), what + ": never above zCDP");
                    if (!gaussian) {
                        assertEquals(ZCdp.optimalOrder(count * rho, delta), b.order(), 0.0, "the exact optimum, not a grid order");
                    }
                    assertEquals(b.epsilon(), accounting.plannedEpsilon(event, count, delta), 0.0, "a plan prices as a ledger");
                }
            }
        }
    }

    @Test
    void aPoissonSampledGaussianEntryCostsTheSmallerOfRdpAndPld() {
        LedgerAccounting accounting = LedgerAccounting.standard(ADD_OR_REMOVE_ONE);
        LedgerAccounting rdpOnly = new LedgerAccounting(AccountantFactory.rdp(), ADD_OR_REMOVE_ONE);
        RdpAccountant rdp = new RdpAccountant(ADD_OR_REMOVE_ONE);
        for (double[] c : new double[][] {{0.004, 1.1, 14062}, {0.1, 1.5, 200}, {0.5, 4.0, 7}}) {
            for (DpEvent inner : List.of(new GaussianEvent(c[1]), new CorrelatedGaussianEvent(1 / (c[1] * c[1]), 1.0))) {
                PoissonSampledEvent event = new PoissonSampledEvent(c[0], inner);
                long count = (long) c[2];
                for (double delta : DELTAS) {
                    String what = count + " x " + event + " at delta " + delta;
                    EpsilonBound r = rdp.epsilonBound(rdp.curve(event), count, delta, Conversion.STANDARD);
                    assertEquals(r, rdpOnly.bound(single(event, count), delta, Conversion.STANDARD), what);
                    EpsilonBound p = new PldAccountant(ADD_OR_REMOVE_ONE).compose(event, count).epsilonBound(delta, Conversion.STANDARD);
                    EpsilonBound chosen = accounting.bound(single(event, count), delta, Conversion.STANDARD);
                    assertEquals(Math.min(r.epsilon(), p.epsilon()), chosen.epsilon(), 0.0, what);
                    assertEquals(chosen, new TightestAccountant(ADD_OR_REMOVE_ONE).compose(event, count)
                            .epsilonBound(delta, Conversion.STANDARD), what + ": the ledger prices as the accountant");
                }
            }
        }
        EpsilonBound classic = accounting.bound(single(new PoissonSampledEvent(256.0 / 60000, new GaussianEvent(1.1)), 14062), 1e-5,
                Conversion.STANDARD);
        assertEquals(PldAccountant.NAME, classic.accountant(), "DP-SGD is priced tightest by its PLD");
    }

    @ParameterizedTest
    @EnumSource(NeighbouringRelation.class)
    void theAdditiveBoundIsNeverAboveTheOrderGridForLinearLedgers(NeighbouringRelation relation) {
        List<Object[]> events = linearEvents(relation);
        List<DpEvent> mixed = events.stream().map(e -> (DpEvent) e[0]).toList();
        List<DpEvent> ledgers = new ArrayList<>(mixed);
        ledgers.add(new ComposedEvent(mixed));
        int strictlyBelow = 0;
        for (DpEvent event : ledgers) {
            for (long count : COUNTS) {
                for (double delta : DELTAS) {
                    double tightest = new TightestAdditiveAccountant(relation).compose(event, count).epsilonBound(delta, Conversion.STANDARD).epsilon();
                    double grid = new RdpAccountant(relation).compose(event, count).epsilonBound(delta, Conversion.STANDARD).epsilon();
                    // The exact optimum of alpha rho + ln(1/delta)/(alpha - 1) is at most its value at any grid order, and
                    // the exact Gaussian curve at most that.
                    assertTrue(tightest <= grid, count + " x " + event + ": " + tightest + " > " + grid);
                    if (tightest < grid) {
                        strictlyBelow++;
                    }
                }
            }
        }
        assertTrue(strictlyBelow > ledgers.size() * COUNTS.length * DELTAS.length / 2, "the exact conversion gains: " + strictlyBelow);
    }

    @Test
    void ledgersOnlyRdpAnalysesArePricedByRdp() {
        List<Object[]> cases = List.of(
                new Object[]{REPLACE_ONE, new SampledWithoutReplacementEvent(1000, 64, new GaussianEvent(0.9))},
                new Object[]{ADD_OR_REMOVE_ONE, ComposedEvent.of(new PoissonSampledEvent(0.1, new GaussianEvent(2)), new ZCdpEvent(0.01))});
        for (Object[] c : cases) {
            NeighbouringRelation relation = (NeighbouringRelation) c[0];
            DpEvent event = (DpEvent) c[1];
            for (long count : COUNTS) {
                for (double delta : DELTAS) {
                    for (Conversion conversion : Conversion.values()) {
                        String what = count + " x " + event + ", " + conversion + " at " + delta;
                        EpsilonBound rdp = new RdpAccountant(relation).compose(event, count).epsilonBound(delta, conversion);
                        assertEquals(rdp, new TightestAccountant(relation).compose(event, count).epsilonBound(delta, conversion), what);
                        EpsilonBound ledger = LedgerAccounting.standard(relation).bound(single(event, count), delta, conversion);
                        assertEquals(new LedgerAccounting(AccountantFactory.rdp(), relation).bound(single(event, count), delta, conversion),
                                ledger, what);
                        if (event instanceof ComposedEvent) {
                            // The ledger adds count * (curve of the composition), the accountant count * curve leaf by
                            // leaf: the same number up to the rounding of the distributive law.
                            assertEquals(rdp.order(), ledger.order(), 0.0, what);
                            assertEquals(rdp.epsilon(), ledger.epsilon(), 1e-14 * rdp.epsilon(), what);
                        } else {
                            assertEquals(rdp, ledger, what);
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(NeighbouringRelation.class)
    void aLedgerWithALaplaceReleaseIsPricedByPldOrRdp(NeighbouringRelation relation) {
        PrivacyLedger ledger = new PrivacyLedger(List.of(entry(new GaussianEvent(3), 50, LedgerEntry.ALL_PARTIES),
                entry(new LaplaceEvent(20), 4, LedgerEntry.ALL_PARTIES)));
        EpsilonBound additive = new LedgerAccounting(AccountantFactory.additive(), relation).bound(ledger, 1e-5, Conversion.STANDARD);
        EpsilonBound rdp = new LedgerAccounting(AccountantFactory.rdp(), relation).bound(ledger, 1e-5, Conversion.STANDARD);
        EpsilonBound zcdp = new LedgerAccounting(AccountantFactory.zcdp(), relation).bound(ledger, 1e-5, Conversion.STANDARD);
        // the additive candidates: RDP's grid, and zCDP, which prices the Laplace release as eps^2 / 2 only
        assertEquals(Math.min(rdp.epsilon(), zcdp.epsilon()), additive.epsilon(), 0.0);
        EpsilonBound standard = LedgerAccounting.standard(relation).bound(ledger, 1e-5, Conversion.STANDARD);
        EpsilonBound pld = new LedgerAccounting(AccountantFactory.pld(), relation).bound(ledger, 1e-5, Conversion.STANDARD);
        assertEquals(Math.min(rdp.epsilon(), pld.epsilon()), standard.epsilon(), 0.0);
        assertEquals(PldAccountant.NAME, standard.accountant(), "the PLD prices Gaussian and Laplace releases tighter: " + standard);
        // Without the Laplace release the same ledger is exactly Gaussian.
        PrivacyLedger gaussianOnly = single(new GaussianEvent(3), 50);
        assertEquals(GaussianPrivacyCurve.epsilon(Math.sqrt(2 * 50 * gaussianRho(3, relation)), 1e-5),
                LedgerAccounting.standard(relation).bound(gaussianOnly, 1e-5, Conversion.STANDARD).epsilon(), 0.0);
    }

    @Test
    void parallelCompositionChargesEachPartyItsOwnEntriesAfterThoseOfEveryParty() {
        double a1 = 0.1;
        double a2 = 0.2;
        double rho0 = 0.03;
        double rho1 = 0.06;
        double rho3 = 0.01;
        double delta = 1e-6;
        // Party 0's entry comes first in the ledger, but is priced after the entries of every party.
        PrivacyLedger ledger = new PrivacyLedger(List.of(
                entry(new ZCdpEvent(rho0), 1, 0),
                entry(new ZCdpEvent(a1), 1, LedgerEntry.ALL_PARTIES),
                entry(new ZCdpEvent(a2), 1, LedgerEntry.ALL_PARTIES),
                entry(new ZCdpEvent(rho1), 1, 1),
                entry(new ZCdpEvent(rho3), 1, 3)));
        LedgerAccounting accounting = LedgerAccounting.standard(REPLACE_ONE);
        double eps0 = ZCdp.epsilon((a1 + a2) + rho0, delta);
        assertNotEquals(ZCdp.epsilon((rho0 + a1) + a2, delta), eps0, "these values tell the summation orders apart");
        double eps1 = ZCdp.epsilon((a1 + a2) + rho1, delta);
        double eps3 = ZCdp.epsilon((a1 + a2) + rho3, delta);
        double everyone = ZCdp.epsilon(a1 + a2, delta);
        assertEquals(eps0, accounting.boundOfParty(ledger, 0, delta, Conversion.STANDARD).epsilon(), 0.0);
        assertEquals(eps1, accounting.boundOfParty(ledger, 1, delta, Conversion.STANDARD).epsilon(), 0.0);
        assertEquals(eps3, accounting.boundOfParty(ledger, 3, delta, Conversion.STANDARD).epsilon(), 0.0);
        assertEquals(everyone, accounting.boundOfParty(ledger, 2, delta, Conversion.STANDARD).epsilon(), 0.0,
                "a party without entries of its own pays only what touched every party");
        assertEquals(everyone, accounting.boundOfParty(ledger, LedgerEntry.ALL_PARTIES, delta, Conversion.STANDARD).epsilon(), 0.0);
        assertTrue(eps1 > eps0 && eps0 > eps3 && eps3 > everyone);
        LedgerAccounting.PartyBound worst = accounting.worstParty(ledger, delta, Conversion.STANDARD);
        assertEquals(1, worst.party());
        assertEquals(eps1, worst.bound().epsilon(), 0.0);
        assertEquals(eps1, accounting.bound(ledger, delta, Conversion.STANDARD).epsilon(), 0.0, "the ledger's epsilon is the worst party's");
        assertEquals(List.of(0, 1, 3), ledger.parties());

        // The same through a run's ledger, whose running tally must agree.
        RunLedger run = new RunLedger(accounting, PrivacyBudget.unlimited(delta), true);
        run.continueFrom(ledger, false);
        assertEquals(worst, run.worstParty());
        assertEquals(eps1, run.epsilon(), 0.0);
        assertEquals(eps0, run.spentBy(0).epsilon(), 0.0);
        assertEquals(everyone, run.spentBy(2).epsilon(), 0.0);

        // A ledger where no entry names a party has one guarantee, everyone's.
        PrivacyLedger shared = new PrivacyLedger(List.of(entry(new ZCdpEvent(a1), 1, LedgerEntry.ALL_PARTIES),
                entry(new ZCdpEvent(a2), 1, LedgerEntry.ALL_PARTIES)));
        assertEquals(LedgerEntry.ALL_PARTIES, accounting.worstParty(shared, delta, Conversion.STANDARD).party());
        assertEquals(everyone, accounting.bound(shared, delta, Conversion.STANDARD).epsilon(), 0.0);
    }

    /**
     * The Gaussian budget a calibration divides among its releases is the one its ledger is priced by: a ledger holding
     * exactly that mu^2 costs the target (to rounding), under every accountant; Renyi DP's is zCDP's 2 rho.
     */
    @ParameterizedTest
    @EnumSource(NeighbouringRelation.class)
    void theGaussianBudgetIsWhatTheLedgerPricesAtTheTarget(NeighbouringRelation relation) {
        double delta = 1e-5;
        for (String pricing : AccountantFactory.NAMES) {
            LedgerAccounting accounting = new LedgerAccounting(AccountantFactory.named(pricing), relation);
            for (double eps : new double[] {0.1, 1, 4, 16}) {
                double muSquared = accounting.gaussianMuSquared(eps, delta);
                // one release of mu^2: noise multiplier sensitivity / mu (sensitivity 2 under replace-one)
                double z = (relation == REPLACE_ONE ? 2 : 1) / Math.sqrt(muSquared);
                assertEquals(eps, accounting.plannedEpsilon(new GaussianEvent(z), 1, delta), 1e-9 * eps, pricing + " at " + eps);
            }
        }
        assertEquals(2 * ZCdp.rho(1, delta), new LedgerAccounting(AccountantFactory.renyi(), REPLACE_ONE).gaussianMuSquared(1, delta), 0.0);
        double mu = GaussianPrivacyCurve.mu(1, delta);
        assertEquals(mu * mu, LedgerAccounting.standard(REPLACE_ONE).gaussianMuSquared(1, delta), 0.0);
        IllegalArgumentException zero = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LedgerAccounting.standard(REPLACE_ONE).gaussianMuSquared(0, delta));
        assertTrue(zero.getMessage().contains("target epsilon"), zero.getMessage());
    }
}
