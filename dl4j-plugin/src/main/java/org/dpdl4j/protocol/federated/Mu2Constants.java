package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.DenseLayerSpec;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.dpdl4j.runtime.ArrayMemory;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationSoftmax;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.lossfunctions.impl.LossBinaryXENT;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;

import java.util.Objects;

/**
 * The problem constants of DP-mu^2-FL (spec 4.1, 4.4): every loss {@code f(.; z)} G-Lipschitz and L-smooth
 * on a domain of diameter D, which bound each weighted increment by {@code ||q_t|| <= S = G + 2 L D}.
 *
 * <p>When the constants are {@link Certification#CERTIFIED certified} (a convex model whose G and L the user
 * vouches for), the bound holds by Lemma 4.2 and q is used as is. Otherwise - a non-convex model, or
 * constants estimated from the data, which a neighbouring dataset could violate - the library's safety clip
 * scales every q to norm at most S before it enters the estimate, so the sensitivity {@code 2S} holds by
 * construction whatever the model (and nothing changes where the assumptions do hold).
 *
 * @param lipschitz     G
 * @param smoothness    L
 * @param diameter      D of the parameter ball
 * @param certification whether q needs the safety clip
 * @param source        where the numbers come from, for the run's statement
 */
public record Mu2Constants(double lipschitz, double smoothness, double diameter, Certification certification, String source) {
    /** Rows per pass of {@link #maxAugmentedNorm}. */
    private static final long NORM_ROWS = 4096;

    /** Whether the assumptions behind {@code S = G + 2LD} are vouched for. */
    public enum Certification {
        /** Convex model, G and L given by the user: q is not clipped. */
        CERTIFIED,
        /** Non-convex model or constants estimated from data: q is clipped to S (the safety clip). */
        SAFETY_CLIP
    }

    public Mu2Constants {
        Objects.requireNonNull(certification, "certification");
        Objects.requireNonNull(source, "source");
        if (!(lipschitz > 0) || Double.isInfinite(lipschitz)) {
            throw new IllegalArgumentException("the Lipschitz constant G must be a positive finite number, got " + lipschitz);
        }
        if (!(smoothness >= 0) || Double.isInfinite(smoothness)) {
            throw new IllegalArgumentException("the smoothness constant L must be a finite number >= 0, got " + smoothness);
        }
        new ParameterBall(diameter);   // validates D > 0
        if (Double.isInfinite(diameter)) {
            throw new IllegalArgumentException("DP-mu^2-FL needs a bounded domain: give a finite diameter D (the paper's MNIST"
                    + " setup uses D = 0.1)");
        }
    }

    /**
     * Constants the user gives.
     *
     * @param convexModel whether the model's loss is convex in its parameters (softmax or logistic regression);
     *                    for any other model the constants only set the safety clip
     */
    public static Mu2Constants given(double lipschitz, double smoothness, double diameter, boolean convexModel) {
        return new Mu2Constants(lipschitz, smoothness, diameter, convexModel ? Certification.CERTIFIED : Certification.SAFETY_CLIP,
                convexModel ? "given by the user for a convex model" : "given by the user; the model is not convex, so they set the safety clip");
    }

    /**
     * Constants of softmax regression (softmax + multi-class cross-entropy, one layer with bias) or logistic
     * regression (sigmoid + binary cross-entropy) derived from the training features (spec 4.6): with
     * {@code R = max ||(x, 1)||} over the data, softmax has {@code G = sqrt(2) R} (the gradient is
     * {@code (p - y)(x, 1)^T} and {@code ||p - y|| <= sqrt(2)}) and {@code L = R^2 / 2} (the Hessian of the loss in the
     * logits has norm at most 1/2); logistic regression has {@code G = R} and {@code L = R^2 / 4}. Being
     * computed from the data, they come with the safety clip.
     *
     * @throws IllegalArgumentException for any other model, naming the options that set G and L by hand
     */
    public static Mu2Constants fromData(DenseNetworkSpec model, INDArray features, double diameter) {
        GeneralizedLinearModel glm = GeneralizedLinearModel.of(model);
        double r = maxAugmentedNorm(features);
        double g = glm == GeneralizedLinearModel.SOFTMAX ? Math.sqrt(2) * r : r;
        double l = glm == GeneralizedLinearModel.SOFTMAX ? r * r / 2 : r * r / 4;
        return new Mu2Constants(g, l, diameter, Certification.SAFETY_CLIP, String.format(java.util.Locale.ROOT,
                "derived from the training data for %s (max ||(x, 1)|| = %.6g, spec 4.6); data-derived, so q is clipped to S",
                glm.description, r));
    }

    /** Whether the model is softmax or logistic regression (convex in its parameters). */
    public static boolean isConvexModel(DenseNetworkSpec model) {
        try {
            GeneralizedLinearModel.of(model);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code max_i ||(x_i, 1)||} over the rows of the features. */
    static double maxAugmentedNorm(INDArray features) {
        if (features.rank() != 2 || features.size(0) == 0) {
            throw new IllegalArgumentException("features must be a non-empty [examples, nIn] matrix");
        }
        // A block of rows at a time, its double copies freed at once: each row's sum is the same, and the copies stay
        // small (two of the whole of MNIST's training set would take 750 MB until the garbage collector ran).
        long rows = features.size(0);
        boolean copies = features.dataType() != DataType.DOUBLE;
        double maxSq = 0;
        for (long from = 0; from < rows; from += NORM_ROWS) {
            INDArray sq = features.get(NDArrayIndex.interval(from, Math.min(rows, from + NORM_ROWS)), NDArrayIndex.all())
                    .castTo(DataType.DOUBLE);
            INDArray squares = sq.mul(sq);
            maxSq = Math.max(maxSq, squares.sum(1).maxNumber().doubleValue());
            ArrayMemory.release(squares);
            if (copies) {
                ArrayMemory.release(sq);
            }
        }
        return Math.sqrt(maxSq + 1.0);
    }

    /** The bound on every weighted increment: {@code S = G + 2 L D}. */
    public double sensitivityBound() {
        return lipschitz + 2 * smoothness * diameter;
    }

    /** The clip applied to q: S with the safety clip, {@code +Infinity} when certified. */
    public double qClip() {
        return certification == Certification.SAFETY_CLIP ? sensitivityBound() : Double.POSITIVE_INFINITY;
    }

    /** The domain ball. */
    public ParameterBall domain() {
        return new ParameterBall(diameter);
    }

    /** One sentence for the run's statement: which case applies. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "G = %.6g, L = %.6g, D = %.6g, S = G + 2LD = %.6g (%s); %s", lipschitz, smoothness,
                diameter, sensitivityBound(), source, certification == Certification.CERTIFIED
                        ? "certified: q is used unclipped (Lemma 4.2 bounds it by S)"
                        : "not certified: the safety clip scales every q to norm <= S, so the sensitivity 2S holds by construction");
    }

    /** The convex one-layer models whose constants follow from the data. */
    private enum GeneralizedLinearModel {
        SOFTMAX("softmax regression"),
        LOGISTIC("logistic regression");

        private final String description;

        GeneralizedLinearModel(String description) {
            this.description = description;
        }

        static GeneralizedLinearModel of(DenseNetworkSpec model) {
            DenseLayerSpec out = model.output();
            String hint = "; give G and L explicitly (--lipschitz, --smoothness); for a non-convex model they set the safety clip S = G + 2LD";
            if (model.layers().size() != 1 || !out.hasBias()) {
                throw new IllegalArgumentException("G and L can be derived from the data only for softmax or logistic regression"
                        + " (one output layer with bias), not for a network of " + model.layers().size() + " layers" + hint);
            }
            if (out.activation() instanceof ActivationSoftmax && model.loss() instanceof LossMCXENT mc && mc.getWeights() == null) {
                return SOFTMAX;
            }
            if (out.activation() instanceof ActivationSigmoid && model.loss() instanceof LossBinaryXENT bx && bx.getWeights() == null
                    && out.nOut() == 1) {
                return LOGISTIC;
            }
            throw new IllegalArgumentException("G and L can be derived from the data only for softmax + MCXENT or sigmoid + XENT"
                    + " (one output), not for activation " + out.activation() + " with loss " + model.loss() + hint);
        }
    }
}
