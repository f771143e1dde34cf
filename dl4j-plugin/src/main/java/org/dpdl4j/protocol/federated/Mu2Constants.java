package org.dpdl4j.protocol.federated;

import org.dpdl4j.optim.DenseLayerSpec;
import org.dpdl4j.optim.DenseNetworkSpec;
import org.nd4j.linalg.activations.impl.ActivationSigmoid;
import org.nd4j.linalg.activations.impl.ActivationSoftmax;
import org.nd4j.linalg.lossfunctions.impl.LossBinaryXENT;
import org.nd4j.linalg.lossfunctions.impl.LossMCXENT;

import java.util.Objects;

/**
 * The problem constants of DP-mu^2-FL (spec 4.1, 4.4): every loss {@code f(.; z)} G-Lipschitz and L-smooth
 * on a domain of diameter D, which bound each weighted increment by {@code ||q_t|| <= S = G + 2 L D}.
 *
 * <p>The constants are public numbers: given by the user, or following from a public bound on the features'
 * norm ({@link #fromFeatureBound}), never from the private data (a bound computed from the data would make the
 * noise std and the step size functions of one record). Every q is clipped to norm at most S before it enters the
 * estimate, so the sensitivity {@code 2S} holds by construction whatever the model and the data; where the
 * assumptions of Lemma 4.2 hold the clip changes nothing, and where they fail (a wrong G or L, a feature beyond
 * its bound, a non-convex model) the guarantee still holds and only the convergence analysis does not.
 *
 * @param lipschitz  G
 * @param smoothness L
 * @param diameter   D of the parameter ball
 * @param source     where the numbers come from, for the run's statement
 */
public record Mu2Constants(double lipschitz, double smoothness, double diameter, String source) {

    public Mu2Constants {
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

    /** Constants the user gives (public numbers; every q is clipped to the S they make). */
    public static Mu2Constants given(double lipschitz, double smoothness, double diameter) {
        return new Mu2Constants(lipschitz, smoothness, diameter, "given by the user");
    }

    /**
     * Constants of softmax regression (softmax + multi-class cross-entropy, one layer with bias) or logistic
     * regression (sigmoid + binary cross-entropy) from a public bound B on every example's feature norm
     * {@code ||x||} (spec 4.6): with {@code R = sqrt(B^2 + 1)} bounding {@code ||(x, 1)||}, softmax has
     * {@code G = sqrt(2) R} (the gradient is {@code (p - y)(x, 1)^T} and {@code ||p - y|| <= sqrt(2)}) and
     * {@code L = R^2 / 2} (the Hessian of the loss in the logits has norm at most 1/2); logistic regression has
     * {@code G = R} and {@code L = R^2 / 4}. B must not be computed from the private data: for MNIST's pixels in
     * [0, 1], B = sqrt(784) (spec 4.6's constants); for any features in [-1, 1], B = sqrt(nIn).
     *
     * @throws IllegalArgumentException for any other model, naming the options that set G and L by hand, or for a
     *                                  bound that is not a positive finite number
     */
    public static Mu2Constants fromFeatureBound(DenseNetworkSpec model, double featureNormBound, double diameter) {
        org.dpdl4j.runtime.FeatureNormBound.require(featureNormBound);
        GeneralizedLinearModel glm = GeneralizedLinearModel.of(model);
        double r2 = featureNormBound * featureNormBound + 1;
        double g = glm == GeneralizedLinearModel.SOFTMAX ? Math.sqrt(2 * r2) : Math.sqrt(r2);
        double l = glm == GeneralizedLinearModel.SOFTMAX ? r2 / 2 : r2 / 4;
        return new Mu2Constants(g, l, diameter, String.format(java.util.Locale.ROOT,
                "derived for %s from the public feature bound ||x|| <= %.6g (spec 4.6)", glm.description, featureNormBound));
    }

    /** The default public feature bound of a model with {@code nIn} inputs: sqrt(nIn), every feature in [-1, 1]. */
    public static double defaultFeatureBound(long nIn) {
        return Math.sqrt(nIn);
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

    /** The bound on every weighted increment: {@code S = G + 2 L D}. */
    public double sensitivityBound() {
        return lipschitz + 2 * smoothness * diameter;
    }

    /** The clip applied to every q: S. */
    public double qClip() {
        return sensitivityBound();
    }

    /** The domain ball. */
    public ParameterBall domain() {
        return new ParameterBall(diameter);
    }

    /** One sentence for the run's statement: which case applies. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "G = %.6g, L = %.6g, D = %.6g, S = G + 2LD = %.6g (%s); every q is clipped to"
                + " norm <= S, so the sensitivity 2S holds by construction", lipschitz, smoothness, diameter, sensitivityBound(), source);
    }

    /** The convex one-layer models whose constants follow from a feature bound. */
    private enum GeneralizedLinearModel {
        SOFTMAX("softmax regression"),
        LOGISTIC("logistic regression");

        private final String description;

        GeneralizedLinearModel(String description) {
            this.description = description;
        }

        static GeneralizedLinearModel of(DenseNetworkSpec model) {
            DenseLayerSpec out = model.output();
            String hint = "; give G and L explicitly (--lipschitz, --smoothness): they set the clip S = G + 2LD of every increment";
            if (model.layers().size() != 1 || !out.hasBias()) {
                throw new IllegalArgumentException("G and L follow from a feature bound only for softmax or logistic regression"
                        + " (one output layer with bias), not for a network of " + model.layers().size() + " layers" + hint);
            }
            if (out.activation() instanceof ActivationSoftmax && model.loss() instanceof LossMCXENT mc && mc.getWeights() == null) {
                return SOFTMAX;
            }
            if (out.activation() instanceof ActivationSigmoid && model.loss() instanceof LossBinaryXENT bx && bx.getWeights() == null
                    && out.nOut() == 1) {
                return LOGISTIC;
            }
            throw new IllegalArgumentException("G and L follow from a feature bound only for softmax + MCXENT or sigmoid + XENT"
                    + " (one output), not for activation " + out.activation() + " with loss " + model.loss() + hint);
        }
    }
}
