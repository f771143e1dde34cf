package org.dpdl4j.attacks.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.attacks.network.OutputHead;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The matching loss and its gradient, in double precision: zero at the true example (so the graph's forward
 * and backward passes equal DL4J's), gradient equal to central finite differences, and both engines equal.
 */
class GradientMatchingTest {
    private static final DataType D = DataType.DOUBLE;

    static Stream<Arguments> networks() {
        return Stream.of(
                Arguments.of("softmax regression", TestNetworks.softmaxRegression(12, 4, 1, D)),
                Arguments.of("logistic", TestNetworks.logistic(12, 2, D)),
                Arguments.of("least squares", TestNetworks.leastSquares(12, 4, 9, D)),
                Arguments.of("mlp sigmoid", TestNetworks.mlp(12, new int[] {7, 5}, 4, Activation.SIGMOID, 3, D)),
                Arguments.of("mlp tanh", TestNetworks.mlp(12, new int[] {6}, 3, Activation.TANH, 4, D)),
                Arguments.of("mlp relu", TestNetworks.mlp(12, new int[] {9, 6}, 4, Activation.RELU, 5, D)),
                Arguments.of("mlp identity", TestNetworks.mlp(12, new int[] {5}, 3, Activation.IDENTITY, 6, D)),
                Arguments.of("cnn", TestNetworks.tinyCnn(2, 6, 3, 7, D)),
                Arguments.of("cnn, asymmetric padding and dilation", TestNetworks.asymmetricCnn(1, 6, 3, 8, D)),
                Arguments.of("cnn, max pooling", TestNetworks.pooledCnn(
                        org.deeplearning4j.nn.conf.layers.SubsamplingLayer.PoolingType.MAX, 2, 9, 3, 9, D)),
                Arguments.of("cnn, average pooling", TestNetworks.pooledCnn(
                        org.deeplearning4j.nn.conf.layers.SubsamplingLayer.PoolingType.AVG, 1, 9, 4, 10, D)));
    }

    private static boolean pooled(TargetNetwork target) {
        return target.stages().stream().anyMatch(s -> s instanceof org.dpdl4j.attacks.network.ConvolutionStage c && c.isPooled());
    }

    /** Soft labels (for softmax: rows summing to one; for sigmoid: independent probabilities). */
    private static INDArray softLabels(TargetNetwork target, int batch, Random random) {
        INDArray logits = Nd4j.zeros(D, batch, target.outputSize());
        for (int i = 0; i < logits.length(); i++) {
            logits.putScalar(i, random.nextGaussian());
        }
        return target.head().apply(logits);
    }

    private static INDArray randomInputs(int batch, long size, Random random) {
        INDArray x = Nd4j.zeros(D, batch, size);
        for (int i = 0; i < x.length(); i++) {
            x.putScalar(i, random.nextGaussian());
        }
        return x;
    }

    /** The point (x, log y, log scale) that reproduces a gradient computed at (x, y) exactly. */
    private static double[] truePoint(UnknownLayout layout, OutputHead head, INDArray x, INDArray y, double scale) {
        double[] point = new double[layout.dimension()];
        double[] xs = x.dup('c').reshape(x.length()).toDoubleVector();
        System.arraycopy(xs, 0, point, 0, xs.length);
        if (layout.optimisesLabels()) {
            // softmax(log y) = y when rows sum to 1; sigmoid(logit y) = y; the identity head takes y itself.
            INDArray u = y.dup();
            for (int i = 0; i < u.length() && head != OutputHead.IDENTITY_HALF_SQUARED_ERROR; i++) {
                double v = y.getDouble(i);
                u.putScalar(i, y.size(1) == 1 ? Math.log(v / (1 - v)) : Math.log(v));
            }
            double[] us = u.dup('c').reshape(u.length()).toDoubleVector();
            System.arraycopy(us, 0, point, layout.labelOffset(), us.length);
        }
        if (layout.fittedScale()) {
            point[layout.scaleOffset()] = Math.log(scale);
        }
        return point;
    }

    private static List<LayerGradient> scaledTarget(TargetNetwork target, MultiLayerNetwork net, INDArray x,
                                                    INDArray y, double factor) {
        INDArray sum = NetworkGradients.sumOverBatch(net, x, y);
        return target.split(sum.muli(factor));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("networks")
    void vanishesAtTheTrueExample(String name, MultiLayerNetwork net) {
        TargetNetwork target = TargetNetwork.of(net);
        Random random = new Random(11);
        for (int batch : new int[] {1, 3}) {
            INDArray x = randomInputs(batch, target.inputSize(), random);
            INDArray y = softLabels(target, batch, random);
            // DL4J returns the batch sum; the objective matches the gradient of the batch mean.
            List<LayerGradient> mean = scaledTarget(target, net, x, y, 1.0 / batch);
            List<LayerGradient> scaled = scaledTarget(target, net, x, y, 2.5 / batch);
            for (MatchingEngine engine : List.of(MatchingEngine.JAVA, MatchingEngine.CLOSED_FORM, MatchingEngine.SAMEDIFF)) {
                if (engine == MatchingEngine.CLOSED_FORM && !target.isDenseOnly()
                        || engine == MatchingEngine.SAMEDIFF && pooled(target)) {
                    continue;
                }
                for (MatchingProblem problem : List.of(
                        new MatchingProblem(target, mean, batch, LabelTreatment.optimised(), false),
                        new MatchingProblem(target, mean, batch, LabelTreatment.fixed(y), false),
                        new MatchingProblem(target, scaled, batch, LabelTreatment.optimised(), true))) {
                    MatchingObjective objective = engine.create(problem, D);
                    double[] point = truePoint(problem.layout(), target.head(), x, y, 2.5);
                    double[] gradient = new double[point.length];
                    double atTruth = objective.evaluate(point, gradient);
                    double norm = mean.stream().mapToDouble(LayerGradient::squaredNorm).sum();
                    assertTrue(atTruth <= 1e-20 * Math.max(1, norm), name + " " + engine + " batch " + batch
                            + ": D at the true example is " + atTruth + " (gradient norm^2 " + norm + ")");
                    assertTrue(maxAbs(gradient) < 1e-8, name + " " + engine + ": gradient at the optimum "
                            + maxAbs(gradient));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("networks")
    void gradientEqualsFiniteDifferences(String name, MultiLayerNetwork net) {
        TargetNetwork target = TargetNetwork.of(net);
        Random random = new Random(12);
        int batch = 2;
        INDArray x = randomInputs(batch, target.inputSize(), random);
        INDArray y = softLabels(target, batch, random);
        List<LayerGradient> observed = scaledTarget(target, net, x, y, 0.7);
        MatchingProblem problem = new MatchingProblem(target, observed, batch, LabelTreatment.optimised(), true);
        UnknownLayout layout = problem.layout();
        double[] point = new double[layout.dimension()];
        for (int i = 0; i < point.length; i++) {
            point[i] = random.nextGaussian();
        }
        point[layout.scaleOffset()] = 0.3;
        MatchingObjective java = MatchingEngine.JAVA.create(problem, D);
        double[] gradient = new double[point.length];
        double value = java.evaluate(point, gradient);
        assertTrue(value > 0, "a random point should not match");
        assertMatchesFiniteDifferences(name, java, point, gradient, random);

        // The other engines, where they apply, give the same value and gradient.
        List<MatchingEngine> others = new java.util.ArrayList<>();
        if (!pooled(target)) {
            others.add(MatchingEngine.SAMEDIFF);
        }
        if (target.isDenseOnly()) {
            others.add(MatchingEngine.CLOSED_FORM);
        }
        for (MatchingEngine engine : others) {
            double[] otherGradient = new double[point.length];
            double otherValue = engine.create(problem, D).evaluate(point, otherGradient);
            assertEquals(value, otherValue, 1e-10 * Math.abs(value), name + ": " + engine + " vs java value");
            for (int i = 0; i < point.length; i++) {
                assertEquals(gradient[i], otherGradient[i], 1e-9 * Math.max(1, Math.abs(gradient[i])),
                        name + ": " + engine + " vs java gradient at " + i);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("networks")
    void cosineDistanceIsScaleFreeZeroAtTheTruthAndDifferentiatedExactly(String name, MultiLayerNetwork net) {
        TargetNetwork target = TargetNetwork.of(net);
        Random random = new Random(13);
        int batch = 2;
        INDArray x = randomInputs(batch, target.inputSize(), random);
        INDArray y = softLabels(target, batch, random);
        MatchingProblem problem = new MatchingProblem(target, scaledTarget(target, net, x, y, 3.7), batch,
                LabelTreatment.optimised(), false);
        double[] point = new double[problem.layout().dimension()];
        for (int i = 0; i < point.length; i++) {
            point[i] = random.nextGaussian();
        }
        for (MatchingLoss loss : List.of(MatchingLoss.COSINE_DISTANCE, MatchingLoss.LAYERWISE_COSINE_DISTANCE)) {
            MatchingObjective cosine = MatchingEngine.JAVA.create(problem, D, loss);
            double[] atTruth = truePoint(problem.layout(), target.head(), x, y, 1.0);
            double[] gradient = new double[atTruth.length];
            assertEquals(0.0, cosine.evaluate(atTruth, gradient), 1e-12, name + " " + loss + ": a gradient 3.7 times the"
                    + " true one");
            double value = cosine.evaluate(point, gradient);
            assertTrue(value > 0 && value <= 2, name + ": " + loss + " " + value);
            assertMatchesFiniteDifferences(name + " (" + loss + ")", cosine, point, gradient, random);
        }
    }

    private static void assertMatchesFiniteDifferences(String name, MatchingObjective objective, double[] point,
                                                       double[] gradient, Random random) {
        UnknownLayout layout = objective.layout();
        int[] probes = new int[12];
        for (int i = 0; i < 8; i++) {
            probes[i] = random.nextInt(layout.labelOffset());
        }
        probes[8] = layout.optimisesLabels() ? layout.labelOffset() : 0;
        probes[9] = layout.optimisesLabels() ? layout.labelOffset() + (int) layout.labelSize() - 1 : 1;
        probes[10] = layout.labelOffset() - 1;
        probes[11] = layout.fittedScale() ? layout.scaleOffset() : layout.dimension() - 1;
        double h = 1e-6;
        for (int i : probes) {
            double[] plus = point.clone();
            double[] minus = point.clone();
            plus[i] += h;
            minus[i] -= h;
            double[] ignored = new double[point.length];
            double numeric = (objective.evaluate(plus, ignored) - objective.evaluate(minus, ignored)) / (2 * h);
            assertEquals(numeric, gradient[i], 1e-6 * Math.max(1, Math.abs(numeric)),
                    name + ": dD/dz[" + i + "] analytic " + gradient[i] + " vs finite difference " + numeric);
        }
    }

    @Test
    void closedFormRefusesConvolutions() {
        TargetNetwork target = TargetNetwork.of(TestNetworks.tinyCnn(1, 6, 3, 1, D));
        INDArray flat = Nd4j.zeros(D, 1, target.numParams());
        MatchingProblem problem = new MatchingProblem(target, target.split(flat), 1, LabelTreatment.optimised(), false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MatchingEngine.CLOSED_FORM.create(problem, D));
        assertTrue(e.getMessage().contains("samediff"), e.getMessage());
    }

    private static double maxAbs(double[] v) {
        double m = 0;
        for (double d : v) {
            m = Math.max(m, Math.abs(d));
        }
        return m;
    }
}
