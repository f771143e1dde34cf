package org.dpdl4j.attacks.campaign;

import java.util.List;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.AttackResult;
import org.dpdl4j.attacks.ImageOutcome;
import org.dpdl4j.attacks.inversion.AnalyticInversion;
import org.dpdl4j.attacks.inversion.DlgConfig;
import org.dpdl4j.attacks.inversion.RestartingAttack;
import org.dpdl4j.attacks.inversion.InversionAttack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An attack as a campaign runs it, under a short label, turning each case into an {@link AttackRecord}.
 *
 * @param label  short name in tables, e.g. {@code idlg}
 * @param attack the attack
 */
public record CampaignAttack(String label, InversionAttack attack) {
    private static final Logger LOG = LoggerFactory.getLogger(CampaignAttack.class);

    public CampaignAttack {
        Objects.requireNonNull(label, "label must not be null");
        Objects.requireNonNull(attack, "attack must not be null");
    }

    /**
     * The attacks that work on the campaign's model: the least-squares analytic inversion of the dense first layer
     * (exact without noise) and iDLG with the given optimisation settings, rerun while stuck
     * ({@link RestartingAttack#idlg}).
     */
    public static List<CampaignAttack> standard(DlgConfig idlg) {
        return List.of(new CampaignAttack("analytic-ls", AnalyticInversion.leastSquares()),
                new CampaignAttack("idlg", RestartingAttack.idlg(idlg)));
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
