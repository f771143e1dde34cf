package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.CNN2DFormat;
import org.deeplearning4j.nn.conf.layers.ActivationLayer;
import org.deeplearning4j.nn.conf.layers.BaseLayer;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.DropoutLayer;
import org.deeplearning4j.nn.conf.layers.EmbeddingLayer;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.conf.layers.GlobalPoolingLayer;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.LocalResponseNormalization;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.conf.layers.Upsampling2D;
import org.deeplearning4j.nn.conf.layers.ZeroPaddingLayer;
import org.deeplearning4j.nn.conf.layers.convolutional.Cropping2D;
import org.dpdl4j.nn.ModelProblem;
import org.nd4j.linalg.lossfunctions.ILossFunction;
import org.nd4j.linalg.lossfunctions.impl.LossFMeasure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which DL4J layer types per-example clipping understands, and how: one {@link Factory} per layer configuration
 * class (matched exactly - a subclass such as {@code Deconvolution2D} computes something else), and an explained
 * refusal for types that cannot be clipped per example. Immutable: {@link #with} and {@link #refusing} return a
 * new registry, so a user's additions never leak into another network's.
 *
 * <p>{@link #standard()} covers {@code DenseLayer}, {@code OutputLayer}, {@code LossLayer}, 2-D
 * {@code ConvolutionLayer} (NCHW), {@code EmbeddingLayer}, and the per-example layers without parameters
 * ({@code SubsamplingLayer}, {@code ActivationLayer}, {@code DropoutLayer}, {@code ZeroPaddingLayer},
 * {@code Cropping2D}, {@code Upsampling2D}, {@code GlobalPoolingLayer}, {@code LocalResponseNormalization});
 * input preprocessors are handled by the engine. {@code BatchNormalization} is refused: it mixes the examples of a
 * batch.
 */
public final class ExampleLayerRegistry {
    /** Builds the per-example view of one layer, or files its problems and returns {@code null}. */
    @FunctionalInterface
    public interface Factory {
        ExampleLayer create(LayerContext context, List<ModelProblem> problems);
    }

    private record Refusal(String problem, String fix) {
    }

    private final Map<Class<? extends Layer>, Factory> factories;
    private final Map<Class<? extends Layer>, Refusal> refusals;
    /** The types whose handling differs from the standard registry's (added, replaced or refused by the user). */
    private final Set<Class<? extends Layer>> customised;

    private ExampleLayerRegistry(Map<Class<? extends Layer>, Factory> factories, Map<Class<? extends Layer>, Refusal> refusals,
                                 Set<Class<? extends Layer>> customised) {
        this.factories = Map.copyOf(factories);
        this.refusals = Map.copyOf(refusals);
        this.customised = Set.copyOf(customised);
    }

    /** The standard layers, convolutions choosing the cheaper norm computation per layer and batch. */
    public static ExampleLayerRegistry standard() {
        return standard(NormStrategy.CHEAPER);
    }

    /** The standard layers with convolution norms computed as {@code strategy} says. */
    public static ExampleLayerRegistry standard(NormStrategy strategy) {
        Objects.requireNonNull(strategy, "strategy");
        Map<Class<? extends Layer>, Factory> f = new LinkedHashMap<>();
        f.put(DenseLayer.class, ExampleLayerRegistry::dense);
        f.put(OutputLayer.class, ExampleLayerRegistry::output);
        f.put(LossLayer.class, ExampleLayerRegistry::lossLayer);
        f.put(ConvolutionLayer.class, (c, p) -> convolution(c, p, strategy));
        f.put(EmbeddingLayer.class, (c, p) -> new EmbeddingExampleLayer(c));
        for (Class<? extends Layer> type : List.of(SubsamplingLayer.class, ActivationLayer.class, DropoutLayer.class,
                ZeroPaddingLayer.class, Cropping2D.class, Upsampling2D.class, GlobalPoolingLayer.class,
                LocalResponseNormalization.class)) {
            f.put(type, (c, p) -> new DelegatedExampleLayer(c));
        }
        Map<Class<? extends Layer>, Refusal> r = new LinkedHashMap<>();
        r.put(BatchNormalization.class, new Refusal("batch normalization mixes the examples of a batch (each output"
                + " depends on the batch mean and variance), so no example's gradient is its own and clipping it does"
                + " not bound that example's influence", "remove it: standardise the inputs once instead and use"
                + " bounded activations such as tanh, as private CNNs usually do"));
        // Another norm strategy is a choice a device engine would not honour: count convolutions as customised.
        return new ExampleLayerRegistry(f, r, strategy == NormStrategy.CHEAPER ? Set.of() : Set.of(ConvolutionLayer.class));
    }

    /** A registry that also handles {@code type} with {@code factory} (replacing what handled it before). */
    public ExampleLayerRegistry with(Class<? extends Layer> type, Factory factory) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(factory, "factory");
        Map<Class<? extends Layer>, Factory> f = new LinkedHashMap<>(factories);
        f.put(type, factory);
        Map<Class<? extends Layer>, Refusal> r = new LinkedHashMap<>(refusals);
        r.remove(type);
        return new ExampleLayerRegistry(f, r, withType(type));
    }

    /** A registry that refuses {@code type}, saying why and what to do instead. */
    public ExampleLayerRegistry refusing(Class<? extends Layer> type, String problem, String fix) {
        Objects.requireNonNull(type, "type");
        Map<Class<? extends Layer>, Factory> f = new LinkedHashMap<>(factories);
        f.remove(type);
        Map<Class<? extends Layer>, Refusal> r = new LinkedHashMap<>(refusals);
        r.put(type, new Refusal(Objects.requireNonNull(problem, "problem"), Objects.requireNonNull(fix, "fix")));
        return new ExampleLayerRegistry(f, r, withType(type));
    }

    private Set<Class<? extends Layer>> withType(Class<? extends Layer> type) {
        Set<Class<? extends Layer>> c = new java.util.HashSet<>(customised);
        c.add(type);
        return c;
    }

    /**
     * Whether every layer in {@code types} is handled exactly as by {@link #standard()}: then an engine specialised for
     * the standard layers (the dense host engine, a device engine) computes the same as this registry would.
     */
    public boolean handlesAsStandard(java.util.Collection<Class<? extends Layer>> types) {
        return types.stream().noneMatch(customised::contains);
    }

    /** The layer types this registry handles. */
    public Set<Class<? extends Layer>> supported() {
        return factories.keySet();
    }

    /**
     * The per-example view of a layer, or {@code null} with its problems added to {@code problems}: the layer type is
     * refused or unknown, or it uses an option the batched pass cannot reproduce.
     */
    public ExampleLayer create(LayerContext context, List<ModelProblem> problems) {
        Layer layer = context.layer();
        Refusal refusal = refusals.get(layer.getClass());
        if (refusal != null) {
            problems.add(context.problem(refusal.problem(), refusal.fix()));
            return null;
        }
        Factory factory = factories.get(layer.getClass());
        if (factory == null) {
            problems.add(context.problem("layer type " + layer.getClass().getSimpleName() + " is not supported by"
                    + " per-example clipping", "use one of " + supportedNames() + ", or register a factory for it"
                    + " with ExampleLayerRegistry.with(...)"));
            return null;
        }
        int before = problems.size();
        commonProblems(context, problems);
        ExampleLayer created = factory.create(context, problems);
        return problems.size() > before ? null : created;
    }

    private String supportedNames() {
        return factories.keySet().stream().map(Class::getSimpleName).sorted().collect(Collectors.joining(", "));
    }

    /** Options that make any layer with parameters more than its deterministic computation. */
    private static void commonProblems(LayerContext context, List<ModelProblem> problems) {
        Layer layer = context.layer();
        boolean parameterised = context.parameters().count() > 0;
        if (parameterised && layer.getIDropout() != null) {
            problems.add(context.problem("dropOut(...) on a layer with parameters is applied inside DL4J's layer,"
                    + " which the batched per-example pass does not run", "put a DropoutLayer before this layer instead"));
        }
        if (layer instanceof BaseLayer base && base.getWeightNoise() != null) {
            problems.add(context.problem("weight noise perturbs the weights randomly on every pass, which the batched"
                    + " per-example pass does not reproduce", "remove weightNoise(...)"));
        }
        if (layer instanceof BaseLayer base && layer instanceof FeedForwardLayer ff && base.getActivationFn() != null
                && base.getActivationFn().numParams((int) Math.max(1, ff.getNIn())) > 0) {
            problems.add(context.problem("activation " + base.getActivationFn() + " has trainable parameters",
                    "use an activation without parameters"));
        }
    }

    private static ExampleLayer dense(LayerContext c, List<ModelProblem> problems) {
        DenseLayer conf = (DenseLayer) c.layer();
        if (conf.hasLayerNorm()) {
            problems.add(c.problem("layer normalization is not supported", "remove hasLayerNorm(true)"));
            return null;
        }
        return new DenseExampleLayer(c, conf.getActivationFn(), conf.hasBias(), conf.getNIn());
    }

    private static ExampleLayer output(LayerContext c, List<ModelProblem> problems) {
        OutputLayer conf = (OutputLayer) c.layer();
        return perExampleLoss(c, conf.getLossFn(), problems)
                ? new OutputExampleLayer(c, conf.getActivationFn(), conf.hasBias(), conf.getNIn(), conf.getLossFn()) : null;
    }

    private static ExampleLayer lossLayer(LayerContext c, List<ModelProblem> problems) {
        LossLayer conf = (LossLayer) c.layer();
        return perExampleLoss(c, conf.getLossFn(), problems) ? new LossExampleLayer(c, conf.getActivationFn(), conf.getLossFn()) : null;
    }

    private static boolean perExampleLoss(LayerContext c, ILossFunction loss, List<ModelProblem> problems) {
        if (loss instanceof LossFMeasure) {
            problems.add(c.problem("the F-measure loss is computed over the whole batch, not per example",
                    "use a per-example loss such as MCXENT, XENT or MSE"));
            return false;
        }
        return true;
    }

    private static ExampleLayer convolution(LayerContext c, List<ModelProblem> problems, NormStrategy strategy) {
        ConvolutionLayer conf = (ConvolutionLayer) c.layer();
        if (conf.getCnn2dDataFormat() != CNN2DFormat.NCHW) {
            problems.add(c.problem("data format " + conf.getCnn2dDataFormat() + " is not supported",
                    "use the default NCHW layout (dataFormat(CNN2DFormat.NCHW))"));
            return null;
        }
        return new ConvolutionExampleLayer(c, strategy);
    }
}
