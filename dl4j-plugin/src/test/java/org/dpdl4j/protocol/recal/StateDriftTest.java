package org.dpdl4j.protocol.recal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The proven accounting of DP-RECAL on least squares ({@link PublicationSensitivity#STATE_DRIFT}), checked on the
 * agent's own recursion: for the same public history (the agent's published duals and the baton's y), the private part
 * {@code beta (2 x_bar - x_old)} of two neighbouring datasets' m-th publications differs by at most
 * {@code Delta (m + 1)/2}, {@code Delta = 4 beta tau G}, at the largest step the proof allows ({@code tau = 1/L}); a
 * record whose clipped gradient stays constant along a feature no other record has reaches it, so the paper's constant
 * {@code Delta} is exceeded from the second publication on.
 */
class StateDriftTest {
    private static final double CLIP = 0.7;

    /** The private parts of an agent's first {@code k} publications under a given history of published duals. */
    private static INDArray[] publications(LocalProblem agent, double tau, double beta, INDArray[] history) {
        INDArray x = Nd4j.zeros(DataType.DOUBLE, agent.inputs(), agent.outputs());
        INDArray g = x.ulike();
        INDArray[] out = new INDArray[history.length];
        for (int m = 0; m < history.length; m++) {
            agent.gradient(x, CLIP, g);
            INDArray xBar = x.sub(g.add(history[m]).muli(tau));
            out[m] = xBar.mul(2).subi(x).muli(beta);
            x = xBar;
        }
        return out;
    }

    private static INDArray[] history(int k, long q, long c, SplittableRandom random, double scale) {
        INDArray[] h = new INDArray[k];
        for (int m = 0; m < k; m++) {
            h[m] = Nd4j.zeros(DataType.DOUBLE, q, c);
            for (int i = 0; i < q; i++) {
                for (int j = 0; j < c; j++) {
                    h[m].putScalar(i, j, scale * random.nextGaussian());
                }
            }
        }
        return h;
    }

    private static INDArray randomMatrix(int rows, int cols, SplittableRandom random) {
        INDArray a = Nd4j.zeros(DataType.DOUBLE, rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                a.putScalar(i, j, random.nextGaussian());
            }
        }
        return a;
    }

    @Test
    void aRecordAlongItsOwnFeatureReachesTheBound() {
        SplittableRandom random = new SplittableRandom(3);
        INDArray features = randomMatrix(12, 4, random);
        for (int i = 0; i < 12; i++) {
            features.putScalar(i, 0, i == 0 ? 0.8 : 0);  // no other record reaches feature 0, record 0 only it
            for (int j = 1; j < 4 && i == 0; j++) {
                features.putScalar(i, j, 0);
            }
        }
        INDArray targets = randomMatrix(12, 2, random);
        INDArray replaced = targets.dup();
        targets.putScalar(0, 0, 1e6);                    // a residual so large that it is always clipped
        replaced.putScalar(0, 0, -1e6);
        LocalProblem d = new LocalProblem(features, targets, SmoothLoss.LEAST_SQUARES);
        LocalProblem dPrime = new LocalProblem(features, replaced, SmoothLoss.LEAST_SQUARES);
        assertEquals(d.smoothness(), dPrime.smoothness(), 0, "the targets do not move the smoothness");
        RecalSteps steps = RecalSteps.defaults(new double[] {d.smoothness()}, 2, 0);
        double tau = 2 * steps.tau()[0];                  // step scale 2: tau = 1/L, the largest the proof allows
        double beta = steps.beta()[0];
        assertEquals(null, PublicationSensitivity.whyNotProven(SmoothLoss.LEAST_SQUARES, new double[] {tau},
                new double[] {d.smoothness()}));
        INDArray[] history = history(40, 4, 2, random, 0.3);
        INDArray[] a = publications(d, tau, beta, history);
        INDArray[] b = publications(dPrime, tau, beta, history);
        double delta = 4 * beta * tau * CLIP;
        for (int m = 1; m <= history.length; m++) {
            double moved = a[m - 1].sub(b[m - 1]).norm2Number().doubleValue();
            double bound = delta * PublicationSensitivity.STATE_DRIFT.factor(m);
            assertEquals(bound, moved, 1e-9 * bound, "publication " + m);
        }
        assertTrue(a[9].sub(b[9]).norm2Number().doubleValue() > 5 * delta, "the paper's constant Delta is exceeded");
    }

    @Test
    void randomNeighboursStayWithinTheBound() {
        SplittableRandom random = new SplittableRandom(17);
        double worst = 0;
        for (int trial = 0; trial < 25; trial++) {
            INDArray features = randomMatrix(20, 5, random);
            INDArray targets = randomMatrix(20, 3, random).muli(3);
            INDArray otherFeatures = features.dup();
            INDArray otherTargets = targets.dup();
            for (int j = 0; j < 5; j++) {
                otherFeatures.putScalar(trial % 20, j, 1.5 * random.nextGaussian());
            }
            for (int j = 0; j < 3; j++) {
                otherTargets.putScalar(trial % 20, j, 5 * random.nextGaussian());
            }
            LocalProblem d = new LocalProblem(features, targets, SmoothLoss.LEAST_SQUARES);
            LocalProblem dPrime = new LocalProblem(otherFeatures, otherTargets, SmoothLoss.LEAST_SQUARES);
            // the steps follow D's smoothness: the proof needs only D's clipped step to be nonexpansive
            RecalSteps steps = RecalSteps.defaults(new double[] {d.smoothness()}, 2, 0);
            double tau = 2 * steps.tau()[0];
            double beta = steps.beta()[0];
            INDArray[] history = history(60, 5, 3, random, 1.0);
            INDArray[] a = publications(d, tau, beta, history);
            INDArray[] b = publications(dPrime, tau, beta, history);
            double delta = 4 * beta * tau * CLIP;
            for (int m = 1; m <= history.length; m++) {
                double ratio = a[m - 1].sub(b[m - 1]).norm2Number().doubleValue() / (delta * PublicationSensitivity.STATE_DRIFT.factor(m));
                assertTrue(ratio <= 1 + 1e-9, "trial " + trial + ", publication " + m + ": " + ratio + " x the bound");
                worst = Math.max(worst, ratio);
            }
        }
        assertTrue(worst > 0.1, "the neighbours differ enough to test the bound: " + worst);
    }

    @Test
    void onlyLeastSquaresWithSmallStepsIsProven() {
        double[] smoothness = {2.0, 4.0};
        assertEquals(null, PublicationSensitivity.whyNotProven(SmoothLoss.LEAST_SQUARES, new double[] {0.5, 0.25}, smoothness));
        String large = PublicationSensitivity.whyNotProven(SmoothLoss.LEAST_SQUARES, new double[] {0.5, 0.26}, smoothness);
        assertTrue(large != null && large.contains("agent 1") && large.contains("exceeds 1/L_i"), large);
        String logistic = PublicationSensitivity.whyNotProven(SmoothLoss.LOGISTIC, new double[] {0.1, 0.1}, smoothness);
        assertTrue(logistic != null && logistic.contains("logistic"), logistic);
    }

    @Test
    void theDriftFactorsComposeAsTheirSquares() {
        for (double zeta : new double[] {1.0, 0.97}) {
            for (long k : new long[] {1, 2, 7, 300}) {
                double explicit = 0;
                for (long m = 1; m <= k; m++) {
                    explicit += (m + 1) * (m + 1) / 4.0 / Math.pow(zeta, m - 1);
                }
                double sum = DecayingNoisePrivacy.decaySum(zeta, k, PublicationSensitivity.STATE_DRIFT);
                assertEquals(explicit, sum, 1e-12 * explicit, "zeta " + zeta + ", K " + k);
            }
        }
        assertEquals(1.0, DecayingNoisePrivacy.decaySum(0.5, 1, PublicationSensitivity.STATE_DRIFT), 0, "the first publication is Delta");
        assertEquals(Double.POSITIVE_INFINITY, DecayingNoisePrivacy.decaySum(0.5, 5000, PublicationSensitivity.STATE_DRIFT));
    }

    @Test
    void theLedgerChargesEveryPublicationItsDriftedSensitivity() {
        DecayingNoisePrivacy p = new DecayingNoisePrivacy(new double[] {0.8}, new double[] {2.0}, 0.97,
                PublicationSensitivity.STATE_DRIFT);
        for (long m = 1; m <= 30; m++) {
            double z = 2.0 * Math.pow(0.97, (m - 1) / 2.0) / (0.8 * (m + 1) / 2 / 2);
            assertEquals(z, p.publication(0, m).noiseMultiplier(), 1e-12 * z, "publication " + m);
        }
        double rho = 0;
        for (long m = 1; m <= 30; m++) {
            rho += DecayingNoisePrivacy.publicationRho(0.8, 2.0, 0.97, m, PublicationSensitivity.STATE_DRIFT);
        }
        assertEquals(rho, p.rhoOf(0, 30), 1e-12 * rho);
        for (double eps : new double[] {0.5, 3}) {
            double sigma = DecayingNoisePrivacy.calibrate(0.8, 0.99, 200, eps, 1e-5,
                    org.dpdl4j.privacy.accounting.AccountantFactory.standard(), PublicationSensitivity.STATE_DRIFT);
            double achieved = DecayingNoisePrivacy.ledgerEpsilon(0.8, sigma, 0.99, 200, 1e-5,
                    org.dpdl4j.privacy.accounting.AccountantFactory.standard(), PublicationSensitivity.STATE_DRIFT);
            assertTrue(achieved <= eps && achieved > eps * (1 - 1e-6), "calibrated to " + eps + ", spends " + achieved);
            double paper = DecayingNoisePrivacy.calibrate(0.8, 0.99, 200, eps, 1e-5);
            assertTrue(sigma > 50 * paper, "200 publications drift: sigma " + sigma + " against the paper's " + paper);
        }
    }
}
