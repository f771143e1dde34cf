package org.dpdl4j.experiments.campaign;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.RunWorkload;

/**
 * Runs protocols x observers x epsilons: every protocol scenario trains and taps its releases, every attack
 * attacks every case, pure-noise imitations of the private releases and the mean training image give the
 * information-free baselines, and the failure threshold of each attack is derived from them.
 */
public final class AttackCampaign {

    /**
     * What to run.
     *
     * @param protocols       the protocol scenarios; private ones run at every epsilon, the others once without noise
     * @param epsilons        the epsilons of the private protocols
     * @param attacks         the attacks run on every case
     * @param baselinesPerRow pure-noise imitations per private (protocol, observer, epsilon) row, of its cases in
     *                        turn (more imitations than cases reuse them with fresh noise)
     */
    public record Plan(List<ProtocolScenario> protocols, List<Double> epsilons, List<CampaignAttack> attacks,
                       int baselinesPerRow) {
        public Plan {
            protocols = List.copyOf(protocols);
            epsilons = List.copyOf(epsilons);
            attacks = List.copyOf(attacks);
            if (protocols.isEmpty() || attacks.isEmpty()) {
                throw new IllegalArgumentException("a campaign needs at least one protocol and one attack");
            }
            for (double e : epsilons) {
                if (!(e > 0) || Double.isInfinite(e)) {
                    throw new IllegalArgumentException("epsilons of private protocols must be positive and finite, got "
                            + e);
                }
            }
            if (baselinesPerRow < 0) {
                throw new IllegalArgumentException("baselines per row must be >= 0, got " + baselinesPerRow);
            }
        }
    }

    private AttackCampaign() {
    }

    /**
     * Runs the plan, keeping nothing on disk.
     *
     * @param log receives one line per run and per finished row (progress)
     */
    public static CampaignResult run(RunWorkload workload, Plan plan, Consumer<String> log) {
        return run(workload, plan, log, CampaignJournal.none());
    }

    /**
     * Runs the plan, journaling every tapped run and row as it finishes and skipping what the journal already holds:
     * a resumed campaign gives the records of an uninterrupted one (the protocols, attacks and blind guesses are
     * seeded), and a protocol run whose rows are all journaled is not trained again.
     *
     * @param log     receives one line per run and per finished row (progress)
     * @param journal where finished work goes, made with {@link #describe(RunWorkload, Plan)} as its plan
     */
    public static CampaignResult run(RunWorkload workload, Plan plan, Consumer<String> log, CampaignJournal journal) {
        Objects.requireNonNull(workload, "workload must not be null");
        Objects.requireNonNull(plan, "plan must not be null");
        Objects.requireNonNull(journal, "journal must not be null");
        return new CampaignRun(workload, plan, log, journal).run();
    }

    /**
     * One line naming everything that determines a campaign's records: the workload's data sizes, targets and
     * settings, the protocols, epsilons, attacks (with their settings and image limits) and blind guesses per row. A
     * journal is continued only by a campaign with the same line.
     */
    public static String describe(RunWorkload workload, Plan plan) {
        StringBuilder s = new StringBuilder();
        s.append("train=").append(workload.train().size()).append(" test=").append(workload.test().size())
                .append(" targets=").append(java.util.Arrays.toString(workload.targets()))
                .append(" settings=").append(workload.settings())
                .append(" protocols=").append(plan.protocols().stream().map(ProtocolScenario::algorithm).toList())
                .append(" epsilons=").append(plan.epsilons())
                .append(" baselines=").append(plan.baselinesPerRow()).append(" attacks=[");
        for (CampaignAttack a : plan.attacks()) {
            s.append(a.label()).append(" images<=").append(a.imageLimit()).append(": ").append(a.description())
                    .append("; ");
        }
        return s.append("]").toString();
    }
}
