package org.dpdl4j.experiments.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.attacks.observe.ScenarioRun;

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
        long begin = System.nanoTime();
        double before = journal.elapsedBefore();
        List<RunInfo> runs = new ArrayList<>();
        List<AttackRecord> records = new ArrayList<>();
        List<AttackRecord> noiseOnly = new ArrayList<>();
        long baselineIndex = 0;
        Map<Integer, Integer> position = new LinkedHashMap<>();
        int[] targets = workload.targets();
        for (int i = 0; i < targets.length; i++) {
            position.put(targets[i], i);
        }
        for (ProtocolScenario protocol : plan.protocols()) {
            List<Double> levels = protocol.isPrivate() ? plan.epsilons() : List.of(Double.POSITIVE_INFINITY);
            for (double epsilon : levels) {
                Optional<CampaignJournal.FinishedRun> finished = journal.run(protocol.algorithm(), epsilon);
                boolean allJournaled = journal.holdsEveryRow(protocol.algorithm(), epsilon,
                        plan.attacks().stream().map(CampaignAttack::label).toList());
                Map<String, List<AttackCase>> byObserver = new LinkedHashMap<>();
                String algorithm;
                if (allJournaled) {
                    algorithm = finished.get().info().algorithm();
                    runs.add(finished.get().info());
                    log.accept(String.format(Locale.ROOT, "%s at epsilon %s: every row is in the journal",
                            algorithm, RowKey.formatEpsilon(epsilon)));
                    for (String observer : finished.get().observers()) {
                        byObserver.put(observer, List.of());
                    }
                } else {
                    long start = System.nanoTime();
                    ScenarioRun run = protocol.run(workload, epsilon);
                    double trained = (System.nanoTime() - start) / 1e9;
                    algorithm = run.algorithm();
                    for (AttackCase c : run.cases()) {
                        byObserver.computeIfAbsent(c.provenance().observer(), k -> new ArrayList<>()).add(c);
                    }
                    List<String> observers = List.copyOf(byObserver.keySet());
                    if (finished.isPresent()) {
                        if (!finished.get().observers().equals(observers)) {
                            throw new IllegalStateException(algorithm + " at epsilon " + RowKey.formatEpsilon(epsilon)
                                    + " produced cases for " + observers + " but the journal recorded "
                                    + finished.get().observers() + "; the journal belongs to another version of the"
                                    + " protocol: start a new report without --resume");
                        }
                        runs.add(finished.get().info());
                    } else {
                        RunInfo info = new RunInfo(algorithm, epsilon, run.calibration(), run.cases().size(), trained);
                        journal.recordRun(protocol.algorithm(), info, observers);
                        runs.add(info);
                    }
                    log.accept(String.format(Locale.ROOT, "%s at epsilon %s: %d cases in %.1f s (%s)", algorithm,
                            RowKey.formatEpsilon(epsilon), run.cases().size(), trained,
                            run.calibration().getOrDefault("noise", "")));
                }
                for (var entry : byObserver.entrySet()) {
                    for (CampaignAttack attack : plan.attacks()) {
                        RowKey key = new RowKey(algorithm, entry.getKey(), epsilon, attack.label());
                        Optional<CampaignJournal.FinishedRow> done = journal.row(key);
                        if (done.isPresent()) {
                            records.addAll(done.get().records());
                            noiseOnly.addAll(done.get().noiseOnly());
                            // The blind guesses draw their noise by index: skip the ones this row made.
                            baselineIndex += done.get().noiseOnly().size();
                            log.accept(describe(key, done.get().records()) + " (journal)");
                            continue;
                        }
                        List<AttackRecord> row = new ArrayList<>();
                        for (AttackCase c : entry.getValue()) {
                            if (attack.covers(position.get(targetOf(c)))) {
                                row.add(attack.run(key, c));
                            }
                        }
                        List<AttackRecord> guesses = new ArrayList<>();
                        if (protocol.isPrivate() && !row.isEmpty()) {
                            List<AttackCase> cases = entry.getValue();
                            for (int k = 0; k < plan.baselinesPerRow(); k++) {
                                AttackCase c = cases.get(k % cases.size());
                                guesses.add(attack.run(key, Baselines.noiseOnly(c, workload.settings().seed(),
                                        baselineIndex++)));
                            }
                        }
                        records.addAll(row);
                        noiseOnly.addAll(guesses);
                        journal.recordRow(key, row, guesses, before + (System.nanoTime() - begin) / 1e9);
                        log.accept(describe(key, row));
                    }
                }
            }
        }
        Map<Integer, double[]> originals = new LinkedHashMap<>();
        for (int t : workload.targets()) {
            originals.put(t, workload.truth(t).pixels(0));
        }
        double[] mean = Baselines.meanImage(workload.train());
        FailureThreshold threshold = CampaignThresholds.derive(noiseOnly, mean, originals, workload.shape());
        return new CampaignResult(runs, records, noiseOnly, threshold, originals, mean,
                before + (System.nanoTime() - begin) / 1e9);
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

    private static int targetOf(AttackCase c) {
        String index = c.provenance().details().get("target_index");
        if (index == null) {
            throw new IllegalStateException("a campaign case must record its target_index; " + c.provenance().protocol()
                    + " / " + c.provenance().observer() + " did not");
        }
        return Integer.parseInt(index);
    }

    private static String describe(RowKey key, List<AttackRecord> row) {
        double[] psnr = row.stream().mapToDouble(AttackRecord::psnr).toArray();
        long recovered = row.stream().filter(AttackRecord::recovered).count();
        double seconds = row.stream().mapToDouble(AttackRecord::seconds).sum();
        return String.format(Locale.ROOT, "  %-18s %-14s eps %-4s %-12s median PSNR %6.2f dB, %d/%d recovered, %.1f s",
                key.algorithm(), key.observer(), key.epsilonLabel(), key.attack(), Percentiles.median(psnr), recovered,
                row.size(), seconds);
    }
}
