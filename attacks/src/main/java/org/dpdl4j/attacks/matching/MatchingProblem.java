package org.dpdl4j.attacks.matching;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.TargetNetwork;

/**
 * A gradient-matching problem: find dummy inputs {@code x'} (and labels) whose loss gradient on the network
 * reproduces the target,
 * {@code D = sum_l ||s * dL(F(x'; W), y')/dW_l - T_l||^2} over every weight and bias tensor, where {@code L} is
 * the loss averaged over the {@code batchSize} dummy examples and {@code s} is 1, or {@code exp(rho)} with
 * {@code rho} an extra unknown when {@code fitScale}.
 *
 * @param network   the attacked network with its weights at the time of the release
 * @param target    per-stage target {@code T}: the observed vector divided by its known scale, or the raw
 *                  observed vector when the scale is fitted
 * @param batchSize number of dummy examples the observed gradient averages over
 * @param labels    whether the labels are unknowns or fixed
 * @param fitScale  whether an unknown positive scale multiplies the dummy gradient
 * @param secondPoint where the observation also evaluates the gradient (mu^2-SGD increments), or null when it is
 *                  the gradient at {@code network} alone
 */
public record MatchingProblem(TargetNetwork network, List<LayerGradient> target, int batchSize,
                              LabelTreatment labels, boolean fitScale, SecondPoint secondPoint) {

    /** A problem whose observation is the gradient at {@code network}. */
    public MatchingProblem(TargetNetwork network, List<LayerGradient> target, int batchSize, LabelTreatment labels,
                           boolean fitScale) {
        this(network, target, batchSize, labels, fitScale, null);
    }

    public MatchingProblem {
        Objects.requireNonNull(network, "matching problem: network must not be null");
        Objects.requireNonNull(target, "matching problem: target must not be null");
        Objects.requireNonNull(labels, "matching problem: labels must not be null (use LabelTreatment.optimised())");
        target = List.copyOf(target);
        if (batchSize < 1) {
            throw new IllegalArgumentException("matching problem: batchSize must be >= 1, got " + batchSize);
        }
        List<Stage> stages = network.stages();
        if (target.size() != stages.size()) {
            throw new IllegalArgumentException("matching problem: target has " + target.size()
                    + " parts but the network has " + stages.size() + " stages");
        }
        for (int i = 0; i < stages.size(); i++) {
            Stage stage = stages.get(i);
            LayerGradient part = target.get(i);
            if (!Arrays.equals(part.weights().shape(), stage.weights().shape())) {
                throw new IllegalArgumentException("matching problem: target weights of stage " + i + " (layer "
                        + stage.layerIndex() + ") have shape " + Arrays.toString(part.weights().shape())
                        + ", expected " + Arrays.toString(stage.weights().shape()));
            }
            if (part.hasBias() != stage.hasBias()) {
                throw new IllegalArgumentException("matching problem: target of stage " + i + " (layer "
                        + stage.layerIndex() + ") " + (part.hasBias() ? "has" : "lacks") + " a bias part but the stage "
                        + (stage.hasBias() ? "has" : "has no") + " bias");
            }
        }
        if (secondPoint != null && secondPoint.previous().numParams() != network.numParams()) {
            throw new IllegalArgumentException("matching problem: the second point's network has "
                    + secondPoint.previous().numParams() + " parameters, the first " + network.numParams());
        }
        if (labels instanceof LabelTreatment.Fixed fixed
                && (fixed.labels().size(0) != batchSize || fixed.labels().size(1) != network.outputSize())) {
            throw new IllegalArgumentException("matching problem: fixed labels have shape "
                    + Arrays.toString(fixed.labels().shape()) + ", expected [" + batchSize + ", "
                    + network.outputSize() + "]");
        }
    }

    /** Whether the observation combines the gradients at two points. */
    public boolean hasSecondPoint() {
        return secondPoint != null;
    }

    /** Where the unknowns sit in the flat vector the optimiser works on. */
    public UnknownLayout layout() {
        long labelSize = labels instanceof LabelTreatment.Optimised ? network.outputSize() : 0;
        return new UnknownLayout(batchSize, network.inputSize(), labelSize, fitScale);
    }
}
