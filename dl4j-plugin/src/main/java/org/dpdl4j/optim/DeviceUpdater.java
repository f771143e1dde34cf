package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Trainable;
import org.deeplearning4j.nn.api.TrainingConfig;
import org.deeplearning4j.nn.conf.GradientNormalization;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.updater.BaseMultiLayerUpdater;
import org.deeplearning4j.nn.updater.UpdaterBlock;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.learning.regularization.Regularization;

import java.util.ArrayList;
import java.util.List;

/**
 * A network's DL4J updater as a device engine applies it ({@link ResidentTraining}): the updater blocks as segments of
 * the flat parameter vector, each with DL4J's {@code Sgd} or {@code Nesterovs} rule, and each step's learning rates
 * and momenta from the updaters' configurations (schedules included). Any other updater (Adam, RmsProp, ...),
 * regularization (L1, L2, weight decay), gradient normalization, parameter constraints or layerwise pretraining keeps
 * DL4J's updater on the host: {@link #whyNot()} says which.
 */
public final class DeviceUpdater {
    /** The rules a device applies: DL4J's Sgd and Nesterovs. */
    public enum Rule { SGD, NESTEROVS }

    /**
     * Parameters {@code [paramStart, paramStart + paramCount)} moved by {@code rule}; Nesterovs keeps one state value
     * per parameter from {@code stateStart} in the updater's state array.
     */
    public record Segment(long paramStart, long paramCount, long stateStart, Rule rule) {
    }

    /** One step's learning rate and momentum (0 for SGD) per segment, in float as DL4J's float updaters use them. */
    public record Rates(float[] learningRates, float[] momenta) {
    }

    private final List<Segment> segments;
    private final List<IUpdater> configs;
    private final long stateLength;
    private final String whyNot;

    private DeviceUpdater(List<Segment> segments, List<IUpdater> configs, long stateLength, String whyNot) {
        this.segments = List.copyOf(segments);
        this.configs = List.copyOf(configs);
        this.stateLength = stateLength;
        this.whyNot = whyNot;
    }

    /** The device form of {@code net}'s updater; check {@link #whyNot()} before using it. */
    public static DeviceUpdater of(MultiLayerNetwork net) {
        for (int i = 0; i < net.getnLayers(); i++) {
            Layer layer = net.getLayerWiseConfigurations().getConf(i).getLayer();
            if (layer.getConstraints() != null && !layer.getConstraints().isEmpty()) {
                return refused("layer " + i + " has parameter constraints, which DL4J applies to the network's own arrays"
                        + " after every step");
            }
        }
        if (!(net.getUpdater() instanceof BaseMultiLayerUpdater<?> updater)) {
            return refused("the network's updater is a " + net.getUpdater().getClass().getSimpleName());
        }
        List<Segment> segments = new ArrayList<>();
        List<IUpdater> configs = new ArrayList<>();
        long next = 0;
        long stateEnd = 0;
        for (UpdaterBlock block : updater.getUpdaterBlocks()) {
            long count = (long) block.getParamOffsetEnd() - block.getParamOffsetStart();
            if (count == 0) {
                continue;
            }
            if (block.isPretrainUpdaterBlock()) {
                return refused("a block of the updater belongs to layerwise pretraining");
            }
            UpdaterBlock.ParamState first = block.getLayersAndVariablesInBlock().get(0);
            String why = unsupported(block);
            if (why != null) {
                return refused(why);
            }
            IUpdater config = first.getLayer().getConfig().getUpdaterByParam(first.getParamName());
            Rule rule = config.getClass() == Sgd.class ? Rule.SGD : config.getClass() == Nesterovs.class ? Rule.NESTEROVS : null;
            if (rule == null) {
                return refused("the updater " + config.getClass().getSimpleName() + " (of " + describe(first) + ") runs in"
                        + " DL4J on the host; the device applies Sgd and Nesterovs");
            }
            if (block.getParamOffsetStart() != next) {
                return refused("parameters " + next + " to " + block.getParamOffsetStart() + " belong to no updater block");
            }
            long stateCount = (long) block.getUpdaterViewOffsetEnd() - block.getUpdaterViewOffsetStart();
            if (stateCount != (rule == Rule.NESTEROVS ? count : 0)) {
                return refused("the updater state of " + describe(first) + " has " + stateCount + " values where "
                        + rule + " keeps " + (rule == Rule.NESTEROVS ? count : 0));
            }
            segments.add(new Segment(block.getParamOffsetStart(), count, block.getUpdaterViewOffsetStart(), rule));
            configs.add(config);
            next = block.getParamOffsetEnd();
            stateEnd = Math.max(stateEnd, block.getUpdaterViewOffsetEnd());
        }
        if (next != net.numParams()) {
            return refused("the updater blocks cover " + next + " of the network's " + net.numParams() + " parameters");
        }
        return new DeviceUpdater(segments, configs, stateEnd, null);
    }

    /** Why a block's arithmetic is more than its updater's rule (regularization, gradient normalization), or null. */
    private static String unsupported(UpdaterBlock block) {
        for (UpdaterBlock.ParamState state : block.getLayersAndVariablesInBlock()) {
            TrainingConfig config = state.getLayer().getConfig();
            if (config == null) {
                return describe(state) + " has no training configuration";
            }
            GradientNormalization normalization = config.getGradientNormalization();
            if (normalization != null && normalization != GradientNormalization.None) {
                return describe(state) + " normalizes gradients (" + normalization + "), which DL4J's updater does on the host";
            }
            List<Regularization> regularization = config.getRegularizationByParam(state.getParamName());
            if (regularization != null && !regularization.isEmpty()) {
                return describe(state) + " is regularized (" + regularization.get(0).getClass().getSimpleName()
                        + "), which DL4J's updater applies on the host";
            }
        }
        return null;
    }

    private static String describe(UpdaterBlock.ParamState state) {
        Trainable layer = state.getLayer();
        String name = layer.getConfig() == null ? null : layer.getConfig().getLayerName();
        return "parameter " + state.getParamName() + " of layer " + (name != null ? name : layer.getClass().getSimpleName());
    }

    private static DeviceUpdater refused(String why) {
        return new DeviceUpdater(List.of(), List.of(), 0, why);
    }

    /** Null when a device can apply this updater; else why DL4J's updater has to run on the host. */
    public String whyNot() {
        return whyNot;
    }

    /** The parameter ranges the device updates, each with its updater's settings. */
    public List<Segment> segments() {
        return segments;
    }

    /** Length of the updater's state array (0 for SGD alone). */
    public long stateLength() {
        return stateLength;
    }

    /** Each segment's learning rate and momentum at a step, as DL4J's updaters compute them. */
    public Rates rates(int iteration, int epoch) {
        float[] lr = new float[configs.size()];
        float[] momentum = new float[configs.size()];
        for (int i = 0; i < configs.size(); i++) {
            IUpdater c = configs.get(i);
            lr[i] = (float) c.getLearningRate(iteration, epoch);
            if (c instanceof Nesterovs n) {
                momentum[i] = (float) n.currentMomentum(iteration, epoch);
            }
        }
        return new Rates(lr, momentum);
    }
}
