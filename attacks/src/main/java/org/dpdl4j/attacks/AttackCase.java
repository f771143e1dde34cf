package org.dpdl4j.attacks;

import java.util.List;
import java.util.Objects;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One attack case: what an adversary observed at one release and what it knows, separated from any attack.
 * The attack sees the model (architecture and parameters at the release), the observed vector, the batch size,
 * the scale if known, and the noise level if known; the ground truth is used only to score the result.
 *
 * @param model      the network with its parameters at the time of the release (kept as a private copy)
 * @param observed   the observed vector, laid out like {@code model.params()}:
 *                   {@code scale.factor() * gradient of the batch-mean loss + noise}
 * @param scale      the factor relating the observation to the gradient
 * @param noiseStd   per-coordinate standard deviation of the Gaussian noise in {@code observed}, in the units of
 *                   {@code observed}; 0 when the release is not noisy
 * @param batchSize  number of examples the gradient averages over
 * @param truth      the attacked examples, for scoring
 * @param provenance protocol, observer, round, model accuracy
 * @param form       what the observation is a multiple of: the gradient at {@code model}, or a weighted difference of
 *                   the gradients at {@code model} and a second model
 */
public record AttackCase(MultiLayerNetwork model, INDArray observed, ObservationScale scale, double noiseStd,
                         int batchSize, GroundTruth truth, ReleaseOrigin provenance, GradientForm form) {

    /** A case whose observation is a multiple of the gradient at {@code model}. */
    public AttackCase(MultiLayerNetwork model, INDArray observed, ObservationScale scale, double noiseStd, int batchSize,
                      GroundTruth truth, ReleaseOrigin provenance) {
        this(model, observed, scale, noiseStd, batchSize, truth, provenance, GradientForm.AT_MODEL);
    }

    public AttackCase {
        Objects.requireNonNull(model, "model must not be null");
        Objects.requireNonNull(observed, "observed vector must not be null");
        Objects.requireNonNull(scale, "observation scale must not be null");
        Objects.requireNonNull(truth, "ground truth must not be null");
        Objects.requireNonNull(provenance, "provenance must not be null");
        Objects.requireNonNull(form, "gradient form must not be null (use GradientForm.AT_MODEL)");
        if (form instanceof GradientForm.Difference d && d.previousParameters().length() != model.numParams()) {
            throw new IllegalArgumentException("the second model has " + d.previousParameters().length()
                    + " parameters but the model has " + model.numParams());
        }
        if (observed.length() != model.numParams()) {
            throw new IllegalArgumentException("observed vector has " + observed.length() + " entries but the model has "
                    + model.numParams() + " parameters; it must be laid out like model.params()");
        }
        if (!(noiseStd >= 0) || Double.isInfinite(noiseStd)) {
            throw new IllegalArgumentException("noise std must be a finite number >= 0, got " + noiseStd);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        if (truth.size() != batchSize) {
            throw new IllegalArgumentException("ground truth has " + truth.size() + " examples but the batch size is "
                    + batchSize);
        }
        model = model.clone();
        observed = observed.dup().reshape(1, observed.length());
    }

    /** The attacked network as gradient matching sees it (a fresh snapshot). */
    public TargetNetwork target() {
        return TargetNetwork.of(model);
    }

    /**
     * The observation mapped to the gradient of the batch-mean loss, per stage: {@code observed / factor} when the
     * attacker knows the factor, the raw observation otherwise (the attack then fits the factor).
     */
    public List<LayerGradient> gradientEstimate(TargetNetwork target) {
        INDArray flat = scale.knownToAttacker() ? observed.div(scale.factor()) : observed;
        return target.split(flat);
    }

    /**
     * The same release seen by an attacker who knows the sign convention but not the magnitude of the factor
     * (e.g. an unknown learning rate): a negative factor is folded into the observation, so the attack fits a
     * positive one.
     */
    public AttackCase withUnknownScale() {
        double factor = scale.factor();
        INDArray folded = factor < 0 ? observed.neg() : observed;
        return new AttackCase(model, folded, ObservationScale.unknownPositive(Math.abs(factor)), noiseStd, batchSize,
                truth, provenance.with("scale_known", "false"), form);
    }

    /** The second model of a {@link GradientForm.Difference} observation, as a fresh network. */
    public MultiLayerNetwork previousModel() {
        if (!(form instanceof GradientForm.Difference d)) {
            throw new IllegalStateException("this case observes the gradient at one model; it has no second model");
        }
        MultiLayerNetwork previous = model.clone();
        previous.setParams(d.previousParameters().castTo(model.params().dataType()));
        return previous;
    }

    /** Per-coordinate noise std in gradient units ({@code noiseStd / |factor|}). */
    public double noiseStdInGradientUnits() {
        return noiseStd / Math.abs(scale.factor());
    }
}
