package org.dpdl4j.protocol.central;

import static org.dpdl4j.runtime.options.RunOptions.BATCH_SIZE;
import static org.dpdl4j.runtime.options.RunOptions.EPOCHS;
import static org.dpdl4j.runtime.options.RunOptions.LEARNING_RATE;
import static org.dpdl4j.runtime.options.RunOptions.SEED;
import static org.dpdl4j.runtime.options.RunOptions.WEIGHT_DECAY;

import java.util.List;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.runtime.DataShape;
import org.dpdl4j.runtime.MemoryEstimate;
import org.dpdl4j.runtime.ObserverDeclaration;
import org.dpdl4j.runtime.Protocol;
import org.dpdl4j.runtime.RunInputs;
import org.dpdl4j.runtime.TrainingRun;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;

/** {@code sgd}: non-private central training with DL4J's {@code fit} ({@link MinibatchSgdRun}). */
public final class SgdProtocol implements Protocol {

    @Override
    public String name() {
        return MinibatchSgdRun.PROTOCOL;
    }

    @Override
    public String family() {
        return "central";
    }

    @Override
    public String summary() {
        return "mini-batch training of one model with DL4J's updater (no privacy)";
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    /** The receiver of each step's update, who divides it by the learning rate. */
    @Override
    public List<ObserverDeclaration> observers() {
        return List.of(new ObserverDeclaration("gradient", "the model of each step and the update the step makes",
                "knows the model, the learning rate and the batch size"));
    }

    @Override
    public List<RunOption<?>> options() {
        return List.of(SEED, EPOCHS, BATCH_SIZE, LEARNING_RATE, CentralOptions.UPDATER, WEIGHT_DECAY);
    }

    @Override
    public MemoryEstimate memory(RunSettings settings, RunInputs inputs) {
        long n = inputs.train().size();
        long batch = settings.get(BATCH_SIZE, n);
        return new CentralMemory(name(), inputs.model().footprint(), DataShape.of(inputs.train()), batch == 0 ? n : Math.min(n, batch),
                Updaters.stateValues(settings.get(CentralOptions.UPDATER, "sgd")), false, false).estimate();
    }

    @Override
    public TrainingRun create(RunSettings settings, RunInputs inputs) {
        long seed = settings.get(SEED, 1L);
        double lr = settings.require(LEARNING_RATE, "sgd needs a learning rate");
        MultiLayerNetwork net = inputs.model().build(Updaters.of(settings.get(CentralOptions.UPDATER, "sgd"), lr),
                settings.get(WEIGHT_DECAY, 0.0), seed);
        long n = inputs.train().size();
        long batch = settings.require(BATCH_SIZE, "sgd needs a batch size");
        if (batch > n) {
            throw BATCH_SIZE.invalid("--batch-size " + batch + " is larger than the " + n + " training examples; use at most "
                    + n + ", or 0 for full-batch training");
        }
        return new MinibatchSgdRun(net, inputs.train().features(), inputs.train().labels(), batch == 0 ? (int) n : (int) batch,
                settings.require(EPOCHS, "sgd needs a number of epochs"), seed, settings);
    }
}
