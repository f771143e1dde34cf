package org.dpdl4j.privacy.accounting;

import static org.dpdl4j.privacy.accounting.NeighbouringRelation.ADD_OR_REMOVE_ONE;
import static org.dpdl4j.privacy.accounting.NeighbouringRelation.REPLACE_ONE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RdpAccountantTest {
    private static final double Q = 256.0 / 60000.0;
    private static final long STEPS = 14062; // 60 epochs of batches of 256 out of 60000
    /** The order grid of the spec's regression value: integers 2..256 plus 1.25, 1.5, 1.75. */
    private static final double[] SPEC_ORDERS = DoubleStream.concat(DoubleStream.of(1.25, 1.5, 1.75),
            IntStream.rangeClosed(2, 256).asDoubleStream()).toArray();

    @Test
    void gaussianCurveIsExactlyTheClosedFormUnderBothRelations() {
        double z = 1.3;
        RdpAccountant add = new RdpAccountant(ADD_OR_REMOVE_ONE);
        RdpAccountant replace = new RdpAccountant(REPLACE_ONE);
        double[] orders = add.orders();
        double[] addCurve = add.curve(new GaussianEvent(z));
        double[] replaceCurve = replace.curve(new GaussianEvent(z));
        for (int i = 0; i < orders.length; i++) {
            assertEquals(orders[i] / (2 * z * z), addCurve[i], 0.0);
            assertEquals(2 * orders[i] / (z * z), replaceCurve[i], 0.0);
        }
        assertArrayEquals(new double[orders.length], add.curve(new GaussianEvent(Double.POSITIVE_INFINITY)));
        assertEquals(Double.POSITIVE_INFINITY, add.curve(new GaussianEvent(0.0))[0]);
    }

    @Test
    void correlatedGaussianIsTheWhitenedGaussian() {
        double kappa = 2.3281e-4;
        double c = 1.0;
        RdpAccountant replace = new RdpAccountant(REPLACE_ONE);
        double[] orders = replace.orders();
        double[] curve = replace.curve(new CorrelatedGaussianEvent(kappa, c));
        for (int i = 0; i < orders.length; i++) {
            // Decor's SecRDP per step: 2 alpha C^2 kappa
            assertEquals(2 * orders[i] * c * c * kappa, curve[i], 1e-15 * curve[i]);
        }
        // Poisson-sampled under add/remove: the sampled Gaussian with z = 1 / (C sqrt(kappa)) (spec 3.5.4 (a))
        double b = 16;
        CorrelatedGaussianEvent perExample = new CorrelatedGaussianEvent(kappa, c / b);
        RdpAccountant add = new RdpAccountant(ADD_OR_REMOVE_ONE);
        assertArrayEquals(add.curve(new PoissonSampledEvent(0.02, new GaussianEvent(b / (c * Math.sqrt(kappa))))),
                add.curve(new PoissonSampledEvent(0.02, perExample)), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, new CorrelatedGaussianEvent(0.0, 1.0).toGaussian().noiseMultiplier());
        assertEquals(Double.POSITIVE_INFINITY, new CorrelatedGaussianEvent(5.0, 0.0).toGaussian().noiseMultiplier());
    }

    @Test
    void laplaceCurveMatchesNumericalRenyiDivergenceAndPureDpLimits() {
        double[][] cases = {{1.0, 2.0}, {0.5, 1.5}, {2.0, 10.0}, {0.8, 1.05}};
        for (double[] c : cases) {
            double lambda = c[0];
            double alpha = c[1];
            // D_alpha(Lap(0, lambda) || Lap(1, lambda)) = ln \int p^alpha q^{1-alpha} / (alpha - 1)
            double integral = Quadrature.integral(x -> Math.exp(-(alpha * Math.abs(x) + (1 - alpha) * Math.abs(x - 1))
                    / lambda) / (2 * lambda), new double[] {-60 * lambda, 0, 1, 1 + 60 * lambda}, 100_000);
            double expected = Math.log(integral) / (alpha - 1);
            assertEquals(expected, LaplaceRdp.rdp(lambda, alpha), 1e-10 * expected, "lambda=" + lambda + " alpha=" + alpha);
        }
        // Golden values (40-digit arithmetic of Mironov's Prop. 6)
        assertEquals(0.6191236299985928834, LaplaceRdp.rdp(1.0, 2.0), 1e-15);
        assertEquals(0.42869038646727483349, LaplaceRdp.rdp(2.0, 10.0), 1e-15);
        // Never above pure DP; increasing in the order, towards 1/lambda
        double previous = 0;
        for (double alpha : RdpAccountant.defaultOrders()) {
            double v = LaplaceRdp.rdp(0.7, alpha);
            assertTrue(v <= 1 / 0.7 && v >= previous);
            previous = v;
        }
        assertEquals(1 / 0.7, LaplaceRdp.rdp(0.7, 1e7), 1e-6);
        // Replace-one doubles the sensitivity, i.e. halves the scale ratio
        double[] add = new RdpAccountant(ADD_OR_REMOVE_ONE, new double[] {3}).curve(new LaplaceEvent(2.0));
        double[] replace = new RdpAccountant(REPLACE_ONE, new double[] {3}).curve(new LaplaceEvent(2.0));
        assertEquals(LaplaceRdp.rdp(2.0, 3), add[0], 0.0);
        assertEquals(LaplaceRdp.rdp(1.0, 3), replace[0], 0.0);
        assertEquals(1.0, new LaplaceEvent(2.0).pureEpsilon(REPLACE_ONE), 0.0);
        assertEquals(0.5, new LaplaceEvent(2.0).pureEpsilon(ADD_OR_REMOVE_ONE), 0.0);
    }

    @Test
    void selfCompositionComposedEventAndRepeatedComposesAgree() {
        DpEvent step = new PoissonSampledEvent(0.01, new GaussianEvent(0.9));
        long k = 37;
        RdpAccountant byCount = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(step, k);
        RdpAccountant bySelfComposed = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new SelfComposedEvent(step, k));
        RdpAccountant oneByOne = new RdpAccountant(ADD_OR_REMOVE_ONE);
        for (int i = 0; i < k; i++) {
            oneByOne.compose(step);
        }
        assertArrayEquals(byCount.rdp(), bySelfComposed.rdp(), 0.0);
        assertCurvesEqual(byCount.rdp(), oneByOne.rdp(), 1e-13);
        assertEquals(byCount.epsilon(1e-6), oneByOne.epsilon(1e-6), 1e-12);
        assertEquals(List.of(new SelfComposedEvent(step, k)), byCount.ledger());
        assertEquals(k, oneByOne.ledger().size());

        ComposedEvent mixed = ComposedEvent.of(new GaussianEvent(2), new LaplaceEvent(3), new ZCdpEvent(0.01), step);
        RdpAccountant composed = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(mixed);
        RdpAccountant separate = new RdpAccountant(ADD_OR_REMOVE_ONE);
        mixed.events().forEach(separate::compose);
        assertCurvesEqual(separate.rdp(), composed.rdp(), 1e-15);
        double[] orders = composed.orders();
        double[] zcdpCurve = new RdpAccountant(ADD_OR_REMOVE_ONE).curve(new ZCdpEvent(0.01));
        for (int i = 0; i < orders.length; i++) {
            assertEquals(0.01 * orders[i], zcdpCurve[i], 1e-17);
        }
        // count 0 costs nothing
        assertEquals(0.0, new RdpAccountant(ADD_OR_REMOVE_ONE).compose(step, 0).epsilon(1e-5), 0.0);
    }

    /**
     * The classic DP-SGD example (MNIST, batch 256 of 60000, z = 1.1, 60 epochs, delta = 1e-5): the
     * spec's regression values eps ~= 3.01 (standard) and 2.60 (improved), and the exact optimum
     * computed independently in 40-digit arithmetic (binomial sums at integer orders, adaptive
     * quadrature at 1.25, 1.5, 1.75).
     */
    @Test
    void dpSgdGoldenExample() {
        RdpAccountant acc = new RdpAccountant(ADD_OR_REMOVE_ONE, SPEC_ORDERS).compose(DpSgd.event(Q, 1.1, STEPS));
        EpsilonBound standard = acc.epsilonBound(1e-5, Conversion.STANDARD);
        EpsilonBound improved = acc.epsilonBound(1e-5, Conversion.IMPROVED);
        assertEquals(3.01, standard.epsilon(), 0.005);
        assertEquals(2.60, improved.epsilon(), 0.005);
        assertEquals(3.009099525732417, standard.epsilon(), 1e-11);
        assertEquals(9.0, standard.order(), 0.0);
        assertEquals(2.596981178594853, improved.epsilon(), 1e-11);
        assertEquals(8.0, improved.order(), 0.0);
        // Per-step RDP at a few orders, same 40-digit reference
        double[] perStep = new RdpAccountant(ADD_OR_REMOVE_ONE, new double[] {1.25, 1.5, 1.75, 2, 10, 256})
                .curve(new PoissonSampledEvent(Q, new GaussianEvent(1.1)));
        double[] reference = {1.453884292990704e-5, 1.747978446292433e-5, 2.043205496914602e-5,
                2.339577600994917e-5, 1.252398424428970e-4, 100.3068018745440};
        for (int i = 0; i < reference.length; i++) {
            assertEquals(reference[i], perStep[i], 1e-9 * reference[i], "order index " + i);
        }
        // The finer default grid (quarter orders) can only help: optimum at 8.75, 3.0083873 in 40 digits.
        RdpAccountant fine = DpSgd.rdpAccountant(Q, 1.1, STEPS);
        assertEquals(3.008387277298834, fine.epsilon(1e-5), 1e-9);
        assertEquals(3.01, fine.epsilon(1e-5), 0.005);
    }

    @Test
    void improvedConversionIsNeverLargerThanStandard() {
        List<DpEvent> ledgers = List.of(DpSgd.event(Q, 1.1, STEPS), DpSgd.event(0.1, 0.6, 100),
                new SelfComposedEvent(new GaussianEvent(5), 10), new LaplaceEvent(0.3), new ZCdpEvent(1e-4));
        for (DpEvent e : ledgers) {
            RdpAccountant acc = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(e);
            for (double delta : new double[] {1e-3, 1e-5, 1e-9}) {
                double standard = acc.epsilon(delta, Conversion.STANDARD);
                double improved = acc.epsilon(delta, Conversion.IMPROVED);
                assertTrue(improved <= standard && improved >= 0, e + " delta=" + delta);
            }
        }
        // Order by order, the gap is ln(alpha/(alpha-1)) + ln(alpha)/(alpha-1)
        for (double alpha : new double[] {1.5, 2, 10, 100}) {
            double gap = Conversion.STANDARD.epsilon(alpha, 0.3, 1e-5) - Conversion.IMPROVED.epsilon(alpha, 0.3, 1e-5);
            assertEquals(Math.log(alpha / (alpha - 1)) + Math.log(alpha) / (alpha - 1), gap, 1e-12);
        }
    }

    @Test
    void deltaInvertsEpsilonForBothConversions() {
        RdpAccountant acc = DpSgd.rdpAccountant(0.02, 1.0, 2000);
        for (Conversion conversion : Conversion.values()) {
            for (double delta : new double[] {1e-3, 1e-5, 1e-8}) {
                double eps = acc.epsilon(delta, conversion);
                assertEquals(delta, acc.delta(eps, conversion), 1e-9 * delta, conversion + " delta=" + delta);
            }
            // a larger epsilon never needs a larger delta
            assertTrue(acc.delta(5.0, conversion) <= acc.delta(4.0, conversion));
        }
        assertEquals(1.0, acc.delta(0.0), 0.0);
    }

    @Test
    void zeroAndInfiniteLoss() {
        RdpAccountant acc = new RdpAccountant(ADD_OR_REMOVE_ONE);
        assertEquals(0.0, acc.epsilon(1e-5), 0.0);
        acc.compose(new NoOpEvent()).compose(new GaussianEvent(Double.POSITIVE_INFINITY));
        assertEquals(0.0, acc.epsilon(1e-5), 0.0);
        assertEquals(0.0, acc.delta(0.0), 0.0);
        acc.compose(new GaussianEvent(1.0)).compose(new NonPrivateEvent());
        EpsilonBound bound = acc.epsilonBound(1e-5, Conversion.IMPROVED);
        assertEquals(Double.POSITIVE_INFINITY, bound.epsilon());
        assertTrue(Double.isNaN(bound.order()));
        assertEquals(1.0, acc.delta(100.0), 0.0);
        assertEquals(4, acc.ledger().size());
    }

    @Test
    void copyIsIndependentOfTheOriginal() {
        RdpAccountant original = new RdpAccountant(ADD_OR_REMOVE_ONE).compose(new GaussianEvent(3));
        double before = original.epsilon(1e-5);
        RdpAccountant fork = original.copy().compose(new GaussianEvent(1));
        assertEquals(before, original.epsilon(1e-5), 0.0);
        assertEquals(1, original.ledger().size());
        assertEquals(2, fork.ledger().size());
        assertTrue(fork.epsilon(1e-5) > before);
        assertThrows(UnsupportedOperationException.class, () -> original.ledger().add(new NoOpEvent()));
    }

    private static void assertCurvesEqual(double[] expected, double[] actual, double relativeTolerance) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], relativeTolerance * Math.abs(expected[i]), "order index " + i);
        }
    }

    @Test
    void ordersAreValidated() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RdpAccountant(ADD_OR_REMOVE_ONE, new double[] {2, 1.0}));
        assertTrue(e.getMessage().contains("index 1") && e.getMessage().contains("> 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new RdpAccountant(ADD_OR_REMOVE_ONE, new double[0]));
        assertThrows(IllegalArgumentException.class,
                () -> new RdpAccountant(ADD_OR_REMOVE_ONE, new double[] {Double.POSITIVE_INFINITY}));
        assertArrayEquals(new double[] {1.5, 2, 3}, new RdpAccountant(REPLACE_ONE, new double[] {3, 2, 1.5, 2}).orders());
        double[] defaults = RdpAccountant.defaultOrders();
        for (double required : new double[] {1.25, 1.5, 1.75, 2, 100, 256}) {
            assertTrue(DoubleStream.of(defaults).anyMatch(a -> a == required), "default orders contain " + required);
        }
        IllegalArgumentException badDelta = assertThrows(IllegalArgumentException.class,
                () -> new RdpAccountant(ADD_OR_REMOVE_ONE).epsilon(1.0));
        assertTrue(badDelta.getMessage().contains("delta"), badDelta.getMessage());
    }
}
