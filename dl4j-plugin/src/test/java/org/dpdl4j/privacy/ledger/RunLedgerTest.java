package org.dpdl4j.privacy.ledger;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.LaplaceEvent;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.PoissonSampledEvent;
import org.dpdl4j.privacy.accounting.UnsupportedEventException;
import org.dpdl4j.privacy.accounting.ZCdpEvent;
import org.junit.jupiter.api.Test;

/**
 * A run's ledger keeps a running tally so that a step's budget check costs a few additions; the tally must price
 * the ledger to the same bits as {@link LedgerAccounting} does from scratch, whatever the spending pattern, and
 * the budget must refuse a step before anything of it is recorded.
 */
class RunLedgerTest {
    private static final double DELTA = 1e-5;

    private static RunLedger unlimited(NeighbouringRelation relation) {
        return new RunLedger(LedgerAccounting.standard(relation), PrivacyBudget.unlimited(DELTA), true);
    }

    /** Everything the run reports equals the from-scratch price of its ledger, bit for bit. */
    private static void assertTallyIsExact(RunLedger run) {
        PrivacyLedger ledger = run.ledger();
        LedgerAccounting accounting = run.accounting();
        assertEquals(accounting.bound(ledger, DELTA, Conversion.STANDARD), run.spent());
        assertEquals(accounting.bound(ledger, DELTA, Conversion.IMPROVED), run.spent(Conversion.IMPROVED));
        assertEquals(accounting.worstParty(ledger, DELTA, Conversion.STANDARD), run.worstParty());
        assertEquals(accounting.bound(ledger, DELTA, Conversion.STANDARD).epsilon(), run.epsilon(), 0.0);
        List<Integer> parties = new ArrayList<>(ledger.parties());
        parties.add(LedgerEntry.ALL_PARTIES);
        parties.add(1_000);   // a party never charged pays what touched everyone
        for (int p : parties) {
            assertEquals(accounting.boundOfParty(ledger, p, DELTA, Conversion.STANDARD), run.spentBy(p), "party " + p);
        }
    }

    @Test
    void oneRepeatedEventIsTalliedExactly() {
        for (Object[] c : List.<Object[]>of(new Object[]{ADD_OR_REMOVE_ONE, new PoissonSampledEvent(0.01, new GaussianEvent(1.1))},
                new Object[]{REPLACE_ONE, new GaussianEvent(40)})) {
            RunLedger run = unlimited((NeighbouringRelation) c[0]);
            for (int step = 0; step < 1500; step++) {
                run.spend(step, (DpEvent) c[1], "step");
                if (step % 50 == 0 || step < 5) {
                    assertTallyIsExact(run);
                }
            }
            assertTallyIsExact(run);
            assertEquals(1, run.ledger().entries().size(), "identical applications aggregate");
            assertEquals(1500, run.ledger().entries().get(0).count());
        }
    }

    @Test
    void alternatingPartiesAreTalliedExactly() {
        // A random walk: each step charges the party holding the token, one visit each.
        RunLedger run = unlimited(REPLACE_ONE);
        SplittableRandom path = new SplittableRandom(5);
        for (int step = 0; step < 600; step++) {
            run.spend(step, List.of(new Charge(path.nextInt(7), new GaussianEvent(12), "visit")));
            assertTallyIsExact(run);
        }
        assertEquals(7, run.ledger().parties().size());
        // Round-robin with two events per party: an application recurs after another one of the same party.
        RunLedger twoEvents = unlimited(REPLACE_ONE);
        for (int step = 0; step < 200; step++) {
            int party = step % 3;
            DpEvent event = new GaussianEvent((step / 3) % 2 == 0 ? 9 : 14);
            twoEvents.spend(step, List.of(new Charge(party, event, "visit")));
            assertTallyIsExact(twoEvents);
        }
    }

    @Test
    void aNewEventEveryStepIsTalliedExactly() {
        // Decaying noise: hundreds of distinct events, more than the accounting caches.
        RunLedger linear = unlimited(REPLACE_ONE);
        for (int step = 0; step < 400; step++) {
            linear.spend(step, new GaussianEvent(1 + step / 40.0), "decaying");
            if (step % 10 == 0) {
                assertTallyIsExact(linear);
            }
        }
        assertTallyIsExact(linear);
        assertEquals(400, linear.ledger().entries().size());
        // The same with sampled steps (RDP curves; each takes milliseconds to compute, so fewer of them).
        RunLedger sampled = unlimited(ADD_OR_REMOVE_ONE);
        for (int step = 0; step < 60; step++) {
            sampled.spend(step, new PoissonSampledEvent(0.05, new GaussianEvent(0.9 + step / 50.0)), "decaying");
            if (step % 5 == 0) {
                assertTallyIsExact(sampled);
            }
        }
        assertTallyIsExact(sampled);
    }

    @Test
    void entriesOfEveryPartyAddedAfterPartyEntriesAreTalliedExactly() {
        RunLedger run = unlimited(REPLACE_ONE);
        SplittableRandom random = new SplittableRandom(11);
        long step = 0;
        for (; step < 40; step++) {
            run.spend(step, List.of(new Charge(random.nextInt(4), new GaussianEvent(20), "local release")));
        }
        assertTallyIsExact(run);
        for (; step < 60; step++) {
            run.spend(step, new GaussianEvent(step % 2 == 0 ? 30 : 25), "broadcast");
            assertTallyIsExact(run);
        }
        for (; step < 120; step++) {
            // One step touching one party and everyone, in both orders.
            Charge own = new Charge(random.nextInt(6), new ZCdpEvent(1e-3 * (1 + step % 3)), "local release");
            Charge all = Charge.ofAll(new GaussianEvent(30), "broadcast");
            run.spend(step, step % 2 == 0 ? List.of(own, all) : List.of(all, own));
            assertTallyIsExact(run);
        }
        assertEquals(6, run.ledger().parties().size());
    }

    @Test
    void aResumedLedgerContinuesTheTallyAndOpensASegmentOnlyWhenTheSettingsChanged() {
        RunLedger first = unlimited(REPLACE_ONE);
        for (int step = 0; step < 30; step++) {
            first.spend(step, List.of(new Charge(step % 3, new GaussianEvent(8), "visit"), Charge.ofAll(new GaussianEvent(50), "all")));
        }
        for (boolean changed : new boolean[]{false, true}) {
            RunLedger resumed = unlimited(REPLACE_ONE);
            resumed.continueFrom(first.ledger(), changed);
            assertEquals(first.ledger(), resumed.ledger());
            assertEquals(first.spent(), resumed.spent());
            assertEquals(changed ? 1 : 0, resumed.segment());
            for (int step = 30; step < 60; step++) {
                resumed.spend(step, List.of(new Charge(step % 4, new GaussianEvent(8), "visit")));
                assertTallyIsExact(resumed);
            }
            assertEquals(changed ? 1 : 0, resumed.ledger().lastSegment());
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> resumed.continueFrom(first.ledger(), false));
            assertTrue(twice.getMessage().contains("before the first step"), twice.getMessage());
        }
    }

    @Test
    void aStatementOfSeveralSegmentsSaysFirstThatItsDescriptionIsTheLastSegments() {
        RunLedger first = unlimited(REPLACE_ONE);
        first.spend(0, new GaussianEvent(8), "round, sigma 8");
        assertEquals("", LedgerStatement.resumedPreamble(first), "one segment: the protocol's description covers every step");
        RunLedger resumed = unlimited(REPLACE_ONE);
        resumed.continueFrom(first.ledger(), true);
        resumed.spend(1, new GaussianEvent(4), "round, sigma 4");
        String preamble = LedgerStatement.resumedPreamble(resumed);
        assertTrue(preamble.contains("composed of 2 settings segments") && preamble.contains("last segment's settings (segment 2),"
                + " not of every step"), preamble);
        String ledger = LedgerStatement.text(resumed);
        assertTrue(ledger.contains("segment 1 (as started):\n    1 x round, sigma 8")
                && ledger.contains("segment 2 (resumed under changed settings):\n    1 x round, sigma 4"), ledger);
    }

    /** The epsilon of {@code count} releases of the event to everyone (independently of any run). */
    private static double epsilonOf(DpEvent event, long count) {
        return LedgerAccounting.standard(REPLACE_ONE).plannedEpsilon(event, count, DELTA);
    }

    @Test
    void aChargeOfEveryPartyUnderABudgetIsPricedForEveryParty() {
        // The budget check of a step that charges everyone prices the worst party; it must not take the worst party
        // known before the step (party 0, without this step's charge) for the worst after it.
        for (AccountantFactory accountants : List.of(AccountantFactory.renyi(), AccountantFactory.standard())) {
            RunLedger run = new RunLedger(new LedgerAccounting(accountants, REPLACE_ONE), new PrivacyBudget(1e9, DELTA), true);
            for (int i = 0; i < 10; i++) {
                run.spend(i, List.of(new Charge(0, new GaussianEvent(5), "local release")));
            }
            run.epsilon();   // the worst party is known: party 0
            run.spend(10, List.of(new Charge(1, new GaussianEvent(100), "local release")));
            run.spend(11, new GaussianEvent(5), "broadcast");
            assertTallyIsExact(run);
        }
    }

    @Test
    void theBudgetRefusesTheStepThatWouldExceedItAndRecordsNothing() {
        GaussianEvent step = new GaussianEvent(10);
        double budget = (epsilonOf(step, 12) + epsilonOf(step, 13)) / 2;
        RunLedger run = new RunLedger(LedgerAccounting.standard(REPLACE_ONE), new PrivacyBudget(budget, DELTA), true);
        for (int i = 0; i < 12; i++) {
            run.spend(i, step, "round");
        }
        PrivacyLedger before = run.ledger();
        EpsilonSnapshot spent = new EpsilonSnapshot(run);
        PrivacyBudgetExceededException stop = assertThrows(PrivacyBudgetExceededException.class, () -> run.spend(12, step, "round"));
        assertEquals(before, run.ledger());
        spent.assertUnchanged(run);
        assertEquals(12, stop.stepsDone());
        assertEquals(epsilonOf(step, 12), stop.epsilonSpent(), 0.0);
        assertEquals(epsilonOf(step, 13), stop.epsilonNext(), 0.0);
        assertEquals(run.after(Charge.ofAll(step, "round"), 1).epsilon(), stop.epsilonNext(), 0.0, "planning agrees");
        assertTallyIsExact(run);
        // Refused again and again: still nothing recorded; a cheaper release still fits.
        assertThrows(PrivacyBudgetExceededException.class, () -> run.spend(12, step, "round"));
        assertEquals(before, run.ledger());
        run.spend(12, new GaussianEvent(1e6), "almost free");
        assertEquals(before.entries().size() + 1, run.ledger().entries().size());
        assertTallyIsExact(run);
    }

    @Test
    void aRefusedStepOfSeveralChargesRecordsNoneOfThem() {
        GaussianEvent visit = new GaussianEvent(5);
        double budget = (LedgerAccounting.standard(REPLACE_ONE).plannedEpsilon(visit, 3, DELTA)
                + LedgerAccounting.standard(REPLACE_ONE).plannedEpsilon(visit, 4, DELTA)) / 2;
        RunLedger run = new RunLedger(LedgerAccounting.standard(REPLACE_ONE), new PrivacyBudget(budget, DELTA), true);
        for (int i = 0; i < 3; i++) {
            run.spend(i, List.of(new Charge(1, visit, "visit")));
        }
        run.spend(3, List.of(new Charge(0, visit, "visit")));
        PrivacyLedger before = run.ledger();
        EpsilonSnapshot spent = new EpsilonSnapshot(run);
        // Party 0 could take another visit, party 1 cannot: the step is refused as a whole.
        assertThrows(PrivacyBudgetExceededException.class,
                () -> run.spend(4, List.of(new Charge(0, visit, "visit"), new Charge(1, visit, "visit"))));
        assertEquals(before, run.ledger());
        spent.assertUnchanged(run);
        assertEquals(1, run.worstParty().party());
        // A step that touches only party 0 is still within the budget: parallel composition.
        run.spend(4, List.of(new Charge(0, visit, "visit")));
        assertTallyIsExact(run);
        // A release to everyone as costly as a visit would take party 1 over the budget.
        assertThrows(PrivacyBudgetExceededException.class, () -> run.spend(5, visit, "broadcast"));
        assertTallyIsExact(run);
    }

    @Test
    void theBudgetAllowsOnlyRoundingAboveIt() {
        GaussianEvent step = new GaussianEvent(3);
        double exact = epsilonOf(step, 20);
        // An excess within the rounding tolerance is allowed; twice the tolerance is not.
        for (double excess : new double[]{0, PrivacyBudget.ROUNDING / 2, 2 * PrivacyBudget.ROUNDING}) {
            PrivacyBudget budget = new PrivacyBudget(exact / (1 + excess), DELTA);
            boolean allowed = excess <= PrivacyBudget.ROUNDING;
            assertEquals(allowed, budget.allows(exact), "excess " + excess);
            RunLedger run = new RunLedger(LedgerAccounting.standard(REPLACE_ONE), budget, true);
            for (int i = 0; i < 19; i++) {
                run.spend(i, step, "round");
            }
            if (allowed) {
                run.spend(19, step, "round");
                assertEquals(exact, run.epsilon(), 0.0, "the reported epsilon is the exact one, not the budget");
            } else {
                assertThrows(PrivacyBudgetExceededException.class, () -> run.spend(19, step, "round"));
                assertEquals(19, run.ledger().entries().get(0).count());
            }
        }
        assertTrue(PrivacyBudget.unlimited(DELTA).allows(Double.MAX_VALUE));
        assertFalse(PrivacyBudget.unlimited(DELTA).isLimited());
        assertFalse(new PrivacyBudget(1, DELTA).allows(Double.NaN), "an epsilon that is not a number never passes");
    }

    @Test
    void anEventTheAccountantCannotAnalyseIsRefusedBeforeAnythingIsSpent() {
        RunLedger zcdpOnly = new RunLedger(new LedgerAccounting(AccountantFactory.zcdp(), ADD_OR_REMOVE_ONE),
                PrivacyBudget.unlimited(DELTA), true);
        zcdpOnly.spend(0, new LaplaceEvent(3), "release");
        PrivacyLedger before = zcdpOnly.ledger();
        PoissonSampledEvent sampled = new PoissonSampledEvent(0.1, new GaussianEvent(1));
        assertThrows(UnsupportedEventException.class, () -> zcdpOnly.spend(1, sampled, "sampled step"));
        assertEquals(before, zcdpOnly.ledger());
        // A caller that catches the refusal and tries again is refused again: a refused event never counts as checked.
        assertThrows(UnsupportedEventException.class, () -> zcdpOnly.spend(1, sampled, "sampled step"));
        assertEquals(before, zcdpOnly.ledger());
        assertTallyIsExact(zcdpOnly);
    }

    /** What a ledger reports, to compare after a refused step. */
    private record EpsilonSnapshot(double epsilon, LedgerAccounting.PartyBound worst, double improved) {
        EpsilonSnapshot(RunLedger run) {
            this(run.epsilon(), run.worstParty(), run.spent(Conversion.IMPROVED).epsilon());
        }

        void assertUnchanged(RunLedger run) {
            assertEquals(this, new EpsilonSnapshot(run));
        }
    }
}
