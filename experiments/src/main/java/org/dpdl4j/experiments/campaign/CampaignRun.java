package org.dpdl4j.experiments.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.observe.ProtocolScenario;
import org.dpdl4j.attacks.observe.RunWorkload;
import org.dpdl4j.attacks.observe.ScenarioRun;

/**
 * One campaign while it runs: the protocol runs and records so far, and the index of the next blind guess (they draw
 * their noise by index, so a row read back from the journal advances it by the guesses it made). Each protocol run at
 * one epsilon is trained (or read back when the journal holds all its rows), then every attack is run on the cases of
 * every observer, row by row.
 */
final class CampaignRun {
    /** The cases of one protocol run by observer, in the order the run produced them. */
    private record Tapped(String algorithm, Map<String, List<AttackCase>> byObserver) {
    }

    private final RunWorkload workload;
    private final AttackCampaign.Plan plan;
    private final Consumer<String> log;
    private final CampaignJournal journal;
    private final long begin = System.nanoTime();
    private final double before;
    private final Map<Integer, Integer> position = new LinkedHashMap<>();
    private final List<RunInfo> runs = new ArrayList<>();
    private final List<AttackRecord> records = new ArrayList<>();
    private final List<AttackRecord> noiseOnly = new ArrayList<>();
    private long baselineIndex;

    CampaignRun(RunWorkload workload, AttackCampaign.Plan plan, Consumer<String> log, CampaignJournal journal) {
        this.workload = workload;
        this.plan = plan;
        this.log = log;
        this.journal = journal;
        this.before = journal.elapsedBefore();
        int[] targets = workload.targets();
        for (int i = 0; i < targets.length; i++) {
            position.put(targets[i], i);
        }
    }

    CampaignResult run() {
        for (ProtocolScenario protocol : plan.protocols()) {
            List<Double> levels = protocol.isPrivate() ? plan.epsilons() : List.of(Double.POSITIVE_INFINITY);
            for (double epsilon : levels) {
                Tapped tapped = tap(protocol, epsilon);
                for (var entry : tapped.byObserver().entrySet()) {
                    for (CampaignAttack attack : plan.attacks()) {
                        attackRow(protocol, new RowKey(tapped.algorithm(), entry.getKey(), epsilon, attack.label()), attack,
                                entry.getValue());
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
        return new CampaignResult(runs, records, noiseOnly, threshold, originals, mean, elapsed());
    }

    /**
     * The cases of a protocol at one epsilon: trained and tapped, or, when the journal holds every row of the run,
     * only its observers (the rows are read back one by one).
     */
    private Tapped tap(ProtocolScenario protocol, double epsilon) {
        Optional<CampaignJournal.FinishedRun> finished = journal.run(protocol.algorithm(), epsilon);
        Map<String, List<AttackCase>> byObserver = new LinkedHashMap<>();
        if (journal.holdsEveryRow(protocol.algorithm(), epsilon, plan.attacks().stream().map(CampaignAttack::label).toList())) {
            String algorithm = finished.get().info().algorithm();
            runs.add(finished.get().info());
            log.accept(String.format(Locale.ROOT, "%s at epsilon %s: every row is in the journal", algorithm,
                    RowKey.formatEpsilon(epsilon)));
            for (String observer : finished.get().observers()) {
                byObserver.put(observer, List.of());
            }
            return new Tapped(algorithm, byObserver);
        }
        long start = System.nanoTime();
        ScenarioRun run = protocol.run(workload, epsilon);
        double trained = (System.nanoTime() - start) / 1e9;
        String algorithm = run.algorithm();
        for (AttackCase c : run.cases()) {
            byObserver.computeIfAbsent(c.provenance().observer(), k -> new ArrayList<>()).add(c);
        }
        List<String> observers = List.copyOf(byObserver.keySet());
        if (finished.isPresent()) {
            if (!finished.get().observers().equals(observers)) {
                throw new IllegalStateException(algorithm + " at epsilon " + RowKey.formatEpsilon(epsilon)
                        + " produced cases for " + observers + " but the journal recorded " + finished.get().observers()
                        + "; the journal belongs to another version of the protocol: start a new report without --resume");
            }
            runs.add(finished.get().info());
        } else {
            RunInfo info = new RunInfo(algorithm, epsilon, run.calibration(), run.cases().size(), trained);
            journal.recordRun(protocol.algorithm(), info, observers);
            runs.add(info);
        }
        log.accept(String.format(Locale.ROOT, "%s at epsilon %s: %d cases in %.1f s (%s)", algorithm,
                RowKey.formatEpsilon(epsilon), run.cases().size(), trained, run.calibration().getOrDefault("noise", "")));
        return new Tapped(algorithm, byObserver);
    }

    /** One attack on one observer's cases, with the row's blind guesses; read back when the journal holds the row. */
    private void attackRow(ProtocolScenario protocol, RowKey key, CampaignAttack attack, List<AttackCase> cases) {
        Optional<CampaignJournal.FinishedRow> done = journal.row(key);
        if (done.isPresent()) {
            records.addAll(done.get().records());
            noiseOnly.addAll(done.get().noiseOnly());
            baselineIndex += done.get().noiseOnly().size();   // the guesses this row made drew these indices
            log.accept(describe(key, done.get().records()) + " (journal)");
            return;
        }
        List<AttackRecord> row = new ArrayList<>();
        for (AttackCase c : cases) {
            if (attack.covers(position.get(targetOf(c)))) {
                row.add(attack.run(key, c));
            }
        }
        List<AttackRecord> guesses = new ArrayList<>();
        if (protocol.isPrivate() && !row.isEmpty()) {
            for (int k = 0; k < plan.baselinesPerRow(); k++) {
                AttackCase c = cases.get(k % cases.size());
                guesses.add(attack.run(key, Baselines.noiseOnly(c, workload.settings().seed(), baselineIndex++)));
            }
        }
        records.addAll(row);
        noiseOnly.addAll(guesses);
        journal.recordRow(key, row, guesses, elapsed());
        log.accept(describe(key, row));
    }

    /** Seconds spent on the campaign, with what earlier (resumed) runs spent. */
    private double elapsed() {
        return before + (System.nanoTime() - begin) / 1e9;
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
