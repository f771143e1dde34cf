package org.dpdl4j.protocol.recal;

import java.util.Locale;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The nonsmooth part {@code g} of a composite objective, with its proximal map. It applies to the first
 * {@code penalized} rows of the model {@code X} ([q, c]); the rows after them (an intercept) are not penalised.
 *
 * @param l1 weight of {@code ||X||_1}
 * @param l2 weight of {@code (1/2) ||X||_F^2} (elastic net with {@code l1})
 */
public record Penalty(double l1, double l2) {
    public Penalty {
        if (!(l1 >= 0) || !(l2 >= 0) || Double.isInfinite(l1) || Double.isInfinite(l2)) {
            throw new IllegalArgumentException("penalty weights must be finite and >= 0, got l1 = " + l1 + ", l2 = " + l2);
        }
    }

    /** No penalty: the prox is the identity. */
    public static Penalty none() {
        return new Penalty(0, 0);
    }

    /** The Lasso penalty {@code lambda ||X||_1}. */
    public static Penalty l1(double lambda) {
        return new Penalty(lambda, 0);
    }

    /** The elastic net {@code l1 ||X||_1 + (l2/2) ||X||^2}. */
    public static Penalty elasticNet(double l1, double l2) {
        return new Penalty(l1, l2);
    }

    /**
     * Parses {@code none}, {@code l1:LAMBDA} or {@code elastic-net:L1,L2}.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static Penalty parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.equals("none")) {
                return none();
            }
            if (t.startsWith("l1:")) {
                return l1(Double.parseDouble(t.substring(3)));
            }
            if (t.startsWith("elastic-net:")) {
                String[] w = t.substring("elastic-net:".length()).split(",", -1);
                if (w.length == 2) {
                    return elasticNet(Double.parseDouble(w[0]), Double.parseDouble(w[1]));
                }
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("unknown penalty '" + text + "'; use none, l1:LAMBDA or elastic-net:L1,L2 with"
                + " weights >= 0 (e.g. l1:0.01)");
    }

    /** {@code prox_{step g}(v)} on the penalised rows of {@code v}, in place; returns {@code v}. */
    public INDArray proxInPlace(INDArray v, double step, int penalized) {
        proxElementwise(penalized == v.size(0) ? v : v.get(NDArrayIndex.interval(0, penalized), NDArrayIndex.all()), step);
        return v;
    }

    /** The prox of the separable penalty applied to every element of {@code rows} (a view), in place. */
    public void proxElementwise(INDArray rows, double step) {
        if (l1 > 0) {
            INDArray shrunk = Transforms.abs(rows, true).subi(step * l1);
            Transforms.max(shrunk, 0.0, false);
            rows.assign(Transforms.sign(rows, true).muli(shrunk));
        }
        if (l2 > 0) {
            rows.divi(1 + step * l2);
        }
    }

    /** {@code g(X)}. */
    public double value(INDArray x, int penalized) {
        INDArray rows = penalized == x.size(0) ? x : x.get(NDArrayIndex.interval(0, penalized), NDArrayIndex.all());
        double v = 0;
        if (l1 > 0) {
            v += l1 * rows.norm1Number().doubleValue();
        }
        if (l2 > 0) {
            double n = rows.norm2Number().doubleValue();
            v += 0.5 * l2 * n * n;
        }
        return v;
    }

    @Override
    public String toString() {
        if (l1 == 0 && l2 == 0) {
            return "none";
        }
        return l2 == 0 ? "l1:" + l1 : "elastic-net:" + l1 + "," + l2;
    }
}
