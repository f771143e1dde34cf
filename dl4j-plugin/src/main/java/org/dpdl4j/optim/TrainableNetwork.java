package org.dpdl4j.optim;

import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.gradient.DefaultGradient;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.graph.vertex.GraphVertex;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.dpdl4j.optim.layers.ExampleLayerRegistry;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Map;

/**
 * What a private step needs from a DL4J network, for a {@link MultiLayerNetwork} and a {@link ComputationGraph}
 * alike: its parameters and gradient view, the gradient keyed as DL4J's backprop keys it, its own updater, its
 * counters, its listeners and its constraints.
 */
abstract sealed class TrainableNetwork {
    /** The network's flattened gradient view as a DL4J {@link Gradient}, keyed like its backprop keys it. */
    final Gradient gradient;

    private TrainableNetwork(Gradient gradient) {
        this.gradient = gradient;
    }

    static TrainableNetwork of(MultiLayerNetwork net, ComputeDevice device) {
        return of(net, device, ExampleLayerRegistry.standard());
    }

    /** A network whose layers {@code layers} clips per example, on {@code device}. */
    static TrainableNetwork of(MultiLayerNetwork net, ComputeDevice device, ExampleLayerRegistry layers) {
        return new Layers(net, device, layers);
    }

    /** A network whose per-example clipping runs on an engine the caller opened (the network takes it over). */
    static TrainableNetwork of(MultiLayerNetwork net, ExampleGradients engine) {
        TrainableNetwork t = new Layers(net, ComputeDevice.CPU, ExampleLayerRegistry.standard());
        t.useEngine(engine);
        return t;
    }

    static TrainableNetwork of(ComputationGraph graph, ComputeDevice device) {
        return of(graph, device, ExampleLayerRegistry.standard());
    }

    /** A graph whose layers {@code layers} clips per example, on {@code device}. */
    static TrainableNetwork of(ComputationGraph graph, ComputeDevice device, ExampleLayerRegistry layers) {
        return new Graph(graph, device, layers);
    }

    abstract Model model();

    private ExampleGradients engine;
    private ComputeDevice device;

    /** The per-example engine for the device chosen last. */
    final ExampleGradients engine() {
        if (engine == null) {
            throw new IllegalStateException("this private step's engine is closed: build a new optimizer or trainer");
        }
        return engine;
    }

    /**
     * Computes the per-example clipping on {@code device} from now on (the engine of another device is closed).
     *
     * @throws DeviceUnavailableException when that device cannot compute this network here
     */
    final void useDevice(ComputeDevice newDevice) {
        java.util.Objects.requireNonNull(newDevice, "device: ComputeDevice.AUTO, CPU, CUDA or cuda(n)");
        if (newDevice.equals(device)) {
            return;
        }
        ExampleGradients next = engineFor(newDevice);
        closeEngine();
        engine = next;
        device = newDevice;
    }

    /** Computes the per-example clipping on {@code given} from now on (the engine before is closed). */
    final void useEngine(ExampleGradients given) {
        closeEngine();
        engine = java.util.Objects.requireNonNull(given, "engine");
        device = null;
    }

    /** Releases what the engine holds (device memory); a later step needs {@link #useDevice} again. */
    final void closeEngine() {
        if (engine instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the per-example engine failed: " + e.getMessage(), e);
            }
        }
        engine = null;
        device = null;
    }

    abstract ExampleGradients engineFor(ComputeDevice device);

    abstract INDArray params();

    abstract INDArray gradientView();

    /** The network's DL4J listeners, less the {@link PrivateTrainingGuard} (which only DL4J's own training calls). */
    final Collection<TrainingListener> listeners() {
        Collection<TrainingListener> all = allListeners();
        if (guard == null || !all.contains(guard)) {
            return all;
        }
        List<TrainingListener> others = new ArrayList<>(all);
        others.remove(guard);
        return others;
    }

    abstract Collection<TrainingListener> allListeners();

    abstract void setListeners(Collection<TrainingListener> listeners);

    private PrivateTrainingGuard guard;

    /** Puts a {@link PrivateTrainingGuard} on the network, which refuses DL4J's own training of it. */
    final void guard() {
        if (guard == null) {
            guard = new PrivateTrainingGuard(model());
        }
        keepGuarded();
    }

    /** Puts the guard back when the caller replaced the listeners ({@code net.setListeners(...)}) since. */
    final void keepGuarded() {
        if (guard != null && !allListeners().contains(guard)) {
            List<TrainingListener> withGuard = new ArrayList<>(allListeners());
            withGuard.add(guard);
            setListeners(withGuard);
        }
    }

    /** Takes the guard off: DL4J's training of the network is no longer refused. */
    final void unguard() {
        if (guard != null && allListeners().contains(guard)) {
            setListeners(listeners());
        }
        guard = null;
    }

    /**
     * Sets the network's input and labels to the step's batch, as {@code fit} does, for listeners that read them (the
     * batch size of DL4J's {@code StatsListener}, for one).
     */
    abstract void showBatch(INDArray features, INDArray labels);

    /** Lets go of the batch after the step's listeners ran. */
    abstract void clearBatch();

    /** The network's updater as DL4J calls it, and the object that identifies it. */
    abstract Object updater();

    /** DL4J's full updater call on the gradient already divided by the batch size (hence batch size 1). */
    abstract void fullUpdate(int iteration, int epoch);

    private UpdaterBlocks blocks;

    /**
     * DL4J's updater on the gradient already divided by the batch size: its blocks directly when that is the same
     * arithmetic ({@link UpdaterBlocks}), its full update otherwise.
     */
    final void update(int iteration, int epoch) {
        Object updater = updater();
        if (blocks != null && blocks.belongTo(updater, gradientView())) {
            blocks.apply(iteration, epoch);
            return;
        }
        fullUpdate(iteration, epoch);
        blocks = UpdaterBlocks.of(updater, gradientView());
    }

    abstract int iteration();

    abstract int epoch();

    abstract void setIteration(int iteration);

    /** Calls the listeners' {@code onForwardPass} with the activations a plain training-mode forward pass gives. */
    abstract void announceForwardPass(INDArray features, Collection<TrainingListener> listeners);

    abstract void setScore(double score);

    /** Sets the network's gradient to the privatised one, for listeners that read {@code model.gradient()}. */
    abstract void showGradient();

    abstract void incrementEpoch();

    final void applyConstraints(int iteration, int epoch) {
        model().applyConstraints(iteration, epoch);
    }

    private static final class Layers extends TrainableNetwork {
        private final MultiLayerNetwork net;
        private final ExampleLayerRegistry layers;
        Layers(MultiLayerNetwork net, ComputeDevice device, ExampleLayerRegistry layers) {
            super(keyed(net));
            this.net = net;
            this.layers = Objects.requireNonNull(layers, "layer registry");
            useDevice(device);
        }

        private static Gradient keyed(MultiLayerNetwork net) {
            if (net.getGradientsViewArray() == null) {
                net.initGradientsView();
            }
            Gradient g = new DefaultGradient(net.getGradientsViewArray());
            for (int i = 0; i < net.getnLayers(); i++) {
                NeuralNetConfiguration conf = net.getLayerWiseConfigurations().getConf(i);
                Map<String, INDArray> views = conf.getLayer().initializer()
                        .getGradientsFromFlattened(conf, net.getLayer(i).getGradientsViewArray());
                for (Map.Entry<String, INDArray> e : views.entrySet()) {
                    g.setGradientFor(i + "_" + e.getKey(), e.getValue());
                }
            }
            return g;
        }

        @Override
        Model model() {
            return net;
        }

        @Override
        ExampleGradients engineFor(ComputeDevice device) {
            return ExampleGradients.of(net, device, layers);
        }

        @Override
        INDArray params() {
            return net.params();
        }

        @Override
        INDArray gradientView() {
            return net.getGradientsViewArray();
        }

        @Override
        Collection<TrainingListener> allListeners() {
            Collection<TrainingListener> l = net.getListeners();
            return l == null ? List.of() : l;
        }

        @Override
        void setListeners(Collection<TrainingListener> listeners) {
            net.setListeners(listeners);
        }

        @Override
        void showBatch(INDArray features, INDArray labels) {
            net.setInput(features);
            net.setLabels(labels);
        }

        @Override
        void clearBatch() {
            net.setInput(null);
            net.setLabels(null);
        }

        @Override
        Object updater() {
            return net.getUpdater();
        }

        @Override
        void fullUpdate(int iteration, int epoch) {
            net.getUpdater().update(net, gradient, iteration, epoch, 1, LayerWorkspaceMgr.noWorkspaces());
        }

        @Override
        int iteration() {
            return net.getIterationCount();
        }

        @Override
        int epoch() {
            return net.getEpochCount();
        }

        @Override
        void setIteration(int iteration) {
            net.getLayerWiseConfigurations().setIterationCount(iteration);
        }

        @Override
        void setScore(double score) {
            net.setScore(score);
        }

        @Override
        void showGradient() {
            net.setGradient(gradient);
        }

        @Override
        void incrementEpoch() {
            net.incrementEpochCount();
        }

        @Override
        void announceForwardPass(INDArray features, Collection<TrainingListener> listeners) {
            // DL4J's computeGradientAndScore stops its forward pass before the output layer; so does this.
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                List<INDArray> all = net.feedForward(features, true);
                net.setInput(null);
                List<INDArray> activations = new ArrayList<>(all.subList(0, all.size() - 1));
                for (TrainingListener listener : listeners) {
                    listener.onForwardPass(net, activations);
                }
            }
        }
    }

    private static final class Graph extends TrainableNetwork {
        private final ComputationGraph graph;
        private final ExampleLayerRegistry layers;
        Graph(ComputationGraph graph, ComputeDevice device, ExampleLayerRegistry layers) {
            super(keyed(graph));
            this.graph = graph;
            this.layers = Objects.requireNonNull(layers, "layer registry");
            useDevice(device);
        }

        private static Gradient keyed(ComputationGraph graph) {
            if (graph.getGradientsViewArray() == null) {
                graph.initGradientsView();
            }
            Gradient g = new DefaultGradient(graph.getGradientsViewArray());
            for (GraphVertex v : graph.getVertices()) {
                if (!v.hasLayer() || v.getLayer().numParams() == 0) {
                    continue;
                }
                NeuralNetConfiguration conf = v.getLayer().conf();
                Map<String, INDArray> views = conf.getLayer().initializer()
                        .getGradientsFromFlattened(conf, v.getLayer().getGradientsViewArray());
                for (Map.Entry<String, INDArray> e : views.entrySet()) {
                    g.setGradientFor(v.getVertexName() + "_" + e.getKey(), e.getValue());
                }
            }
            return g;
        }

        @Override
        Model model() {
            return graph;
        }

        @Override
        ExampleGradients engineFor(ComputeDevice device) {
            return ExampleGradients.of(graph, device, layers);
        }

        @Override
        INDArray params() {
            return graph.params();
        }

        @Override
        INDArray gradientView() {
            return graph.getGradientsViewArray();
        }

        @Override
        Collection<TrainingListener> allListeners() {
            Collection<TrainingListener> l = graph.getListeners();
            return l == null ? List.of() : l;
        }

        @Override
        void setListeners(Collection<TrainingListener> listeners) {
            graph.setListeners(listeners);
        }

        @Override
        void showBatch(INDArray features, INDArray labels) {
            graph.setInputs(features);
            graph.setLabels(labels);
        }

        @Override
        void clearBatch() {
            graph.clear();
        }

        @Override
        Object updater() {
            return graph.getUpdater();
        }

        @Override
        void fullUpdate(int iteration, int epoch) {
            graph.getUpdater().update(gradient, iteration, epoch, 1, LayerWorkspaceMgr.noWorkspaces());
        }

        @Override
        int iteration() {
            return graph.getIterationCount();
        }

        @Override
        int epoch() {
            return graph.getEpochCount();
        }

        @Override
        void setIteration(int iteration) {
            graph.getConfiguration().setIterationCount(iteration);
        }

        @Override
        void setScore(double score) {
            graph.setScore(score);
        }

        @Override
        void showGradient() {
            graph.setGradient(gradient);
        }

        @Override
        void incrementEpoch() {
            graph.incrementEpochCount();
        }

        @Override
        void announceForwardPass(INDArray features, Collection<TrainingListener> listeners) {
            try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
                Map<String, INDArray> activations = graph.feedForward(features, true);
                graph.clear();
                for (TrainingListener listener : listeners) {
                    listener.onForwardPass(graph, activations);
                }
            }
        }
    }
}
