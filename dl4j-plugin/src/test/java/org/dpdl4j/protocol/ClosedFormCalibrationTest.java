package org.dpdl4j.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.CorrelatedGaussianEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.ZCdp;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.protocol.federated.ClientSampling;
import org.dpdl4j.protocol.federated.FedAvgPrivacy;
import org.dpdl4j.protocol.federated.FedAvgVariant;
import org.dpdl4j.protocol.federated.GopaAccountant;
import org.dpdl4j.protocol.federated.Mu2Privacy;
import org.dpdl4j.protocol.federated.NoiseSchedule;
import org.dpdl4j.protocol.federated.ServerTrust;
import org.dpdl4j.protocol.personalized.BudgetAllocation;
import org.dpdl4j.protocol.recal.DecayingNoisePrivacy;
import org.dpdl4j.protocol.randomwalk.RandomWalkPrivacy;
import org.junit.jupiter.api.Test;

/**
 * Every calibration in closed form (and personalized learning's split of its budget), over many targets: the epsilon its run's ledger reports at the calibrated noise never
 * exceeds the target, not even by rounding (a random walk calibrated to epsilon 2 once reported 2.0000000000000013);
 * GOPA's and the random walk's reach it under every accountant, and keep Renyi DP's noise bit for bit.
 */
class ClosedFormCalibrationTest {
    private static final double[] DELTAS = {1e-5, 1e-6};

    /** Targets from 0.05 to 20, the round numbers users give among them. */
    private static List<Double> targets() {
        List<Double> t = new ArrayList<>(List.of(0.1, 0.5, 1.0, 2.0, 3.0, 4.0, 8.0, 10.0));
        for (int i = 0; i < 120; i++) {
            t.add(0.05 * Math.pow(400, i / 119.0));
        }
        return t;
    }

    private static void within(double spent, double target, String what) {
        assertTrue(spent <= target, what + ": spends " + spent + " > target " + target);
    }

    /** Under every accountant the walk spends its target as that accountant prices the most visited party, to rounding. */
    @Test
    void randomWalkSgd() {
        for (String pricing : AccountantFactory.NAMES) {
            LedgerAccounting accounting = new LedgerAccounting(AccountantFactory.named(pricing), NeighbouringRelation.REPLACE_ONE);
            for (double delta : DELTAS) {
                for (long visits : new long[] {1, 7, 533, 5000}) {
                    for (double gradientBound : new double[] {1, 0.37}) {
                        for (double eps : targets()) {
                            double sigma = RandomWalkPrivacy.calibrate(visits, gradientBound, eps, delta, accounting);
                            spends(accounting.plannedEpsilon(new GaussianEvent(sigma / gradientBound), visits, delta), eps,
                                    "random walk, " + pricing + ", " + visits + " visits, L_F " + gradientBound + ", delta " + delta);
                        }
                    }
                }
            }
        }
    }

    /**
     * With Renyi DP the walk's noise is zCDP's closed form, moved by rounding only, bit for bit as before the calibration
     * followed the ledger's accountant: runs priced so (the committed results) keep their noise.
     */
    @Test
    void randomWalkSgdUnderRenyiDpKeepsZcdpsClosedForm() {
        LedgerAccounting accounting = new LedgerAccounting(AccountantFactory.renyi(), NeighbouringRelation.REPLACE_ONE);
        for (double delta : DELTAS) {
            for (long visits : new long[] {1, 7, 533, 5000}) {
                for (double gradientBound : new double[] {1, 0.37}) {
                    for (double eps : targets()) {
                        double zcdp = gradientBound * Math.sqrt(2.0 * visits / ZCdp.rho(eps, delta));
                        double before = accounting.safeSide(zcdp, s -> new GaussianEvent(s / gradientBound), visits, delta, eps).noise();
                        double calibrated = RandomWalkPrivacy.calibrate(visits, gradientBound, eps, delta, accounting);
                        assertEquals(before, calibrated, 0.0,
                                visits + " visits, L_F " + gradientBound + ", epsilon " + eps + ", delta " + delta);
                        // independent of safeSide: the closed form itself, moved up by rounding only
                        assertTrue(calibrated >= zcdp && calibrated <= zcdp * (1 + 1e-9), calibrated + " vs the closed form " + zcdp);
                    }
                }
            }
        }
    }

    @Test
    void mu2() {
        for (ServerTrust trust : ServerTrust.values()) {
            for (double delta : DELTAS) {
                for (long rounds : new long[] {1, 50, 1000}) {
                    for (double eps : targets()) {
                        double sigma = Mu2Privacy.calibrate(trust, 0.3, 10, rounds, eps, delta);
                        within(Mu2Privacy.of(trust, 0.3, 10, NoiseSchedule.constant(sigma), delta).epsilon(rounds), eps,
                                "mu2 " + trust + ", " + rounds + " rounds, delta " + delta);
                    }
                }
            }
        }
    }

    @Test
    void localDpFedAvg() {
        LedgerAccounting accounting = LedgerAccounting.standard(NeighbouringRelation.REPLACE_ONE);
        for (double delta : DELTAS) {
            for (long rounds : new long[] {1, 30, 500}) {
                for (double eps : targets()) {
                    double z = FedAvgPrivacy.calibrate(FedAvgVariant.DP_LOCAL, new ClientSampling.Everyone(), 10, rounds, eps, delta);
                    within(accounting.plannedEpsilon(new GaussianEvent(z), rounds, delta), eps,
                            "local DP-FedAvg, " + rounds + " rounds, delta " + delta);
                }
            }
        }
    }

    @Test
    void decayingNoiseOfDpRecalAsItsLedgerAddsThePublicationsUp() {
        for (double delta : DELTAS) {
            for (double zeta : new double[] {1.0, 0.98}) {
                for (long publications : new long[] {1, 17, 200}) {
                    for (double eps : targets()) {
                        double sigma = DecayingNoisePrivacy.calibrate(0.8, zeta, publications, eps, delta);
                        DecayingNoisePrivacy privacy = new DecayingNoisePrivacy(new double[] {0.8}, new double[] {sigma}, zeta);
                        RunLedger ledger = new RunLedger(LedgerAccounting.standard(NeighbouringRelation.REPLACE_ONE),
                                PrivacyBudget.unlimited(delta), true);
                        for (long m = 1; m <= publications; m++) {
                            ledger.spend(m - 1, privacy.publication(0, m), "publication");
                        }
                        within(ledger.epsilon(), eps, "DP-RECAL, zeta " + zeta + ", " + publications + " publications, delta " + delta);
                    }
                }
            }
        }
    }

    @Test
    void personalizedLearningsSplitOfEpsilonBar() {
        for (BudgetAllocation allocation : BudgetAllocation.values()) {
            for (int releases : new int[] {1, 3, 73, 232, 300}) {
                long[] ticks = new long[releases];
                for (int k = 0; k < releases; k++) {
                    ticks[k] = 3L * k + 1;
                }
                for (double eps : targets()) {
                    double sum = Arrays.stream(allocation.budgets(eps, ticks, releases, 0.9)).sum();
                    within(sum, eps, "personalized " + allocation + ", " + releases + " releases");
                    assertTrue(sum >= eps * (1 - 1e-9), "the split spends its budget: " + sum + " of " + eps);
                }
                within(Arrays.stream(allocation.budgets(150, ticks, releases, 0.9)).sum(), 150, "personalized " + allocation);
            }
        }
    }

    /** Under every accountant GOPA's kappa budget spends the target as that accountant prices the releases, to rounding. */
    @Test
    void gopasKappaBudget() {
        for (String pricing : AccountantFactory.NAMES) {
            AccountantFactory accountants = AccountantFactory.named(pricing);
            LedgerAccounting accounting = new LedgerAccounting(accountants, NeighbouringRelation.REPLACE_ONE);
            for (double delta : DELTAS) {
                for (long rounds : new long[] {1, 100, 2000}) {
                    for (double contribution : new double[] {1, 0.05}) {
                        for (double eps : targets()) {
                            double kappa = GopaAccountant.kappaBudget(eps, delta, rounds, 2 * contribution, accountants);
                            spends(accounting.plannedEpsilon(new CorrelatedGaussianEvent(kappa, contribution), rounds, delta), eps,
                                    "GOPA, " + pricing + ", " + rounds + " rounds, S " + contribution + ", delta " + delta);
                        }
                    }
                }
            }
        }
    }

    /**
     * With Renyi DP GOPA's kappa budget is zCDP's closed form {@code 2 rho / (releases Delta^2)}, moved by rounding only,
     * bit for bit as before the budget followed the ledger's accountant: runs priced so keep their noise.
     */
    @Test
    void gopasKappaBudgetUnderRenyiDpKeepsZcdpsClosedForm() {
        LedgerAccounting accounting = new LedgerAccounting(AccountantFactory.renyi(), NeighbouringRelation.REPLACE_ONE);
        for (double delta : DELTAS) {
            for (long rounds : new long[] {1, 100, 2000}) {
                for (double sensitivity : new double[] {2, 0.1, 1}) {
                    for (double eps : targets()) {
                        double zcdp = 2 * ZCdp.rho(eps, delta) / (rounds * sensitivity * sensitivity);
                        double divisor = accounting.safeSide(1.0, d -> new CorrelatedGaussianEvent(zcdp / d, sensitivity / 2), rounds,
                                delta, eps).noise();
                        double budget = GopaAccountant.kappaBudget(eps, delta, rounds, sensitivity, AccountantFactory.renyi());
                        assertEquals(divisor == 1.0 ? zcdp : zcdp / divisor, budget, 0.0,
                                rounds + " rounds, Delta " + sensitivity + ", epsilon " + eps + ", delta " + delta);
                        // independent of safeSide: the closed form itself, moved down (the safe side) by rounding only
                        assertTrue(budget <= zcdp && budget >= zcdp * (1 - 1e-9), budget + " vs the closed form " + zcdp);
                    }
                }
            }
        }
    }

    /** At most the target, and no further below it than rounding: the calibration inverts the accountant that prices it. */
    private static void spends(double spent, double target, String what) {
        within(spent, target, what);
        assertTrue(spent >= target * (1 - 1e-9), what + ": spends only " + spent + " of target " + target);
    }
}
