package org.dpdl4j.protocol.central;

import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.CLIP;
import static org.dpdl4j.runtime.options.RunOptions.DELTA;
import static org.dpdl4j.runtime.options.RunOptions.EPOCHS;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON;
import static org.dpdl4j.runtime.options.RunOptions.EPSILON_BUDGET;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE;
import static org.dpdl4j.runtime.options.RunOptions.NOISE_MULTIPLIER;
import static org.dpdl4j.runtime.options.RunOptions.SAMPLING;
import static org.dpdl4j.runtime.options.RunOptions.SEED;
import static org.dpdl4j.runtime.options.RunOptions.WEIGHT_DECAY;

import java.util.List;
import java.util.Optional;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.optim.DpSgdConfig;
import org.dpdl4j.optim.DpSgdPlan;
import org.dpdl4j.optim.PrivateTrainer;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.privacy.ledger.PlannedLedger;
import org.dpdl4j.privacy.noise.NoiseKey;
import org.dpdl4j.privacy.noise.NoiseKind;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.ConfiguredProtocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunOptions;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * {@code dp-sgd}: central DP-SGD ({@link PrivateTrainer}): Poisson (or fixed-size) batches, per-example clipping,
 * Gaussian noise calibrated to the target, the network's DL4J updater, example-level privacy.
 */
public final class DpSgdProtocol implements ConfiguredProtocol<DpSgdRunSpec> {

    @Override
    public String name() {
        return PrivateTrainer.PROTOCOL;
    }

    @Override
    public String family() {
        return "central";
    }

    @Override
    public String summary() {
        return "central DP-SGD: per-example clipping, Gaussian noise, subsampling, example-level privacy";
    }

    @Override
    public boolean isPrivate() {
        return true;
    }

    /** The receiver of each step's noisy clipped gradient (a parameter server, or an eavesdropper on the update). */
    @Override
    public List<ObserverDeclaration> observers() {
        return List.of(new ObserverDeclaration("gradient", "the model of each step and the noisy clipped gradient it releases",
                "knows the model, the clip norm, the noise multiplier and the batch size; not an example's clip factor"));
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, EPOCHS, BATCH_SIZE, LEARNING_RATE, CentralOptions.UPDATER, WEIGHT_DECAY, EPSILON, DELTA,
                EPSILON_BUDGET, CLIP, NOISE_MULTIPLIER, SAMPLING, NOISE, RunOptions.ACCOUNTANT);
    }

    @Override
    public MemoryEstimate memory(RunSettings settings, RunInputs inputs) {
        long n = inputs.train().size();
        return new CentralMemory(name(), inputs.model().footprint(), DataShape.of(inputs.train()),
                Math.max(1, Math.min(n, settings.get(BATCH_SIZE, n))), Updaters.stateValues(settings.get(CentralOptions.UPDATER, "sgd")),
                settings.get(SAMPLING, "poisson").equals("poisson"), true).estimate();
    }

    /** The run's description from its settings: the mechanism on this many training examples and the training. */
    @Override
    public DpSgdRunSpec config(RunSettings settings, RunInputs inputs) {
        return new DpSgdRunSpec(mechanism(settings, inputs.train().size()), settings.get(CentralOptions.UPDATER, "sgd"),
                settings.get(LEARNING_RATE).orElseThrow(), settings.get(WEIGHT_DECAY, 0.0), settings.get(SEED, 1L),
                settings.get(NOISE, NoiseKind.SECURE), RunOptions.accountants(settings));
    }

    @Override
    public TrainingRun create(DpSgdRunSpec spec, RunInputs inputs, RunSettings recorded) {
        MultiLayerNetwork net = inputs.model().build(Updaters.of(spec.updater(), spec.learningRate()), spec.weightDecay(),
                spec.seed());
        var type = net.params().dataType();
        PrivateTrainer.Builder b = PrivateTrainer.builder(net, spec.mechanism())
                .data(inputs.train().features().castTo(type), inputs.train().labels().castTo(type))
                .noise(spec.noise().source(new NoiseKey(spec.seed(), "dp-sgd", 0, 0)))
                .sampling(spec.noise().sampling(new NoiseKey(spec.seed(), "sampling", 0, 0)))
                .accountant(spec.accountants());
        if (recorded != null) {
            b.settings(recorded);
        }
        return b.build();
    }

    /** The plan {@link #create}'s trainer runs, priced on the number of training examples alone. */
    @Override
    public Optional<PlannedLedger> plannedLedger(DpSgdRunSpec spec, RunInputs inputs) {
        DpSgdPlan plan = DpSgdPlan.of(spec.mechanism(), inputs.train().size(), spec.accountants());
        return Optional.of(new PlannedLedger(plan.plannedLedger(spec.noise().isSecure()), plan.accounting().relation()));
    }

    /**
     * The run's mechanism from its settings on {@code n} training examples, every setting checked.
     */
    private static DpSgdConfig mechanism(RunSettings settings, long n) {
        double clip = settings.require(CLIP, "dp-sgd needs the per-example clipping norm");
        boolean byTarget = settings.has(EPSILON);
        if (byTarget == settings.has(NOISE_MULTIPLIER)) {
            throw EPSILON.invalid("dp-sgd needs exactly one of --epsilon (the noise is calibrated to it) and --noise-multiplier Z");
        }
        long batch = settings.require(BATCH_SIZE, "dp-sgd needs a batch size");
        if (batch < 1 || batch > n) {
            throw BATCH_SIZE.invalid("--batch-size " + batch + ": dp-sgd needs a batch size from 1 to " + n
                    + " (the number of training examples); it is the expected batch size under Poisson sampling");
        }
        double epochs = settings.require(EPOCHS, "dp-sgd needs a number of epochs");
        double delta = settings.get(DELTA, 1e-5);
        DpSgdConfig config = byTarget ? DpSgdConfig.forTarget(clip, settings.get(EPSILON).orElseThrow(), delta, (int) batch, epochs)
                : DpSgdConfig.withNoise(clip, settings.get(NOISE_MULTIPLIER).orElseThrow(), delta, (int) batch, epochs);
        config = config.withSampling(settings.get(SAMPLING, "poisson").equals("poisson") ? SamplingScheme.POISSON
                : SamplingScheme.FIXED_SIZE_WITHOUT_REPLACEMENT);
        if (settings.has(EPSILON_BUDGET)) {
            config = config.withBudget(settings.get(EPSILON_BUDGET).orElseThrow());
        }
        settings.require(LEARNING_RATE, "dp-sgd needs a learning rate");
        return config;
    }
}
