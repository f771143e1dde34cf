package org.dpdl4j.attacks.observe;

import org.dpdl4j.privacy.accounting.AccountantFactory;

/**
 * The settings shared by the tapped protocol runs of an attack campaign.
 *
 * @param seed          master seed: model initialisation, data split, sampling and noise streams
 * @param hiddenUnits   width of the attacked MLP's hidden layer (sigmoid units, the setting where DLG works)
 * @param learningRate  SGD step of every protocol
 * @param clipNorm      per-example (or per-update, scaled by the learning rate) clip C of the private variants
 * @param delta         delta of every calibrated epsilon
 * @param attackRound   rounds (steps) of training before the first attacked release
 * @param model         the attacked network
 * @param accountant    the name of the pricing every private run is calibrated to ({@link AccountantFactory#NAMES})
 */
public record CampaignSettings(long seed, int hiddenUnits, double learningRate, double clipNorm, double delta,
                          int attackRound, AttackedModel model, String accountant) {

    /** Settings of a campaign on the sigmoid MLP, calibrated to the tightest valid bound. */
    public CampaignSettings(long seed, int hiddenUnits, double learningRate, double clipNorm, double delta, int attackRound) {
        this(seed, hiddenUnits, learningRate, clipNorm, delta, attackRound, AttackedModel.SIGMOID_MLP,
                AccountantFactory.TIGHTEST);
    }

    public CampaignSettings {
        java.util.Objects.requireNonNull(model, "attacked model must not be null");
        java.util.Objects.requireNonNull(accountant, "accountant must not be null");
        AccountantFactory.named(accountant);   // refuses an unknown name, listing the known ones
        if (hiddenUnits < 1) {
            throw new IllegalArgumentException("hidden units must be >= 1, got " + hiddenUnits);
        }
        if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
            throw new IllegalArgumentException("learning rate must be a positive finite number, got " + learningRate);
        }
        if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
            throw new IllegalArgumentException("clip norm must be a positive finite number, got " + clipNorm);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must lie in (0, 1), got " + delta);
        }
        if (attackRound < 0) {
            throw new IllegalArgumentException("attack round must be >= 0, got " + attackRound);
        }
    }

    /**
     * Seed 1234, 128 sigmoid units, learning rate 0.1, C = 1, delta = 1e-5, first attack after 50 rounds, the tightest
     * accounting.
     */
    public static CampaignSettings defaults() {
        return new CampaignSettings(1234L, 128, 0.1, 1.0, 1e-5, 50);
    }

    /** The same settings with another first attacked round. */
    public CampaignSettings withAttackRound(int round) {
        return new CampaignSettings(seed, hiddenUnits, learningRate, clipNorm, delta, round, model, accountant);
    }

    /** The same settings with another attacked network. */
    public CampaignSettings withModel(AttackedModel newModel) {
        return new CampaignSettings(seed, hiddenUnits, learningRate, clipNorm, delta, attackRound, newModel, accountant);
    }

    /** The same settings calibrated and priced by another accountant ({@link AccountantFactory#NAMES}). */
    public CampaignSettings withAccountant(String name) {
        return new CampaignSettings(seed, hiddenUnits, learningRate, clipNorm, delta, attackRound, model, name);
    }

    /** The pricing {@link #accountant()} names: every private run's calibration and ledger use it. */
    public AccountantFactory accountants() {
        return AccountantFactory.named(accountant);
    }
}
