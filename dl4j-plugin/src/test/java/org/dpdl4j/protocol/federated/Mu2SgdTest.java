package org.dpdl4j.protocol.federated;

import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 4.7 oracles 1, 2, 3 and 7: the mu^2-SGD recursions against DL4J's own per-example gradients. */
class Mu2SgdTest {
    private static final int N_IN = 4;
    private static final int CLASSES = 3;
    private static final int T = 25;

    /** One recorded run: query points before each step, the iterates w and the estimates after it. */
    private record Trace(List<INDArray> x, List<INDArray> previous, List<INDArray> w, List<INDArray> dhat,
                         INDArray features, INDArray labels, MultiLayerNetwork template) {
    }

    private static Trace run(MultiLayerNetwork net, INDArray features, INDArray labels, double eta, ParameterBall ball) {
        MultiLayerNetwork template = net.clone();
        Mu2Sgd opt = new Mu2Sgd(net, eta, ball);
        List<INDArray> x = new ArrayList<>();
        List<INDArray> prev = new ArrayList<>();
        List<INDArray> w = new ArrayList<>();
        List<INDArray> dhat = new ArrayList<>();
        w.add(opt.iterates().w().dup());   // w_1
        for (int t = 0; t < features.size(0); t++) {
            x.add(opt.iterates().x().dup());
            prev.add(opt.iterates().previous().dup());
            opt.step(features.getRow(t, true), labels.getRow(t, true));
            w.add(opt.iterates().w().dup());
            dhat.add(opt.weightedEstimate().dup());
        }
        x.add(opt.iterates().x().dup());
        return new Trace(x, prev, w, dhat, features, labels, template);
    }

    private static Trace softmaxTrace() {
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 3);
        INDArray f = FederatedFixtures.gaussian(11, T, N_IN).muli(2);
        INDArray y = FederatedFixtures.oneHot(12, T, CLASSES);
        return run(net, f, y, 0.02, new ParameterBall(1.5));
    }

    private static INDArray grad(Trace tr, INDArray point, int sample) {
        return FederatedFixtures.meanGradient(tr.template(), point, tr.features().getRow(sample, true), tr.labels().getRow(sample, true));
    }

    private static double relativeError(INDArray a, INDArray b) {
        return a.reshape(a.length()).sub(b.reshape(b.length())).norm2Number().doubleValue()
                / Math.max(1e-300, b.norm2Number().doubleValue());
    }

    @Test
    void weightedEstimateOverAlphaIsTheUnweightedCorrectedMomentum() {
        Trace tr = softmaxTrace();
        INDArray d = null;
        for (int t = 1; t <= T; t++) {
            INDArray now = grad(tr, tr.x().get(t - 1), t - 1);
            if (t == 1) {
                d = now;
            } else {
                INDArray before = grad(tr, tr.previous().get(t - 1), t - 1);
                d = now.add(d.sub(before).muli(1.0 - 1.0 / t));   // beta_t = 1/t
            }
            INDArray fromWeighted = tr.dhat().get(t - 1).div(Mu2Iterates.alpha(t));
            double err = relativeError(fromWeighted, d);
            assertTrue(err < 1e-12, "t = " + t + ": dhat_t / alpha_t vs d_t, relative error " + err);
        }
    }

    @Test
    void estimateTelescopesToTheSumOfIncrements() {
        Trace tr = softmaxTrace();
        INDArray sum = Nd4j.zeros(tr.dhat().get(0).dataType(), tr.dhat().get(0).length());
        for (int t = 1; t <= T; t++) {
            INDArray q = grad(tr, tr.x().get(t - 1), t - 1).muli(Mu2Iterates.alpha(t));
            if (t > 1) {
                q.subi(grad(tr, tr.previous().get(t - 1), t - 1).muli(Mu2Iterates.alpha(t - 1)));
            }
            sum.addi(q);
            double err = relativeError(tr.dhat().get(t - 1), sum);
            assertTrue(err < 1e-12, "t = " + t + ": dhat_t vs sum of q, relative error " + err);
        }
    }

    @Test
    void queryPointIsTheAlphaWeightedAverageOfTheIteratesAndStaysInTheBall() {
        Trace tr = softmaxTrace();
        ParameterBall ball = new ParameterBall(1.5);
        boolean touched = false;
        for (int t = 1; t <= T + 1; t++) {
            INDArray avg = Nd4j.zeros(tr.w().get(0).dataType(), 1, tr.w().get(0).length());
            for (int tau = 1; tau <= t; tau++) {
                avg.addi(tr.w().get(tau - 1).mul(Mu2Iterates.alpha(tau)));
            }
            avg.divi(Mu2Iterates.alphaSum(t));
            double err = relativeError(tr.x().get(t - 1), avg);
            assertTrue(err < 1e-12, "t = " + t + ": x_t vs sum alpha w / alpha_1:t, relative error " + err);
            assertTrue(ball.contains(tr.x().get(t - 1), 1e-12), "x_" + t + " in K");
            assertTrue(ball.contains(tr.w().get(t - 1), 1e-12), "w_" + t + " in K");
            touched |= tr.w().get(t - 1).norm2Number().doubleValue() > ball.radius() * (1 - 1e-9);
        }
        assertTrue(touched, "the projection was active at least once (the test exercises Pi_K)");
    }

    @Test
    void withADeterministicLossTheEstimateIsTheExactGradient() {
        // f(x; z) is the same quadratic for every z: the correction term cancels the drift exactly, d_t = grad F(x_t).
        MultiLayerNetwork net = FederatedFixtures.leastSquares(3, 5);
        INDArray row = Nd4j.createFromArray(new double[][]{{0.5, -1.0, 2.0}});
        INDArray target = Nd4j.createFromArray(new double[][]{{0.7}});
        INDArray f = Nd4j.repeat(row, 20).reshape(20, 3);
        INDArray y = Nd4j.repeat(target, 20).reshape(20, 1);
        Trace tr = run(net, f, y, 0.01, ParameterBall.unbounded());
        for (int t = 1; t <= 20; t++) {
            INDArray exact = grad(tr, tr.x().get(t - 1), 0);
            double err = relativeError(tr.dhat().get(t - 1).div(Mu2Iterates.alpha(t)), exact);
            assertTrue(err < 1e-12, "t = " + t + ": d_t vs grad F(x_t), relative error " + err);
        }
    }

    @Test
    void networkParametersFollowTheQueryPoint() {
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 4);
        Mu2Sgd opt = new Mu2Sgd(net, 0.1, new ParameterBall(0.5));
        assertTrue(new ParameterBall(0.5).contains(net.params(), 1e-12), "the start is projected onto K");
        opt.step(FederatedFixtures.gaussian(1, 2, N_IN), FederatedFixtures.oneHot(2, 2, CLASSES));
        assertEquals(0.0, relativeError(net.params(), opt.iterates().x()), 0.0);
        assertEquals(2, opt.iterates().t());
    }

    @Test
    void badInputIsRefusedWithTheReason() {
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class, () -> new ParameterBall(0));
        assertTrue(d.getMessage().contains("diameter D") && d.getMessage().contains("got 0"), d.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ParameterBall(-0.1));
        assertThrows(IllegalArgumentException.class, () -> new ParameterBall(Double.NaN));
        MultiLayerNetwork net = FederatedFixtures.softmax(N_IN, CLASSES, 4);
        IllegalArgumentException eta = assertThrows(IllegalArgumentException.class, () -> new Mu2Sgd(net, 0, new ParameterBall(1)));
        assertTrue(eta.getMessage().contains("step size"), eta.getMessage());
        Mu2Sgd opt = new Mu2Sgd(net, 0.1, new ParameterBall(1));
        IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
                () -> opt.step(FederatedFixtures.gaussian(1, 2, N_IN), FederatedFixtures.oneHot(2, 3, CLASSES)));
        assertTrue(shape.getMessage().contains("same b"), shape.getMessage());
    }
}
