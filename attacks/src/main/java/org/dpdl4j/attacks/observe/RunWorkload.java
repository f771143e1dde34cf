package org.dpdl4j.attacks.observe;

import java.util.List;
import java.util.Objects;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.GroundTruth;
import org.dpdl4j.attacks.InputNormalization;
import org.dpdl4j.data.LabelEncoding;
import org.dpdl4j.data.LabeledData;
import org.dpdl4j.models.ImageShape;
import org.dpdl4j.models.MlpModel;
import org.dpdl4j.models.ModelOptions;
import org.dpdl4j.runtime.ModelBuilder;
import org.dpdl4j.runtime.ModelFootprint;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Sgd;

/**
 * What every tapped run of a campaign trains on and attacks: the training set (which contains the targets), the
 * test set for the model's accuracy, the indices of the target images in the training set, and the settings.
 *
 * @param train         the training set, images as pixels in [0, 1] (the targets are rows of it)
 * @param test          the test set
 * @param targets       training-set indices of the attacked images, distinct
 * @param shape         image shape of a row
 * @param settings      model, learning rate, clip, delta, attacked round
 */
public record RunWorkload(LabeledData train, LabeledData test, int[] targets, ImageShape shape, CampaignSettings settings) {

    public RunWorkload {
        Objects.requireNonNull(train, "training set must not be null");
        Objects.requireNonNull(test, "test set must not be null");
        Objects.requireNonNull(shape, "image shape must not be null");
        Objects.requireNonNull(settings, "settings must not be null");
        if (targets.length == 0) {
            throw new IllegalArgumentException("give at least one target image");
        }
        targets = targets.clone();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int t : targets) {
            if (t < 0 || t >= train.size()) {
                throw new IllegalArgumentException("target index " + t + " is outside the training set 0.."
                        + (train.size() - 1));
            }
            if (!seen.add(t)) {
                throw new IllegalArgumentException("target index " + t + " appears twice; targets must be distinct");
            }
        }
        if (train.numFeatures() != shape.flatSize()) {
            throw new IllegalArgumentException("training rows have " + train.numFeatures() + " features but " + shape
                    + " images have " + shape.flatSize());
        }
    }

    @Override
    public int[] targets() {
        return targets.clone();
    }

    /**
     * The attacked network, freshly initialised from the seed, SGD, single precision: the MLP nIn - hidden (sigmoid) -
     * classes, or the tanh CNN on the workload's images.
     */
    public MultiLayerNetwork newModel() {
        ModelOptions options = ModelOptions.defaults().withSeed(settings.seed())
                .withUpdater(new Sgd(settings.learningRate())).withDataType(DataType.FLOAT);
        MultiLayerNetwork net = new MultiLayerNetwork(configuration(options));
        net.init();
        return net;
    }

    /**
     * The attacked network as a registered protocol builds it ({@link org.dpdl4j.runtime.RunInputs#model()}): the
     * architecture of {@link #newModel()}, single precision, with the protocol's updater, decay and seed.
     */
    public ModelBuilder modelBuilder() {
        return new ModelBuilder() {
            @Override
            public MultiLayerNetwork build(IUpdater updater, double weightDecay, long seed) {
                MultiLayerNetwork net = new MultiLayerNetwork(RunWorkload.this.configuration(ModelOptions.defaults().withSeed(seed)
                        .withUpdater(updater).withWeightDecay(weightDecay).withDataType(DataType.FLOAT)));
                net.init();
                return net;
            }

            @Override
            public ModelFootprint footprint() {
                return ModelFootprint.of(configuration());
            }

            @Override
            public MultiLayerConfiguration configuration() {
                return RunWorkload.this.configuration(ModelOptions.defaults().withDataType(DataType.FLOAT));
            }
        };
    }

    private MultiLayerConfiguration configuration(ModelOptions options) {
        return switch (settings.model()) {
            case SIGMOID_MLP -> MlpModel.configuration(train.numFeatures(), List.of(settings.hiddenUnits()),
                    train.numClasses(), Activation.SIGMOID, options);
            case TANH_CNN -> org.dpdl4j.models.PrivateCnnModel.configuration(shape, train.numClasses(), Activation.TANH,
                    options);
        };
    }

    /** Training example {@code index} as the ground truth of a case. */
    public GroundTruth truth(int index) {
        LabeledData one = train.subset(new int[] {index});
        return new GroundTruth(one.features(), one.labels(), shape, InputNormalization.NONE);
    }

    /** Features of the given training rows, in that order. */
    public INDArray features(int[] rows) {
        return train.subset(rows).features();
    }

    /** One-hot label rows of the given training rows. */
    public INDArray labels(int[] rows) {
        return train.subset(rows).labelMatrix(LabelEncoding.ONE_HOT).castTo(DataType.FLOAT);
    }
}
