package org.dpdl4j.attacks.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.TestNetworks;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.NetworkGradients;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Matching a weighted difference of the gradients at two points ({@code a G(x; W) - b G(x; W')}, mu^2-SGD's
 * increment): zero at the true example, gradient equal to central finite differences, and the one-point objective
 * recovered with weights (1, 0).
 */
class TwoPointMatchingTest {
    private static final DataType D = DataType.DOUBLE;

    private static MultiLayerNetwork moved(MultiLayerNetwork net, long seed) {
        MultiLayerNetwork other = net.clone();
        Nd4j.getRandom().setSeed(seed);
        other.setParams(net.params().add(Nd4j.rand(D, 1, net.numParams()).subi(0.5).muli(0.2)));
        return other;
    }

    private static List<LayerGradient> difference(TargetNetwork target, MultiLayerNetwork at, MultiLayerNetwork before,
                                                  INDArray x, INDArray y, double a, double b) {
        INDArray now = NetworkGradients.sumOverBatch(at, x, y).muli(a);
        INDArray then = NetworkGradients.sumOverBatch(before, x, y).muli(b);
        return target.split(now.subi(then).divi(x.size(0)));
    }

    @Test
    void vanishesAtTheTrueExampleAndMatchesFiniteDifferences() {
        MultiLayerNetwork net = TestNetworks.mlp(9, new int[] {6, 4}, 3, Activation.SIGMOID, 2, D);
        MultiLayerNetwork previous = moved(net, 3);
        TargetNetwork target = TargetNetwork.of(net);
        Random random = new Random(5);
        INDArray x = Nd4j.rand(D, 1, 9);
        INDArray y = Nd4j.create(new double[][] {{0, 1, 0}}).castTo(D);
        double a = 7;
        double b = 6;
        SecondPoint second = new SecondPoint(TargetNetwork.of(previous), a, b);
        MatchingProblem exact = new MatchingProblem(target, difference(target, net, previous, x, y, a, b), 1,
                LabelTreatment.fixed(y), false, second);
        MatchingObjective objective = MatchingEngine.AUTO.create(exact, D);
        double[] truth = x.dup('c').reshape(9).toDoubleVector();
        double[] gradient = new double[truth.length];
        assertTrue(objective.evaluate(truth, gradient) < 1e-24, "D vanishes at the true example");
        assertTrue(objective.description().contains("two points"), objective.description());
        MatchingObjective dense = MatchingEngine.CLOSED_FORM.create(exact, D);
        assertTrue(dense.evaluate(truth, gradient) < 1e-24, "D vanishes at the true example (ND4J closed form)");

        // Unknown labels and scale, away from the truth: the analytic gradient equals central differences.
        MatchingProblem problem = new MatchingProblem(target, difference(target, net, previous, x, y, a, b), 1,
                LabelTreatment.optimised(), true, second);
        UnknownLayout layout = problem.layout();
        MatchingObjective full = MatchingEngine.CLOSED_FORM.create(problem, D);
        double[] point = new double[layout.dimension()];
        for (int i = 0; i < point.length; i++) {
            point[i] = random.nextGaussian();
        }
        double[] analytic = new double[point.length];
        full.evaluate(point, analytic);
        double h = 1e-6;
        for (int i = 0; i < point.length; i++) {
            double[] plus = point.clone();
            double[] minus = point.clone();
            plus[i] += h;
            minus[i] -= h;
            double[] ignored = new double[point.length];
            double numeric = (full.evaluate(plus, ignored) - full.evaluate(minus, ignored)) / (2 * h);
            assertEquals(numeric, analytic[i], 1e-6 * Math.max(1, Math.abs(numeric)), "dD/dz[" + i + "]");
        }
        // The plain-Java engine evaluates the same two-point objective.
        double[] java = new double[point.length];
        double javaValue = MatchingEngine.JAVA.create(problem, D).evaluate(point, java);
        assertEquals(full.evaluate(point, new double[point.length]), javaValue, 1e-10 * javaValue);
        for (int i = 0; i < point.length; i++) {
            assertEquals(analytic[i], java[i], 1e-9 * Math.max(1, Math.abs(analytic[i])), "java gradient " + i);
        }
    }

    @Test
    void weightsOneAndZeroGiveTheOnePointObjective() {
        MultiLayerNetwork net = TestNetworks.mlp(9, new int[] {5}, 3, Activation.TANH, 4, D);
        TargetNetwork target = TargetNetwork.of(net);
        INDArray observed = Nd4j.rand(D, 1, net.numParams()).subi(0.5);
        MatchingProblem one = new MatchingProblem(target, target.split(observed), 1, LabelTreatment.optimised(), true);
        MatchingProblem two = new MatchingProblem(target, target.split(observed), 1, LabelTreatment.optimised(), true,
                new SecondPoint(TargetNetwork.of(moved(net, 9)), 1.0, 0.0));
        double[] point = new Random(8).doubles(one.layout().dimension()).toArray();
        double[] g1 = new double[point.length];
        double[] g2 = new double[point.length];
        double v1 = MatchingEngine.CLOSED_FORM.create(one, D).evaluate(point, g1);
        double v2 = MatchingEngine.CLOSED_FORM.create(two, D).evaluate(point, g2);
        assertEquals(v1, v2, 1e-12 * v1);
        for (int i = 0; i < g1.length; i++) {
            assertEquals(g1[i], g2[i], 1e-12 * Math.max(1, Math.abs(g1[i])), "gradient " + i);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MatchingEngine.SAMEDIFF.create(two, D));
        assertTrue(e.getMessage().contains("closed form"), e.getMessage());
    }
}
