package org.dpdl4j.protocol.federated;

import static org.dpdl4j.protocol.federated.FederatedOptions.CLIENT_RATE;
import static org.dpdl4j.protocol.federated.FederatedOptions.CLIENT_SAMPLING;
import static org.dpdl4j.protocol.federated.FederatedOptions.COLLUDING_FRACTION;
import static org.dpdl4j.protocol.federated.FederatedOptions.COLLUDING_SETS;
import static org.dpdl4j.protocol.federated.FederatedOptions.GOPA_K;
import static org.dpdl4j.protocol.federated.FederatedOptions.LOCAL_STEPS;
import static org.dpdl4j.runtime.options.PartyOptions.MACHINES;
import static org.dpdl4j.protocol.federated.FederatedOptions.PAIRWISE_MULTIPLIER;
import static org.dpdl4j.protocol.federated.FederatedOptions.SERVER_LR;
import static org.dpdl4j.protocol.federated.FederatedOptions.VERIFY;
import static org.dpdl4j.protocol.federated.FederatedOptions.VERIFY_COORDINATES;
import static org.dpdl4j.protocol.federated.FederatedOptions.WEIGHTING;
import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.PARTITION;
import static org.dpdl4j.runtime.options.RunOptions.ROUNDS;
import static org.dpdl4j.runtime.options.RunOptions.SEED;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.LearningRate;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/** A FedAvg-family protocol (FedAvg, DP-FedAvg local or central, GOPA), set up by {@link FedAvgRunBuilder}. */
public final class FedAvgProtocol implements ConfiguredProtocol<FedAvgRunSpec> {
    private static final ObserverDeclaration SERVER = new ObserverDeclaration("server",
            "the model it broadcasts and each client's returned update",
            "honest-but-curious server; knows the model, the learning rate, and the clip norm and noise when there are any");
    private static final ObserverDeclaration AGGREGATE = new ObserverDeclaration("aggregate",
            "the global model of every round", "sees only the broadcast models; knows every other participant's data (worst case)");
    private static final ObserverDeclaration SERVER_AND_COLLUDERS = new ObserverDeclaration("server + colluders",
            "every revealed value, and the colluding clients' pairwise secrets",
            "the server colluding with some clients; knows the model, the learning rate, the clip norm and the noise levels");

    /** Rounds when --rounds is not given. */
    public static final long DEFAULT_ROUNDS = 100;
    /** Local mini-batch when --batch-size is not given. */
    public static final long DEFAULT_LOCAL_BATCH = 32;
    /** The split of the data set over the parties when --partition is not given. */
    public static final String DEFAULT_PARTITION = "iid";
    /** Clients when --machines is not given. */
    public static final long DEFAULT_CLIENTS = 10;
    /** GOPA's secrets per client when --gopa-k is not given. */
    public static final long DEFAULT_GOPA_K = 3;
    /** Coordinates proven per party and round when --verify is given without --verify-coordinates. */
    public static final int DEFAULT_VERIFY_COORDINATES = 8;

    private final FedAvgVariant variant;

    public FedAvgProtocol(FedAvgVariant variant) {
        this.variant = variant;
    }

    @Override
    public String name() {
        return variant.cliName();
    }

    @Override
    public String family() {
        return "federated";
    }

    @Override
    public String summary() {
        return switch (variant) {
            case FEDAVG -> "FedAvg: local SGD on every client, the server averages the updates (no privacy)";
            case DP_LOCAL -> "DP-FedAvg, local noise: each client clips and noises its update (untrusted server)";
            case DP_CENTRAL -> "DP-FedAvg, central noise: the server clips, sums and noises the updates (trusted server)";
            case GOPA -> "GOPA: clipped updates revealed with pairwise-cancelling plus private noise, against colluders";
        };
    }

    @Override
    public boolean isPrivate() {
        return variant.isPrivate();
    }

    /** Its parties compute a round independently; {@code --engine spark} splits them into blocks. */
    @Override
    public boolean splitsIntoBlocks() {
        return true;
    }

    /** Who sees the clients' updates or the global models, per variant. */
    @Override
    public List<ObserverDeclaration> observers() {
        return switch (variant) {
            case FEDAVG -> List.of(SERVER, AGGREGATE);
            case DP_LOCAL -> List.of(SERVER);
            case DP_CENTRAL -> List.of(AGGREGATE);
            case GOPA -> List.of(SERVER_AND_COLLUDERS);
        };
    }

    @Override
    public List<RunOption<?>> options() {
        List<RunOption<?>> out = new ArrayList<>(List.of(SEED, MACHINES, PARTITION, ROUNDS, BATCH_SIZE, LEARNING_RATE, LOCAL_STEPS,
                SERVER_LR));
        if (variant != FedAvgVariant.GOPA) {
            out.addAll(List.of(CLIENT_RATE, CLIENT_SAMPLING));
        }
        if (variant == FedAvgVariant.FEDAVG) {
            out.add(WEIGHTING);
            return out;
        }
        out.addAll(List.of(EPSILON, DELTA, EPSILON_BUDGET, CLIP, NOISE_MULTIPLIER, NOISE, RunOptions.ACCOUNTANT));
        if (variant == FedAvgVariant.GOPA) {
            out.addAll(List.of(GOPA_K, COLLUDING_FRACTION, COLLUDING_SETS, PAIRWISE_MULTIPLIER, VERIFY, VERIFY_COORDINATES));
        }
        return out;
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        int clients = (int) (long) s.get(MACHINES, DEFAULT_CLIENTS);
        DataShape data = DataShape.of(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), clients,
                s.get(SEED, 1L));
        ClientSampling sampling = clientSampling(s, clients);
        return new FedAvgMemory(variant, inputs.model().footprint(), data, clients, sampling,
                (int) (long) s.get(BATCH_SIZE, DEFAULT_LOCAL_BATCH), (int) (long) s.get(GOPA_K, DEFAULT_GOPA_K)).estimate();
    }

    /** The run's description from the settings: clients, rounds, noise, target, all checked; no model. */
    @Override
    public FedAvgRunSpec config(RunSettings s, RunInputs inputs) {
        return configured(s, inputs).spec();
    }

    @Override
    public TrainingRun create(FedAvgRunSpec spec, RunInputs inputs, RunSettings recorded) {
        requireOwn(spec.variant().cliName());
        return spec.create(inputs.model().build(new Sgd(0.1), 0.0, spec.privacy().seed()), recorded);
    }

    /** The ledger of {@link #create}'s run, from its description and the number of clients (no model is built). */
    @Override
    public Optional<PlannedLedger> plannedLedger(FedAvgRunSpec spec, RunInputs inputs) {
        requireOwn(spec.variant().cliName());
        return spec.plannedLedger();
    }

    /** The client sampling the settings ask for, refused where it has no effect or would take another rate. */
    private static ClientSampling clientSampling(RunSettings s, int clients) {
        double rate = s.get(CLIENT_RATE, 1.0);
        if (s.has(CLIENT_SAMPLING) && rate == 1) {
            throw CLIENT_SAMPLING.invalid("--client-sampling has no effect without --client-rate below 1 (every client takes"
                    + " part in every round); give --client-rate Q, or drop --client-sampling");
        }
        try {
            return FedAvgRunSpec.sampling(rate, fixedSizeClients(s), clients);
        } catch (IllegalArgumentException e) {
            throw CLIENT_RATE.invalid("--client-rate " + rate + " with --client-sampling fixed: " + e.getMessage()
                    + " (or change --machines)");
        }
    }

    private static boolean fixedSizeClients(RunSettings s) {
        return s.get(CLIENT_SAMPLING, "poisson").equals("fixed");
    }

    /** A builder holding everything the settings say (clients, rounds, noise, target), checked, but no model. */
    private FedAvgRunBuilder configured(RunSettings s, RunInputs inputs) {
        if (inputs.hasUsers()) {
            throw new IllegalArgumentException(name() + " trains a classifier on a data set split over clients; this task"
                    + " defines its own users (use mnist, a9a or covtype)");
        }
        long seed = s.get(SEED, 1L);
        int clients = (int) (long) s.get(MACHINES, DEFAULT_CLIENTS);
        clientSampling(s, clients);   // refused here naming the options, before the builder's check of the same rate
        FedAvgRunBuilder b = FedAvgTrainer.builder().variant(variant)
                .split(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), clients)
                .rounds(s.get(ROUNDS, DEFAULT_ROUNDS)).localSteps((int) (long) s.get(LOCAL_STEPS, 5L))
                .localBatch((int) (long) s.get(BATCH_SIZE, DEFAULT_LOCAL_BATCH))
                .localRate(new LearningRate.Constant(s.require(LEARNING_RATE, name() + " needs the clients' learning rate")))
                .serverRate(s.get(SERVER_LR, 1.0))
                .clientSampling(s.get(CLIENT_RATE, 1.0), fixedSizeClients(s))
                .noiseKind(RunOptions.noiseKind(s, variant.isPrivate())).seed(seed);
        if (variant == FedAvgVariant.FEDAVG) {
            b.weighting(s.get(WEIGHTING, "uniform").equals("size") ? UpdateWeighting.BY_DATA_SIZE : UpdateWeighting.UNIFORM);
            return b;
        }
        b.accountant(RunOptions.accountants(s)).clip(s.require(CLIP, name() + " needs --clip S, the bound on each client's update"));
        if (s.has(EPSILON) == s.has(NOISE_MULTIPLIER)) {
            throw EPSILON.invalid(name() + " needs exactly one of --epsilon (the noise is calibrated to it) and --noise-multiplier Z"
                    + " (noise std = Z S)");
        }
        double delta = s.get(DELTA, 1e-5);
        if (variant == FedAvgVariant.GOPA) {
            if (s.has(EPSILON) && s.has(PAIRWISE_MULTIPLIER)) {
                throw PAIRWISE_MULTIPLIER.invalid("--pairwise-multiplier goes with --noise-multiplier; with --epsilon both are calibrated");
            }
            if (s.has(NOISE_MULTIPLIER) && !s.has(PAIRWISE_MULTIPLIER)) {
                throw PAIRWISE_MULTIPLIER.invalid("gopa with --noise-multiplier also needs --pairwise-multiplier (sigma_Delta / S)");
            }
            if (s.has(COLLUDING_SETS) && s.get(COLLUDING_FRACTION, 0.0) == 0) {
                throw COLLUDING_SETS.invalid("--colluding-sets chooses which colluding sets are analysed, and without"
                        + " --colluding-fraction there are none; give --colluding-fraction F, or drop --colluding-sets");
            }
            b.gopaK((int) (long) s.get(GOPA_K, DEFAULT_GOPA_K)).colluders(s.get(COLLUDING_FRACTION, 0.0),
                    CollusionAnalysis.parse(s.get(COLLUDING_SETS, "worst"), seed));
            if (s.has(VERIFY_COORDINATES) && !s.get(VERIFY, false)) {
                throw VERIFY_COORDINATES.invalid("--verify-coordinates says how much --verify proves; add --verify");
            }
            if (s.get(VERIFY, false)) {
                String k = s.get(VERIFY_COORDINATES, Integer.toString(DEFAULT_VERIFY_COORDINATES));
                b.verify(k.equals("all") ? Integer.MAX_VALUE : Integer.parseInt(k));
            }
        }
        if (s.has(EPSILON)) {
            b.target(s.get(EPSILON).orElseThrow(), delta);
        } else {
            b.noiseMultipliers(s.get(NOISE_MULTIPLIER).orElseThrow(), s.get(PAIRWISE_MULTIPLIER, Double.NaN)).delta(delta);
        }
        s.get(EPSILON_BUDGET).ifPresent(b::budget);
        return b;
    }
}
