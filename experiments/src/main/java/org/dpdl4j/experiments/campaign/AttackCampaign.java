package org.dpdl4j.experiments.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
     * Runs the plan.
     *
     * @param log receives one line per run and per finished row (progress)
     */
    public static CampaignResult run(RunWorkload workload, Plan plan, Consumer<String> log) {
        Objects.requireNonNull(workload, "workload must not be null");
        Objects.requireNonNull(plan, "plan must not be null");
        long begin = System.nanoTime();
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
                long start = System.nanoTime();
                ScenarioRun run = protocol.run(workload, epsilon);
                double trained = (System.nanoTime() - start) / 1e9;
                runs.add(new RunInfo(run.algorithm(), epsilon, run.calibration(), run.cases().size(), trained));
                log.accept(String.format(Locale.ROOT, "%s at epsilon %s: %d cases in %.1f s (%s)", run.algorithm(),
                        RowKey.formatEpsilon(epsilon), run.cases().size(), trained,
                        run.calibration().getOrDefault("noise", "")));
                Map<String, List<AttackCase>> byObserver = new LinkedHashMap<>();
                for (AttackCase c : run.cases()) {
                    byObserver.computeIfAbsent(c.provenance().observer(), k -> new ArrayList<>()).add(c);
                }
                for (var entry : byObserver.entrySet()) {
                    for (CampaignAttack attack : plan.attacks()) {
                        RowKey key = new RowKey(run.algorithm(), entry.getKey(), epsilon, attack.label());
                        List<AttackRecord> row = new ArrayList<>();
                        for (AttackCase c : entry.getValue()) {
                            if (attack.covers(position.get(targetOf(c)))) {
                                row.add(attack.run(key, c));
                            }
                        }
                        records.addAll(row);
                        if (protocol.isPrivate() && !row.isEmpty()) {
                            List<AttackCase> cases = entry.getValue();
                            for (int k = 0; k < plan.baselinesPerRow(); k++) {
                                AttackCase c = cases.get(k % cases.size());
                                noiseOnly.add(attack.run(key, Baselines.noiseOnly(c, workload.settings().seed(),
                                        baselineIndex++)));
                            }
                        }
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
                (System.nanoTime() - begin) / 1e9);
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
