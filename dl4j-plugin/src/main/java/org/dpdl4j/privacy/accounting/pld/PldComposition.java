package org.dpdl4j.privacy.accounting.pld;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;

/**
 * The privacy loss distribution of a composition: independent releases add their losses, so the composed distribution
 * is the convolution of theirs, computed here for all of them at once by FFT (Apache Commons Math, in double precision):
 * every distinct release's masses are transformed once, raised to the power of its count and multiplied, and one
 * inverse transform gives the result.
 *
 * <p>The result must fit one FFT window of N points, so the composed distribution is cut to a window
 * {@code [lo, hi]} that holds all but {@code tail} of it: Chernoff's bound {@code P(S >= t) <= e^{-lambda t}
 * prod_i M_i(lambda)^{k_i}} (M_i the moment generating function of release i's finite masses), minimised over a
 * ladder of lambdas, puts at most {@code tail/2} above hi and below lo. The circular convolution folds that outside
 * mass into the window, where it only adds mass, so the window's delta plus {@code tail} bounds the true delta; the
 * tail is therefore added to the mass at infinity.
 *
 * <p>Rounding: FFTs in double precision are accurate to a few {@code log2(N)} units in the last place relative to the
 * 2-norm of their input (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., section 24.1); the powers,
 * the products and the inverse transform carry that into the output, and {@link #roundingAllowance} bounds what it can
 * do to any delta. Negative outputs (pure rounding) are set to 0 and the allowance is added to the mass at infinity as
 * well. Both the tail and the allowance are far below any delta a user asks for (together about 1e-8 for a DP-SGD run
 * of 14,000 steps).
 */
public final class PldComposition {
    /** The largest FFT window, in points (two arrays of doubles of this length per release). */
    public static final int MAX_POINTS = 1 << 22;
    private static final double UNIT_ROUNDOFF = 0x1p-53;
    /** Spectra of recently composed releases: a run prices the same step again and again. */
    private static final Map<SpectrumKey, double[][]> SPECTRA = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<SpectrumKey, double[][]> eldest) {
            return size() > 16;
        }
    };

    private record SpectrumKey(DiscretePld pld, int points) {
    }

    private PldComposition() {
    }

    /**
     * One release and how often it is composed.
     *
     * @param pld   its discretised privacy loss distribution
     * @param count its multiplicity, at least 1
     */
    public record Part(DiscretePld pld, long count) {
        public Part {
            Objects.requireNonNull(pld, "pld");
            if (count < 1) {
                throw new IllegalArgumentException("a composed release occurs at least once, got count " + count);
            }
        }
    }

    /**
     * The grid window {@code [lo, hi]} (grid indices) outside which the composition has mass at most {@code tail/2}
     * on each side, clipped to its support.
     */
    public static long[] window(List<Part> parts, double tail) {
        double interval = commonInterval(parts);
        long lowest = 0;
        long highest = 0;
        for (Part p : parts) {
            DiscretePld d = p.pld();
            if (d.size() == 0) {
                continue;
            }
            lowest = Math.addExact(lowest, Math.multiplyExact(p.count(), d.offset()));
            highest = Math.addExact(highest, Math.multiplyExact(p.count(), d.offset() + d.size() - 1));
        }
        double logHalfTail = Math.log(tail / 2);
        double hi = highest;
        double lo = lowest;
        for (int j = 0; j < DiscretePld.LADDER.length; j++) {
            double lambda = DiscretePld.LADDER[j]; // per unit of loss
            double up = 0;
            double down = 0;
            for (Part p : parts) {
                if (p.pld().size() > 0) {
                    double[][] l = p.pld().logMgfOnLadder();
                    up += p.count() * l[0][j];
                    down += p.count() * l[1][j];
                }
            }
            hi = Math.min(hi, (up - logHalfTail) / lambda / interval);
            lo = Math.max(lo, (logHalfTail - down) / lambda / interval);
        }
        long hiIndex = Math.min(highest, (long) Math.ceil(hi));
        long loIndex = Math.max(lowest, (long) Math.floor(lo));
        return new long[] {loIndex, Math.max(loIndex, hiIndex)};
    }

    /** The number of FFT points the composition needs: the window's width rounded up to a power of 2. */
    public static long points(List<Part> parts, double tail) {
        long[] w = window(parts, tail);
        long width = w[1] - w[0] + 1;
        return width <= 1 ? 1 : Long.highestOneBit(width - 1) << 1;
    }

    /**
     * The composition of the parts (all on one grid), with the window's tail and the rounding allowance in its mass at
     * infinity.
     *
     * @param tail the mass the window may leave out, in (0, 1)
     * @throws IllegalArgumentException if the window needs more than {@link #MAX_POINTS} points (use a coarser grid)
     */
    public static DiscretePld compose(List<Part> parts, double tail) {
        double interval = commonInterval(parts);
        double finiteProduct = 0; // ln of the probability that no release has infinite loss
        for (Part p : parts) {
            finiteProduct += p.count() * Math.log1p(-p.pld().massAtInfinity());
        }
        double atInfinity = -Math.expm1(finiteProduct);
        if (parts.size() == 1 && parts.get(0).count() == 1) {
            return parts.get(0).pld();
        }
        if (atInfinity >= 1.0 || parts.stream().allMatch(p -> p.pld().size() == 0)) {
            return DiscretePld.nonPrivate(interval);
        }
        long[] w = window(parts, tail);
        long width = w[1] - w[0] + 1;
        long n = width <= 1 ? 1 : Long.highestOneBit(width - 1) << 1;
        if (n > MAX_POINTS) {
            throw new IllegalArgumentException("the composition spans " + width + " grid points at interval " + interval
                    + ", more than the " + MAX_POINTS + " one FFT may hold; use a coarser interval");
        }
        int size = (int) n;
        double[] re = new double[size];
        double[] im = new double[size];
        java.util.Arrays.fill(re, 1.0); // the spectrum of "no loss", the empty composition
        long base = 0;
        Map<DiscretePld, Long> counts = new LinkedHashMap<>();
        for (Part p : parts) {
            counts.merge(p.pld(), p.count(), Math::addExact);
        }
        for (Map.Entry<DiscretePld, Long> e : counts.entrySet()) {
            DiscretePld d = e.getKey();
            long count = e.getValue();
            base = Math.addExact(base, Math.multiplyExact(count, d.offset()));
            double[][] polar = spectrum(d, size);
            multiplyByPower(re, im, polar[0], polar[1], count);
        }
        FastFourierTransformer.transformInPlace(new double[][] {re, im}, DftNormalization.STANDARD, TransformType.INVERSE);
        // index r of the circular result holds the grid points congruent to base + r (mod n); lay them out from w[0]
        double[] mass = new double[size];
        int shift = (int) Math.floorMod(w[0] - base, n);
        for (int j = 0; j < size; j++) {
            mass[j] = Math.max(0.0, re[(j + shift) % size]);
        }
        double rounding = roundingAllowance(counts, size);
        return new DiscretePld(interval, w[0], mass, Math.min(1.0, atInfinity + tail + rounding));
    }

    /**
     * A bound on the delta that the rounding of {@link #compose} can hide, for releases {@code p_i} composed
     * {@code k_i} times on n points: with {@code u = 2^-53} and {@code g = 5 log2(n) u} (the relative 2-norm accuracy of a
     * radix-2 FFT), the forward transforms are off by {@code g sqrt(n) ||p_i||_2}, which a k-th power multiplies by at
     * most k (every coefficient is at most 1 in modulus); the power itself, formed from modulus and angle, is off by at
     * most {@code (pi k + 4) u} per coefficient; the inverse transform adds {@code g}; and delta is at most the 1-norm of
     * the error, at most {@code sqrt(n)} times its 2-norm.
     */
    static double roundingAllowance(Map<DiscretePld, Long> counts, int n) {
        double g = 5 * (Math.log(n) / Math.log(2) + 1) * UNIT_ROUNDOFF;
        double sqrtN = Math.sqrt(n);
        double spectral = 0;
        for (Map.Entry<DiscretePld, Long> e : counts.entrySet()) {
            long k = e.getValue();
            spectral += k * g * sqrtN * e.getKey().twoNorm() + sqrtN * (Math.PI * k + 4) * UNIT_ROUNDOFF;
        }
        return spectral + sqrtN * g;
    }

    /**
     * The forward transform of the masses, folded onto n points (the release's own offset is kept apart), in polar form
     * (log-modulus, angle), ready to be raised to any power; cached.
     */
    private static double[][] spectrum(DiscretePld d, int n) {
        SpectrumKey key = new SpectrumKey(d, n);
        synchronized (SPECTRA) {
            double[][] cached = SPECTRA.get(key);
            if (cached != null) {
                return cached;
            }
        }
        double[][] computed = transform(d, n);
        synchronized (SPECTRA) {
            SPECTRA.put(key, computed);
        }
        return computed;
    }

    private static double[][] transform(DiscretePld d, int n) {
        double[] re = new double[n];
        double[] im = new double[n];
        for (int j = 0; j < d.size(); j++) {
            re[j % n] += d.mass(j);
        }
        FastFourierTransformer.transformInPlace(new double[][] {re, im}, DftNormalization.STANDARD, TransformType.FORWARD);
        double[] logModulus = new double[n];
        double[] angle = new double[n];
        for (int j = 0; j < n; j++) {
            logModulus[j] = Math.log(Math.hypot(re[j], im[j])); // -inf for a zero coefficient
            angle[j] = Math.atan2(im[j], re[j]);
        }
        return new double[][] {logModulus, angle};
    }

    /** {@code (re, im) *= (e^{logModulus + i angle})^k} elementwise. */
    private static void multiplyByPower(double[] re, double[] im, double[] logModulus, double[] angle, long k) {
        for (int j = 0; j < re.length; j++) {
            double modulus = Math.exp(k * logModulus[j]);
            if (modulus == 0) {
                re[j] = 0;
                im[j] = 0;
                continue;
            }
            double a = Math.IEEEremainder(k * angle[j], 2 * Math.PI);
            double pr = modulus * Math.cos(a);
            double pi = modulus * Math.sin(a);
            double r = re[j];
            re[j] = r * pr - im[j] * pi;
            im[j] = r * pi + im[j] * pr;
        }
    }

    private static double commonInterval(List<Part> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("nothing to compose");
        }
        double interval = parts.get(0).pld().interval();
        for (Part p : parts) {
            if (p.pld().interval() != interval) {
                throw new IllegalArgumentException("releases on different grids (" + interval + " and " + p.pld().interval()
                        + ") cannot be composed");
            }
        }
        return interval;
    }
}
