package org.dpdl4j.experiments.campaign;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Everything a campaign measured: the runs, one record per (case, attack), the information-free baselines, the
 * failure thresholds derived from them, and the aggregates the report prints.
 *
 * @param runs            the tapped runs, in the order they ran
 * @param records         one record per attacked image, observer and attack, in row order
 * @param noiseOnly       the attacks on pure-noise observations of the private releases
 * @param threshold       the failure bar of every target, derived from the blind guesses
 * @param originals       the target images as pixels, by training-set index
 * @param meanImage       the mean training image
 * @param seconds         wall-clock time of the whole campaign
 */
public record CampaignResult(List<RunInfo> runs, List<AttackRecord> records, List<AttackRecord> noiseOnly,
                             FailureThreshold threshold,
                             Map<Integer, double[]> originals, double[] meanImage, double seconds) {

    public CampaignResult {
        runs = List.copyOf(runs);
        records = List.copyOf(records);
        noiseOnly = List.copyOf(noiseOnly);
        Objects.requireNonNull(threshold, "threshold must not be null");
        originals = Map.copyOf(originals);
    }

    /** The row keys in the order their records were made. */
    public List<RowKey> rows() {
        return records.stream().map(AttackRecord::key).distinct().toList();
    }

    /** The records of one row. */
    public List<AttackRecord> recordsOf(RowKey key) {
        return records.stream().filter(r -> r.key().equals(key)).toList();
    }

    /** Whether the reconstruction failed by the derived threshold. */
    public boolean failed(AttackRecord r) {
        return threshold.failed(r);
    }

    /** The aggregate of every row. */
    public List<RowSummary> summaries() {
        List<RowSummary> out = new ArrayList<>();
        for (RowKey key : rows()) {
            List<AttackRecord> rs = recordsOf(key);
            int n = rs.size();
            out.add(new RowSummary(key, n, Percentiles.median(values(rs, AttackRecord::psnr)),
                    Percentiles.median(values(rs, AttackRecord::ssim)), fraction(rs, AttackRecord::recovered),
                    fraction(rs, this::failed), fraction(rs, CampaignThresholds::failedBySpec),
                    fraction(rs, AttackRecord::labelCorrect),
                    Percentiles.median(values(rs, AttackRecord::modelAccuracy)),
                    Percentiles.median(values(rs, AttackRecord::noiseRatio)), rounds(rs)));
        }
        return out;
    }

    /** Per protocol, observer and epsilon, over all attacks: the fraction of images every attack failed on. */
    public List<Verdict> verdicts() {
        Map<List<Object>, List<AttackRecord>> groups = records.stream().collect(Collectors.groupingBy(
                r -> List.<Object>of(r.key().algorithm(), r.key().observer(), r.key().epsilon()), LinkedHashMap::new,
                Collectors.toList()));
        List<Verdict> out = new ArrayList<>();
        for (var e : groups.entrySet()) {
            Map<Integer, List<AttackRecord>> byImage = e.getValue().stream().collect(Collectors.groupingBy(
                    AttackRecord::target, LinkedHashMap::new, Collectors.toList()));
            int images = byImage.size();
            long failed = byImage.values().stream().filter(rs -> rs.stream().allMatch(this::failed)).count();
            long recovered = byImage.values().stream().filter(rs -> rs.stream().anyMatch(AttackRecord::recovered))
                    .count();
            out.add(new Verdict((String) e.getKey().get(0), (String) e.getKey().get(1), (Double) e.getKey().get(2),
                    images, (double) failed / images, (double) recovered / images));
        }
        return out;
    }

    private static double[] values(List<AttackRecord> rs, java.util.function.ToDoubleFunction<AttackRecord> f) {
        return rs.stream().mapToDouble(f).toArray();
    }

    private static double fraction(List<AttackRecord> rs, Predicate<AttackRecord> p) {
        return rs.isEmpty() ? Double.NaN : (double) rs.stream().filter(p).count() / rs.size();
    }

    private static String rounds(List<AttackRecord> rs) {
        long min = rs.stream().mapToLong(AttackRecord::round).min().orElse(-1);
        long max = rs.stream().mapToLong(AttackRecord::round).max().orElse(-1);
        return min == max ? Long.toString(min) : min + "-" + max;
    }
}
