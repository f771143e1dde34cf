package org.dpdl4j.optim;

import org.deeplearning4j.nn.conf.GradientNormalization;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.constraint.MaxNormConstraint;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.learning.config.IUpdater;
import org.nd4j.linalg.learning.config.Nesterovs;
import org.nd4j.linalg.learning.config.Sgd;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;
import org.nd4j.linalg.schedule.ScheduleType;
import org.nd4j.linalg.schedule.StepSchedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DL4J's updater blocks as device segments, each step's rates, and the refusals that keep the updater on the host. */
class DeviceUpdaterTest {

    private static MultiLayerNetwork net(IUpdater updater, IUpdater outputUpdater,
                                         UnaryOperator<NeuralNetConfiguration.Builder> global) {
        OutputLayer.Builder out = new OutputLayer.Builder(LossFunction.MCXENT).nIn(6).nOut(3).activation(Activation.SOFTMAX);
        if (outputUpdater != null) {
            out.updater(outputUpdater);
        }
        MultiLayerNetwork net = new MultiLayerNetwork(global.apply(new NeuralNetConfiguration.Builder().seed(1)
                        .dataType(DataType.FLOAT).updater(updater)).list()
                .layer(new DenseLayer.Builder().nIn(5).nOut(6).activation(Activation.TANH).build())
                .layer(out.build()).build());
        net.init();
        return net;
    }

    @Test
    void sgdAndNesterovsBecomeSegmentsCoveringEveryParameter() {
        DeviceUpdater sgd = DeviceUpdater.of(net(new Sgd(0.1), null, b -> b));
        assertNull(sgd.whyNot());
        assertEquals(List.of(new DeviceUpdater.Segment(0, 57, 0, DeviceUpdater.Rule.SGD)), sgd.segments());
        assertEquals(0, sgd.stateLength());

        // the output layer on its own updater: a second block, whose momentum follows the first block's (empty) state
        DeviceUpdater mixed = DeviceUpdater.of(net(new Sgd(0.1), new Nesterovs(0.05, 0.8), b -> b));
        assertNull(mixed.whyNot());
        assertEquals(List.of(new DeviceUpdater.Segment(0, 36, 0, DeviceUpdater.Rule.SGD),
                new DeviceUpdater.Segment(36, 21, 0, DeviceUpdater.Rule.NESTEROVS)), mixed.segments());
        assertEquals(21, mixed.stateLength());
        DeviceUpdater.Rates r = mixed.rates(0, 0);
        assertArrayEquals(new float[]{0.1f, 0.05f}, r.learningRates());
        assertArrayEquals(new float[]{0f, 0.8f}, r.momenta());
    }

    @Test
    void ratesFollowTheSchedules() {
        DeviceUpdater scheduled = DeviceUpdater.of(net(new Nesterovs(new StepSchedule(ScheduleType.ITERATION, 0.1, 0.5, 3), 0.9),
                null, b -> b));
        assertArrayEquals(new float[]{0.1f}, scheduled.rates(2, 0).learningRates());
        assertArrayEquals(new float[]{0.05f}, scheduled.rates(3, 0).learningRates());
        assertArrayEquals(new float[]{0.9f}, scheduled.rates(3, 0).momenta());
    }

    @Test
    void whatDl4jAppliesBesidesTheRuleKeepsTheUpdaterOnTheHost() {
        assertTrue(DeviceUpdater.of(net(new Adam(0.01), null, b -> b)).whyNot().contains("Adam"));
        assertTrue(DeviceUpdater.of(net(new Sgd(0.1), null, b -> b.l2(1e-4))).whyNot().contains("regularized"));
        assertTrue(DeviceUpdater.of(net(new Sgd(0.1), null, b -> b.weightDecay(1e-4))).whyNot().contains("regularized"));
        assertTrue(DeviceUpdater.of(net(new Sgd(0.1), null,
                b -> b.gradientNormalization(GradientNormalization.ClipL2PerLayer))).whyNot().contains("normalizes gradients"));
        assertTrue(DeviceUpdater.of(net(new Sgd(0.1), null, b -> b.constrainWeights(new MaxNormConstraint(1.0, 1))))
                .whyNot().contains("constraints"));
    }
}
