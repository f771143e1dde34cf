package org.dpdl4j.tuning;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.accounting.ComposedEvent;
import org.dpdl4j.privacy.accounting.Conversion;
import org.dpdl4j.privacy.accounting.DpEvent;
import org.dpdl4j.privacy.accounting.EnvelopeEvent;
import org.dpdl4j.privacy.accounting.EpsilonBound;
import org.dpdl4j.privacy.accounting.NeighbouringRelation;
import org.dpdl4j.privacy.accounting.RepeatAndSelectEvent;
import org.dpdl4j.privacy.ledger.LedgerAccounting;
import org.dpdl4j.privacy.ledger.PrivacyBudget;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;

/**
 * The privacy cost of a private tuning, known before any candidate trains. One candidate is "train a configuration
 * drawn uniformly from the pool, then release its noisy validation score": its Renyi curve is at most the pool's
 * envelope (every member's planned ledger, worst party) composed with the score's Gaussian mechanism. Releasing the
 * best of K such candidates, K drawn from {@code count}, costs Papernot &amp; Steinke's bound of that curve
 * ({@link RepeatAndSelectEvent}), priced under the candidates' neighbouring relation by the candidates' accountant (Renyi
 * DP is the only analysis of that bound, so every accountant prices it alike; the ledger names the one the run chose).
 *
 * @param event       the tuning's ledger event
 * @param relation    the neighbouring relation of the guarantee
 * @param candidate   one candidate's guarantee alone, at the tuning's delta
 * @param total       the guarantee of the released best candidate, tuning included
 * @param accountants the accountant of the candidates, which prices the tuning's ledger
 */
public record TuningCost(RepeatAndSelectEvent event, NeighbouringRelation relation, EpsilonBound candidate, EpsilonBound total,
                         AccountantFactory accountants) {

    /** {@link #of(List, List, Optional, CandidateCount, double, AccountantFactory)} priced by the default accountant. */
    public static TuningCost of(List<PrivacyLedger> planned, List<NeighbouringRelation> relations, Optional<? extends DpEvent> score,
                                CandidateCount count, double delta) {
        return of(planned, relations, score, count, delta, AccountantFactory.standard());
    }

    /**
     * @param planned   the planned ledger of every pool member (what a run of it spends if it runs to the end)
     * @param relations the neighbouring relation of each member's ledger (all must be the same)
     * @param score     the score's privacy event, if the score is noisy
     * @param count     the distribution of the number of candidates
     * @param delta     the delta of the reported epsilons
     * @param accountants the accountant the candidates are priced by
     */
    public static TuningCost of(List<PrivacyLedger> planned, List<NeighbouringRelation> relations, Optional<? extends DpEvent> score,
                                CandidateCount count, double delta, AccountantFactory accountants) {
        if (planned.isEmpty() || planned.size() != relations.size()) {
            throw new IllegalArgumentException("one planned ledger and one relation per pool member");
        }
        NeighbouringRelation relation = relations.get(0);
        for (int i = 1; i < relations.size(); i++) {
            if (relations.get(i) != relation) {
                throw new IllegalArgumentException("pool members " + 0 + " and " + i + " are analysed under different neighbouring"
                        + " relations (" + relation + ", " + relations.get(i) + "), so one tuning bound cannot cover both; search"
                        + " one sampling scheme at a time");
            }
        }
        List<DpEvent> members = new ArrayList<>();
        for (PrivacyLedger l : planned) {
            members.add(l.worstPartyEvent());
        }
        DpEvent candidate = EnvelopeEvent.of(members);
        if (score.isPresent()) {
            candidate = ComposedEvent.of(candidate, score.get());
        }
        RepeatAndSelectEvent event = count.event(candidate);
        LedgerAccounting accounting = new LedgerAccounting(accountants, relation);
        return new TuningCost(event, relation, accounting.planned(candidate, 1, delta, Conversion.STANDARD),
                accounting.planned(event, 1, delta, Conversion.STANDARD), accountants);
    }

    /**
     * The released model's ledger: one application of the tuning's event.
     *
     * @param budget      the total the tuning may spend ({@code PrivacyBudget.unlimited(delta)} for none)
     * @param secureNoise whether every noise of the tuning was secure (seeded noise guarantees nothing)
     */
    public RunLedger ledger(PrivacyBudget budget, boolean secureNoise) {
        RunLedger l = new RunLedger(new LedgerAccounting(accountants, relation), budget, secureNoise);
        l.spend(0, event, "tuning: the best of K candidates released (Papernot & Steinke 2022)");
        return l;
    }

    /** The total epsilon, tuning included. */
    public double epsilon() {
        return total.epsilon();
    }

    public double delta() {
        return total.delta();
    }
}
