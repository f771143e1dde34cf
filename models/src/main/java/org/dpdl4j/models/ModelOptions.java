package org.dpdl4j.models;

import java.util.Objects;
import java.util.Set;
import org.deeplearning4j.nn.weights.IWeightInit;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * Options shared by every model builder of this package.
 *
 * <p>Weight decay follows the decoupled form used by the Decor reference code,
 * {@code x <- (1 - eta * lambda) x - eta * g}: it is DL4J's {@code WeightDecay} regularisation with the
 * learning rate applied, added after the updater, so it is not rescaled by adaptive updaters. With
 * {@code decayBiases = true} (the default, matching the reference, which decays the whole parameter
 * vector) the biases decay too.
 *
 * @param updater     DL4J updater (learning rate and its state), e.g. {@code new Sgd(0.1)}; copied on
 *                    construction and on access because DL4J updaters are mutable
 * @param seed        seed of DL4J's parameter initialisation
 * @param weightDecay decay coefficient {@code lambda >= 0}; 0 disables it
 * @param decayBiases whether the decay also applies to biases
 * @param dataType    floating-point type of parameters and activations (FLOAT for training, DOUBLE for
 *                    exact tests)
 * @param weightInit  DL4J weight initialisation of the weights (biases start at 0)
 */
public record ModelOptions(IUpdater updater, long seed, double weightDecay, boolean decayBiases,
                           DataType dataType, IWeightInit weightInit) {

    /** Default learning rate of the default updater {@code Sgd}. */
    public static final double DEFAULT_LEARNING_RATE = 0.1;
    /** Default seed. */
    public static final long DEFAULT_SEED = 1234L;

    private static final Set<DataType> NETWORK_TYPES = Set.of(DataType.FLOAT, DataType.DOUBLE, DataType.FLOAT16);

    public ModelOptions {
        Objects.requireNonNull(updater, "updater must not be null; use e.g. new Sgd(0.1)");
        Objects.requireNonNull(dataType, "dataType must not be null; use DataType.FLOAT or DataType.DOUBLE");
        Objects.requireNonNull(weightInit, "weightInit must not be null; use e.g. WeightInit.XAVIER");
        if (!Double.isFinite(weightDecay) || weightDecay < 0) {
            throw new IllegalArgumentException("weightDecay must be a finite number >= 0 (0 disables it), got "
                    + weightDecay);
        }
        if (!NETWORK_TYPES.contains(dataType)) {
            throw new IllegalArgumentException("dataType " + dataType
                    + " cannot hold network parameters; use FLOAT (default), DOUBLE or FLOAT16");
        }
        updater = updater.clone();
    }

    /**
     * Defaults: {@code Sgd(0.1)}, seed 1234, no weight decay (biases would decay if it were set),
     * FLOAT, Xavier initialisation.
     */
    public static ModelOptions defaults() {
        return new ModelOptions(new Sgd(DEFAULT_LEARNING_RATE), DEFAULT_SEED, 0.0, true, DataType.FLOAT,
                WeightInit.XAVIER.getWeightInitFunction());
    }

    /** A copy of the updater configuration (DL4J updaters are mutable). */
    @Override
    public IUpdater updater() {
        return updater.clone();
    }

    public ModelOptions withUpdater(IUpdater newUpdater) {
        return new ModelOptions(newUpdater, seed, weightDecay, decayBiases, dataType, weightInit);
    }

    public ModelOptions withSeed(long newSeed) {
        return new ModelOptions(updater, newSeed, weightDecay, decayBiases, dataType, weightInit);
    }

    /** Weight decay {@code lambda}, applied with the learning rate; biases included unless changed. */
    public ModelOptions withWeightDecay(double newWeightDecay) {
        return new ModelOptions(updater, seed, newWeightDecay, decayBiases, dataType, weightInit);
    }

    public ModelOptions withDecayBiases(boolean newDecayBiases) {
        return new ModelOptions(updater, seed, weightDecay, newDecayBiases, dataType, weightInit);
    }

    public ModelOptions withDataType(DataType newDataType) {
        return new ModelOptions(updater, seed, weightDecay, decayBiases, newDataType, weightInit);
    }

    public ModelOptions withWeightInit(IWeightInit newWeightInit) {
        return new ModelOptions(updater, seed, weightDecay, decayBiases, dataType, newWeightInit);
    }

    public ModelOptions withWeightInit(WeightInit newWeightInit) {
        Objects.requireNonNull(newWeightInit, "weightInit must not be null; use e.g. WeightInit.XAVIER");
        return withWeightInit(newWeightInit.getWeightInitFunction());
    }
}
