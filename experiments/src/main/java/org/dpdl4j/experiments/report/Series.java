package org.dpdl4j.experiments.report;

import java.util.Arrays;
import java.util.Objects;

/**
 * One line of a chart: points {@code (x[i], y[i])} in order. A NaN y leaves a gap (e.g. a metric not
 * measured at that point); infinite values are rejected.
 *
 * @param name legend label
 * @param x    x values (copied)
 * @param y    y values, as many as x (copied)
 */
public record Series(String name, double[] x, double[] y) {

    public Series {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a series needs a non-blank name for the legend");
        }
        Objects.requireNonNull(x, "x of series '" + name + "' must not be null");
        Objects.requireNonNull(y, "y of series '" + name + "' must not be null");
        if (x.length == 0 || x.length != y.length) {
            throw new IllegalArgumentException("series '" + name + "' has " + x.length + " x values and " + y.length
                    + " y values; give the same positive number of each");
        }
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalArgumentException("series '" + name + "' has x[" + i + "] = " + x[i]
                        + "; x values must be finite");
            }
            if (Double.isInfinite(y[i])) {
                throw new IllegalArgumentException("series '" + name + "' has y[" + i + "] = " + y[i]
                        + "; y values must be finite (NaN leaves a gap)");
            }
        }
        x = x.clone();
        y = y.clone();
    }

    /** A series against 1, 2, 3, ... (epochs or rounds counted from 1). */
    public static Series indexed(String name, double[] y) {
        double[] x = new double[y.length];
        Arrays.setAll(x, i -> i + 1);
        return new Series(name, x, y);
    }

    @Override
    public double[] x() {
        return x.clone();
    }

    @Override
    public double[] y() {
        return y.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Series s && name.equals(s.name) && Arrays.equals(x, s.x) && Arrays.equals(y, s.y);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, Arrays.hashCode(x), Arrays.hashCode(y));
    }

    @Override
    public String toString() {
        return "Series[" + name + ", " + x.length + " points]";
    }
}
