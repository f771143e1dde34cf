package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.deeplearning4j.optimize.listeners.ScoreIterationListener;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ForwardPassListenersTest {
    private static final class ReadsLayers extends BaseTrainingListener {
        @Override
        public void onForwardPass(Model model, List<INDArray> activations) {
        }
    }

    private static final class ReadsVertices extends BaseTrainingListener {
        @Override
        public void onForwardPass(Model model, Map<String, INDArray> activations) {
        }
    }

    private static final class InheritsReading extends BaseTrainingListener {
        private final ReadsLayers inner = new ReadsLayers();

        @Override
        public void onForwardPass(Model model, List<INDArray> activations) {
            inner.onForwardPass(model, activations);
        }
    }

    @Test
    void onlyListenersThatOverrideOnForwardPassOrImplementTheInterfaceAreGivenTheActivations() {
        TrainingListener direct = (TrainingListener) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{TrainingListener.class}, (p, m, a) -> null);
        ReadsLayers layers = new ReadsLayers();
        ReadsVertices vertices = new ReadsVertices();
        InheritsReading inherits = new InheritsReading();
        List<TrainingListener> all = List.of(new ScoreIterationListener(1), ParameterAverage.exponential(0.9), layers,
                vertices, inherits, direct);
        assertEquals(List.of(layers, vertices, inherits, direct), ForwardPassListeners.of(all));
        assertEquals(List.of(), ForwardPassListeners.of(List.of(new ScoreIterationListener(1))));
    }
}
