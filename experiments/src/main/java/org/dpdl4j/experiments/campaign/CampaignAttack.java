package org.dpdl4j.experiments.campaign;

import java.util.List;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.inversion.DlgConfig;
import org.dpdl4j.attacks.inversion.RestartingAttack;
import org.dpdl4j.attacks.inversion.InversionAttack;
import org.dpdl4j.attacks.inversion.InvertingGradientsAttack;
import org.dpdl4j.attacks.inversion.InvertingGradientsConfig;
import org.dpdl4j.attacks.matching.MatchingLoss;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An attack as a campaign runs it, under a short label, turning each case into an {@link AttackRecord}.
 *
 * @param label       short name in tables, e.g. {@code idlg}
 * @param attack      the attack
 * @param description how it works and with which settings, one paragraph for reports
 * @param imageLimit  the attack runs on the releases of the first {@code imageLimit} targets only (a slow attack on a
 *                    subset), at least 1
 */
public record CampaignAttack(String label, InversionAttack attack, String description, int imageLimit) {
    private static final Logger LOG = LoggerFactory.getLogger(CampaignAttack.class);

    public CampaignAttack {
        Objects.requireNonNull(label, "label must not be null");
        Objects.requireNonNull(attack, "attack must not be null");
        Objects.requireNonNull(description, "description must not be null");
        if (imageLimit < 1) {
            throw new IllegalArgumentException("an attack must run on at least 1 image, got an image limit of "
                    + imageLimit);
        }
    }

    /** An attack on every target. */
    public CampaignAttack(String label, InversionAttack attack, String description) {
        this(label, attack, description, Integer.MAX_VALUE);
    }

    /** The same attack on the first {@code images} targets only. */
    public CampaignAttack limitedTo(int images) {
        return new CampaignAttack(label, attack, description, images);
    }

    /** Whether the attack runs on the target at position {@code index} of the workload's targets. */
    boolean covers(int index) {
        return index < imageLimit;
    }

    /**
     * The least-squares analytic inversion of the dense first layer: exact without noise, the best linear use of every
     * hidden unit's row with noise.
     */
    public static CampaignAttack analyticLeastSquares() {
        return new CampaignAttack("analytic-ls", AnalyticInversion.leastSquares(), "the first layer's gradient of one"
                + " example is `x db1^T`, so the input is read as the least-squares fit over all hidden units,"
                + " `x = sum_r db1[r] dW1[:, r] / sum_r db1[r]^2` (exact without noise, whatever the scale, also for"
                + " mu^2's difference of two gradients); the label from the output-bias signs (iDLG).");
    }

    /** iDLG with the given L-BFGS settings, rerun while stuck ({@link RestartingAttack#idlg}). */
    public static CampaignAttack idlg(DlgConfig config) {
        return new CampaignAttack("idlg", RestartingAttack.idlg(config), "the label from the output-bias signs, then"
                + " the dummy input alone is optimised to match the observation (L-BFGS with PyTorch's defaults, "
                + config.iterations() + " steps, from N(0, 1)); the scale is fitted when clipping makes it unknown, and"
                + " mu^2's increments are matched with the dummy's gradients at both query points. A run whose matching"
                + " loss stays above what the true image would reach (twice the release's noise floor) is rerun from"
                + " two more random starts and then with Adam (learning rate 0.1, 1000 steps); the lowest loss wins.");
    }

    /** Inverting Gradients with the given settings: labels from the output bias, then cosine matching with a prior. */
    public static CampaignAttack invertingGradients(InvertingGradientsConfig config) {
        return new CampaignAttack("ig", new InvertingGradientsAttack(config), "Inverting Gradients: the label from the"
                + " output-bias signs, then the dummy image is fitted to the direction of the observation ("
                + (config.loss() == MatchingLoss.LAYERWISE_COSINE_DISTANCE ? "the mean of the layers' cosine distances"
                : "the cosine distance of the whole gradient") + ", so no scale is needed) with a total-variation prior"
                + " (weight " + config.totalVariation()
                + "), by Adam on the signed gradient (learning rate " + config.learningRate() + ", divided by 10 at 3/8,"
                + " 5/8 and 7/8 of " + config.iterations() + " steps), projected onto valid pixels after every step,"
                + " from " + config.restarts() + " random starts; the lowest matching loss wins.");
    }

    /**
     * The attacks that work on the campaign's model: the least-squares analytic inversion of the dense first layer
     * (exact without noise) and iDLG with the given optimisation settings, rerun while stuck
     * ({@link RestartingAttack#idlg}).
     */
    public static List<CampaignAttack> standard(DlgConfig idlg) {
        return List.of(analyticLeastSquares(), idlg(idlg));
    }

    /** iDLG as the campaign runs it: the DLG reference's 300 L-BFGS steps, the final point only. */
    public static DlgConfig defaultIdlg() {
        return DlgConfig.defaults().withSnapshotEvery(DlgConfig.defaults().iterations());
    }

    /**
     * Attacks one case of batch size 1. A case the attack refuses (e.g. an all-zero first-layer gradient) gives a
     * record without reconstruction, which counts as failed.
     *
     * @param key the row the record belongs to
     */
    AttackRecord run(RowKey key, AttackCase attackCase) {
        var details = attackCase.provenance().details();
        int target = Integer.parseInt(details.getOrDefault("target_index", "-1"));
        int party = Integer.parseInt(details.getOrDefault("party", "-1"));
        long round = attackCase.provenance().round();
        double accuracy = attackCase.provenance().modelAccuracy();
        int label = attackCase.truth().labels()[0];
        long begin = System.nanoTime();
        try {
            AttackResult r = attack.attack(attackCase);
            ImageOutcome o = r.images().get(0);
            return new AttackRecord(key, target, party, round, accuracy, r.noise().gradientStd(), r.noise().ratio(),
                    o.psnr(), o.ssim(), o.trueLabel(), o.recoveredLabel(), r.timing().seconds(), r.reconstruction()[0]);
        } catch (IllegalArgumentException e) {
            LOG.warn("{} refused the case of image {} ({} / {}): {}", label, target, key.algorithm(), key.observer(),
                    e.getMessage());
            return new AttackRecord(key, target, party, round, accuracy, attackCase.noiseStdInGradientUnits(), Double.NaN,
                    Double.NaN, Double.NaN, label, -1, (System.nanoTime() - begin) / 1e9, null);
        }
    }
}
