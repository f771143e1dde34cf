package org.dpdl4j.protocol.federated;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.privacy.accounting.AccountantFactory;
import org.dpdl4j.privacy.ledger.Charge;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.ledger.PrivacyLedger;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.NodeData;
import org.dpdl4j.runtime.PrivacySetup;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * Everything a DP-mu^2-FL run derives from its problem constants and its privacy target: the noise std
 * calibrated in closed form (spec 4.4), the step size of spec 4.5, the run's configuration and its accounting; and
 * the run itself ({@link #trainer}).
 *
 * @param config        the run's settings
 * @param constants     G, L, D (S = G + 2LD, the clip of every increment)
 * @param sigma         noise std (0 without a privacy target)
 * @param privacy       the accounting (null without noise)
 * @param machines      M
 * @param dimension     d, the number of model parameters
 * @param targetEpsilon the target the noise was calibrated to (NaN with given noise or without noise)
 */
public record Mu2Setup(Mu2Config config, Mu2Constants constants, double sigma, Mu2Privacy privacy, int machines, long dimension,
                       double targetEpsilon) {
    public Mu2Setup {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(constants, "constants");
    }

    /**
     * A private run calibrated to (epsilon, delta) after all T rounds.
     *
     * @param trust     untrusted or trusted server
     * @param constants G, L, D
     * @param machines  M
     * @param rounds    T
     * @param batchSize examples per machine and round (1 in the paper)
     * @param dimension d
     * @param epsilon   target epsilon
     * @param delta     delta
     * @param seed      master seed
     */
    public static Mu2Setup calibrated(ServerTrust trust, Mu2Constants constants, int machines, long rounds, int batchSize,
                                      long dimension, double epsilon, double delta, long seed) {
        return calibrated(trust, constants, machines, rounds, batchSize, dimension, epsilon, delta, seed, AccountantFactory.standard());
    }

    /** {@link #calibrated} with the noise checked against the ledger priced by {@code accountants}. */
    public static Mu2Setup calibrated(ServerTrust trust, Mu2Constants constants, int machines, long rounds, int batchSize,
                                      long dimension, double epsilon, double delta, long seed, AccountantFactory accountants) {
        double sigma = Mu2Privacy.calibrate(trust, constants.sensitivityBound(), machines, rounds, epsilon, delta, accountants);
        Mu2Setup s = withNoise(trust, constants, machines, rounds, batchSize, dimension, sigma, delta, seed, accountants);
        return new Mu2Setup(s.config, constants, sigma, s.privacy, machines, dimension, epsilon);
    }

    /** A private run with a given noise std. */
    public static Mu2Setup withNoise(ServerTrust trust, Mu2Constants constants, int machines, long rounds, int batchSize,
                                     long dimension, double sigma, double delta, long seed) {
        return withNoise(trust, constants, machines, rounds, batchSize, dimension, sigma, delta, seed, AccountantFactory.standard());
    }

    /** A private run with a given noise std, its planned epsilons priced by {@code accountants}. */
    public static Mu2Setup withNoise(ServerTrust trust, Mu2Constants constants, int machines, long rounds, int batchSize,
                                     long dimension, double sigma, double delta, long seed, AccountantFactory accountants) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("noise std sigma must be a positive finite number, got " + sigma);
        }
        double eta = Mu2StepSize.of(constants, rounds, machines, dimension, sigma, trust);
        NoiseSchedule noise = NoiseSchedule.constant(sigma);
        Mu2Config config = Mu2Config.of(trust, rounds, batchSize, eta, constants, noise, seed);
        Mu2Privacy privacy = Mu2Privacy.of(trust, constants.sensitivityBound(), machines, noise, delta, accountants);
        return new Mu2Setup(config, constants, sigma, privacy, machines, dimension, Double.NaN);
    }

    /** Non-private mu^2-SGD over M machines, with the step size of spec 4.5 at sigma = 0. */
    public static Mu2Setup nonPrivate(Mu2Constants constants, int machines, long rounds, int batchSize, long dimension, long seed) {
        double eta = Mu2StepSize.of(constants, rounds, machines, dimension, 0.0, ServerTrust.TRUSTED);
        Mu2Config config = Mu2Config.of(ServerTrust.TRUSTED, rounds, batchSize, eta, constants, NoiseSchedule.none(), seed);
        return new Mu2Setup(config, constants, 0.0, null, machines, dimension, Double.NaN);
    }

    /** The step size eta. */
    public double stepSize() {
        return config.stepSize();
    }

    /**
     * The ledger of the planned rounds, as the run ({@link #trainer}) gives it before its first round: round t spends
     * {@link Mu2Privacy#eventOfRound}, with the relation of its accounting; empty without noise.
     */
    public Optional<PlannedLedger> plannedLedger(boolean secureNoise) {
        return privacy == null ? Optional.empty() : Optional.of(new PlannedLedger(PrivacyLedger.planned(config.rounds(),
                k -> List.of(Charge.ofAll(privacy.eventOfRound(k + 1), privacy.describe())), secureNoise),   // step k is round k + 1
                privacy.relation()));
    }

    /**
     * The run: its noise streams (the machines' own keys with an untrusted server, the server's with a trusted
     * one), and for a private run its ledger, whose budget is {@code budget} (NaN: the target, or none).
     *
     * @param template network whose parameters are the start x_1 (projected onto K)
     * @param data     the machines' data, M of them
     * @param noise    where the noise comes from
     * @param budget   the epsilon budget, or NaN for the default
     * @param accountants the ledger's accountant
     * @param settings the settings recorded with the run
     */
    public Mu2Trainer trainer(MultiLayerNetwork template, List<NodeData> data, NoiseKind noise, double budget,
                              AccountantFactory accountants, RunSettings settings) {
        if (data.size() != machines) {
            throw new IllegalArgumentException("the run was set up for " + machines + " machines but " + data.size()
                    + " datasets were given");
        }
        RunLedger ledger = null;
        if (privacy != null) {
            ledger = new PrivacySetup(targetEpsilon, privacy.delta(), budget, noise, config.seed(), accountants)
                    .ledger(privacy.relation(), noise.isSecure());
        }
        int streams = config.trust() == ServerTrust.UNTRUSTED ? machines : 1;
        return new Mu2Trainer(template, data, config, noise.streams(streams, config.seed()), privacy, ledger, settings);
    }
}
