package org.dpdl4j.attacks.optim;

/**
 * The few dense vector operations the optimisers need. The optimisers work on the attack's unknowns (one dummy
 * input and label, a few thousand numbers), where ND4J's per-call dispatch would cost more than the arithmetic;
 * the objective, where the model's work is, runs in ND4J.
 */
final class VectorMath {
    private VectorMath() {
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** {@code y += alpha * x}. */
    static void axpy(double alpha, double[] x, double[] y) {
        for (int i = 0; i < x.length; i++) {
            y[i] += alpha * x[i];
        }
    }

    static double maxAbs(double[] a) {
        double m = 0;
        for (double v : a) {
            double abs = Math.abs(v);
            if (abs > m || Double.isNaN(abs)) {
                m = abs;
            }
        }
        return m;
    }

    static double sumAbs(double[] a) {
        double s = 0;
        for (double v : a) {
            s += Math.abs(v);
        }
        return s;
    }

    static void requireDimension(FlatObjective objective, double[] point) {
        if (point.length != objective.dimension()) {
            throw new IllegalArgumentException("point has " + point.length + " entries but the objective has "
                    + objective.dimension() + " unknowns");
        }
    }
}
