package org.dpdl4j.protocol.randomwalk;

import static org.dpdl4j.runtime.options.PartyOptions.MACHINES;
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

import java.util.List;
import java.util.Optional;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.ProtocolProvider;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * {@code random-walk}: network-DP random-walk SGD (a token model hops to a uniformly random party, which takes a
 * noisy clipped gradient step), local DP accounted per party over its visits. Also its own provider.
 */
public final class RandomWalkProtocol implements ConfiguredProtocol<RandomWalkRunSpec>, ProtocolProvider {
    /** The split of the data set over the parties when --partition is not given. */
    static final String DEFAULT_PARTITION = "iid";
    /** Parties when --machines is not given. */
    static final long DEFAULT_PARTIES = 10;

    @Override
    public List<Protocol> protocols() {
        return List.of(this);
    }

    @Override
    public String name() {
        return RandomWalkSgd.PROTOCOL;
    }

    @Override
    public String family() {
        return "relay";
    }

    @Override
    public String summary() {
        return "random-walk SGD: a token model hops between parties, each visit a noisy clipped gradient step";
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    /** The party the token goes to next. */
    @Override
    public List<ObserverDeclaration> observers() {
        return List.of(new ObserverDeclaration("next-holder", "the token before and after the holder's update",
                "knows the step size, the clip bound and the noise std; not the clip factor"));
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, MACHINES, PARTITION, ROUNDS, BATCH_SIZE, LEARNING_RATE, CLIP, EPSILON, DELTA, EPSILON_BUDGET,
                NOISE_MULTIPLIER, NOISE, RunOptions.ACCOUNTANT);
    }

    @Override
    public MemoryEstimate memory(RunSettings s, RunInputs inputs) {
        int parties = (int) (long) s.get(MACHINES, DEFAULT_PARTIES);
        DataShape data = DataShape.of(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), parties,
                s.get(SEED, 1L));
        return new RandomWalkMemory(inputs.model().footprint(), data, parties, s.get(ROUNDS, 1L), s.get(BATCH_SIZE, 0L)).estimate();
    }

    /** The walk's description from the settings, checked; no model. */
    @Override
    public RandomWalkRunSpec config(RunSettings s, RunInputs inputs) {
        return configured(s, inputs).spec();
    }

    @Override
    public TrainingRun create(RandomWalkRunSpec spec, RunInputs inputs, RunSettings recorded) {
        return spec.create(inputs.model().build(new Sgd(0.1), 0.0, spec.privacy().seed()), recorded);
    }

    /**
     * The ledger of {@link #create}'s walk, from its description and the parties' data sizes (no model is built). Empty
     * with secure noise: the walk's path, which decides whom each hop charges, is then drawn from secret randomness
     * when the walk is built. With {@code --noise seeded} the path follows from the seed alone and the walk is priced
     * exactly.
     */
    @Override
    public Optional<PlannedLedger> plannedLedger(RandomWalkRunSpec spec, RunInputs inputs) {
        return spec.plannedLedger();
    }

    /** A builder holding everything the settings say, checked, but no model. */
    private RandomWalkRunBuilder configured(RunSettings s, RunInputs inputs) {
        if (inputs.hasUsers()) {
            throw new IllegalArgumentException("random-walk trains on a data set split over parties; this task defines its own users");
        }
        long seed = s.get(SEED, 1L);
        double clip = s.require(CLIP, "random-walk needs the gradient bound L_F (--clip): every local gradient is clipped to it");
        if (s.has(EPSILON) == s.has(NOISE_MULTIPLIER)) {
            throw EPSILON.invalid("random-walk needs exactly one of --epsilon (sigma is calibrated so that the most visited party"
                    + " stays within it) and --noise-multiplier Z (sigma = Z L_F)");
        }
        double delta = s.get(DELTA, 1e-5);
        RandomWalkRunBuilder b = RandomWalkSgd.builder().accountant(RunOptions.accountants(s))
                .split(inputs.train(), inputs.splits().apply(s.get(PARTITION, DEFAULT_PARTITION)), (int) (long) s.get(MACHINES, DEFAULT_PARTIES))
                .steps(s.require(ROUNDS, "random-walk needs the number of hops (--rounds)"))
                .stepSize(s.require(LEARNING_RATE, "random-walk needs the step size gamma (--lr)"))
                .gradientBound(clip).batchSize((int) (long) s.get(BATCH_SIZE, 0L))
                .noiseKind(s.get(NOISE, NoiseKind.SECURE)).seed(seed);
        if (s.has(EPSILON)) {
            b.target(s.get(EPSILON).orElseThrow(), delta);
        } else {
            b.sigma(s.get(NOISE_MULTIPLIER).orElseThrow() * clip).delta(delta);
        }
        s.get(EPSILON_BUDGET).ifPresent(b::budget);
        return b;
    }
}
