package org.dpdl4j.experiments.campaign;

import java.util.Arrays;

/** Order statistics of finite samples; NaN entries are ignored. */
final class Percentiles {
    private Percentiles() {
    }

    /** The median (mean of the two middle values for an even count); NaN for no finite value. */
    static double median(double[] values) {
        double[] v = finiteSorted(values);
        if (v.length == 0) {
            return Double.NaN;
        }
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    private static double[] finiteSorted(double[] values) {
        // +Infinity (an exact reconstruction) is an order statistic like any other; only NaN is dropped.
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).toArray();
        Arrays.sort(v);
        return v;
    }
}
