package org.dpdl4j.attacks.matching;

import java.util.List;
import java.util.Objects;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.OutputHead;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.TargetNetwork;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Gradient matching in closed form, in plain Java and double precision, for dense and convolutional networks (with
 * max or average pooling after a convolution): the forward pass, the network's backward pass, and the reverse-mode
 * derivative of the matching loss through both, example by example.
 *
 * <p>Per stage {@code z_l = A_l(h_{l-1}) + b_l}, {@code h_l = P_l(f_l(z_l))} ({@code P} the pooling, linear once
 * the maxima are chosen), head output {@code p}, labels {@code y}: the backward pass is {@code delta_L = (p - y)/B},
 * {@code G_l = dA_l/dW (h_{l-1}, delta_l)}, {@code g_l = sum(delta_l)},
 * {@code delta_{l-1} = P_{l-1}^T(A_l^T(delta_l)) * f'(z_{l-1})}. For loss adjoints {@code Gbar}, {@code gbar} the
 * reverse pass adds {@code dG/ddelta} and {@code dG/dh} terms, carries {@code deltaBar} up the backward pass
 * ({@code deltaBar_{l+1} += A_{l+1}(P_l(deltaBar_l * f'))}, curvature {@code zBar_l += deltaBar_l * P^T(..) * f''}),
 * through the head and the soft labels, and down the forward pass as ordinary backpropagation. The linear maps of a
 * convolution are products with its unfolded input, so everything is vector loops over whole arrays; no graph, no
 * ND4J call per evaluation.
 *
 * <p>Both {@link MatchingLoss}es are supported: the squared distance of DLG (with a known or fitted scale, and
 * observations that combine two points, {@link SecondPoint}) and the cosine distance of Inverting Gradients. The
 * engine always computes in double precision.
 */
public final class JavaGradientMatching implements MatchingObjective {
    private final MatchingProblem problem;
    private final MatchingLoss loss;
    private final UnknownLayout layout;
    private final OutputHead head;
    private final int depth;
    private final int batch;
    private final int classes;
    private final JavaStage[][] stages;
    private final double[] pointWeights;
    private final JavaStage.State[][][] states;
    /** Whether stage l reads a copy of stage l - 1's output re-cut to its own input shape (a convolution before a dense stage). */
    private final boolean[] recut;
    private final double[][][] targetWeights;
    private final double[][] targetBiases;
    private final double[][] fixedLabels;
    private final double[][][][] weightGradients;
    private final double[][][] biasGradients;
    private final double[][][] weightBar;
    private final double[][] biasBar;
    private final double[][][] inputs;
    private final double[][] labels;
    private final double[][][] probabilities;
    // Scratch of one stage's shapes, reused by every example and point.
    private final double[][][] preScratch;
    private final double[][][] outScratch;
    private final double[][][] inScratch;
    private final double[] headScratch;
    private final double[] headScratch2;
    /** The combined gradient of two points (allocated on first use) and the fitted scale's adjoint of an evaluation. */
    private double[][][] combinedW;
    private double[][] combinedB;
    private double scaleAdjoint;

    /** An objective with the squared distance of DLG. */
    public JavaGradientMatching(MatchingProblem problem) {
        this(problem, MatchingLoss.SQUARED_DISTANCE);
    }

    public JavaGradientMatching(MatchingProblem problem, MatchingLoss loss) {
        this.problem = Objects.requireNonNull(problem, "problem must not be null");
        this.loss = Objects.requireNonNull(loss, "loss must not be null");
        this.layout = problem.layout();
        this.head = problem.network().head();
        List<Stage> network = problem.network().stages();
        this.depth = network.size();
        this.batch = layout.batchSize();
        this.classes = (int) problem.network().outputSize();
        SecondPoint second = problem.secondPoint();
        List<TargetNetwork> points = second == null ? List.of(problem.network())
                : List.of(problem.network(), second.previous());
        this.pointWeights = second == null ? new double[] {1.0}
                : new double[] {second.currentWeight(), -second.previousWeight()};
        this.stages = new JavaStage[points.size()][depth];
        for (int k = 0; k < points.size(); k++) {
            for (int l = 0; l < depth; l++) {
                stages[k][l] = JavaStage.of(points.get(k).stages().get(l));
            }
        }
        JavaStage[] shape = stages[0];
        this.states = new JavaStage.State[points.size()][batch][depth];
        this.recut = new boolean[depth];
        for (int l = 1; l < depth; l++) {
            recut[l] = !sameShape(shape[l - 1], shape[l]);
        }
        this.inputs = new double[batch][][];
        for (int b = 0; b < batch; b++) {
            inputs[b] = new double[shape[0].inPlanes][shape[0].inPositions];
        }
        for (int k = 0; k < points.size(); k++) {
            for (int b = 0; b < batch; b++) {
                for (int l = 0; l < depth; l++) {
                    states[k][b][l] = stages[k][l].newState();
                }
            }
        }
        this.targetWeights = new double[depth][][];
        this.targetBiases = new double[depth][];
        this.weightGradients = new double[points.size()][depth][][];
        this.biasGradients = new double[points.size()][depth][];
        this.weightBar = new double[depth][][];
        this.biasBar = new double[depth][];
        this.preScratch = new double[depth][][];
        this.outScratch = new double[depth][][];
        this.inScratch = new double[depth][][];
        for (int l = 0; l < depth; l++) {
            JavaStage s = shape[l];
            LayerGradient t = problem.target().get(l);
            targetWeights[l] = t.weights().castTo(DataType.DOUBLE).reshape(s.weightRows(), s.weightColumns())
                    .toDoubleMatrix();
            targetBiases[l] = t.hasBias() ? t.bias().castTo(DataType.DOUBLE).toDoubleVector() : null;
            for (int k = 0; k < points.size(); k++) {
                weightGradients[k][l] = new double[s.weightRows()][s.weightColumns()];
                biasGradients[k][l] = t.hasBias() ? new double[t.bias().length() > 0 ? (int) t.bias().length() : 0] : null;
            }
            weightBar[l] = new double[s.weightRows()][s.weightColumns()];
            biasBar[l] = t.hasBias() ? new double[(int) t.bias().length()] : null;
            preScratch[l] = new double[s.prePlanes][s.prePositions];
            outScratch[l] = new double[s.outPlanes][s.outPositions];
            inScratch[l] = new double[s.inPlanes][s.inPositions];
        }
        this.fixedLabels = problem.labels() instanceof LabelTreatment.Fixed fixed
                ? fixed.labels().castTo(DataType.DOUBLE).toDoubleMatrix() : null;
        this.labels = new double[batch][classes];
        this.probabilities = new double[points.size()][batch][classes];
        this.headScratch = new double[classes];
        this.headScratch2 = new double[classes];
    }

    private static boolean sameShape(JavaStage before, JavaStage after) {
        return before.outPlanes == after.inPlanes && before.outPositions == after.inPositions;
    }

    @Override
    public MatchingProblem problem() {
        return problem;
    }

    @Override
    public String description() {
        return "closed-form java (" + switch (loss) {
            case SQUARED_DISTANCE -> "";
            case COSINE_DISTANCE -> "cosine, ";
            case LAYERWISE_COSINE_DISTANCE -> "layer-wise cosine, ";
        } + "DOUBLE)"
                + (stages.length > 1 ? ", two points" : "");
    }

    /** The loss this objective evaluates. */
    public MatchingLoss loss() {
        return loss;
    }

    @Override
    public double evaluate(double[] point, double[] gradient) {
        double s = Unknowns.scale(point, layout);
        int n = (int) layout.inputSize();
        for (int b = 0; b < batch; b++) {
            double[][] planes = inputs[b];
            int offset = b * n;
            for (double[] plane : planes) {
                System.arraycopy(point, offset, plane, 0, plane.length);
                offset += plane.length;
            }
            if (fixedLabels != null) {
                System.arraycopy(fixedLabels[b], 0, labels[b], 0, classes);
            } else {
                System.arraycopy(point, layout.labelOffset() + b * classes, headScratch, 0, classes);
                head.apply(headScratch, labels[b], classes);
            }
        }
        for (int k = 0; k < stages.length; k++) {
            clearGradients(k);
            for (int b = 0; b < batch; b++) {
                forwardAndBackward(k, b);
            }
        }
        double value = lossAndAdjoints(s);
        java.util.Arrays.fill(gradient, 0.0);
        for (int k = 0; k < stages.length; k++) {
            for (int b = 0; b < batch; b++) {
                reverse(k, b, gradient);
            }
        }
        if (layout.fittedScale()) {
            gradient[layout.scaleOffset()] = loss == MatchingLoss.SQUARED_DISTANCE ? s * scaleAdjoint : 0.0;
        }
        return value;
    }

    private void clearGradients(int k) {
        for (int l = 0; l < depth; l++) {
            JavaKernels.clear(weightGradients[k][l]);
            if (biasGradients[k][l] != null) {
                java.util.Arrays.fill(biasGradients[k][l], 0.0);
            }
        }
    }

    /** The forward pass of one example at point k, then its backward pass into the point's gradient. */
    private void forwardAndBackward(int k, int b) {
        JavaStage[] st = stages[k];
        JavaStage.State[] ss = states[k][b];
        double[][] in = inputs[b];
        for (int l = 0; l < depth; l++) {
            st[l].forward(ss[l], in, l == depth - 1);
            if (l < depth - 1) {
                in = inputOf(l + 1, ss[l].out, ss[l + 1]);
            }
        }
        double[] p = probabilities[k][b];
        head.apply(ss[depth - 1].act[0], p, classes);
        double[] delta = ss[depth - 1].delta[0];
        for (int c = 0; c < classes; c++) {
            delta[c] = (p[c] - labels[b][c]) / batch;
        }
        for (int l = depth - 1; l >= 0; l--) {
            st[l].addGradient(ss[l], weightGradients[k][l], biasGradients[k][l]);
            if (l > 0) {
                st[l].applyTransposed(ss[l].delta, inScratch[l], ss[l]);
                double[][] error = recut[l] ? reshaped(inScratch[l], outScratch[l - 1]) : inScratch[l];
                st[l - 1].errorToDelta(ss[l - 1], error);
            }
        }
    }

    /** The planes stage l reads: the previous stage's output itself, or a copy re-cut to stage l's input shape. */
    private double[][] inputOf(int l, double[][] previousOut, JavaStage.State state) {
        if (!recut[l]) {
            return previousOut;
        }
        if (state.in == null || state.in == previousOut) {
            JavaStage s = stages[0][l];
            state.in = new double[s.inPlanes][s.inPositions];
        }
        JavaKernels.reshape(previousOut, state.in);
        return state.in;
    }

    /** The matching loss of the combined gradient, with its adjoints in weightBar, biasBar and scaleAdjoint. */
    private double lossAndAdjoints(double s) {
        scaleAdjoint = 0;
        if (loss == MatchingLoss.SQUARED_DISTANCE) {
            double value = 0;
            for (int l = 0; l < depth; l++) {
                value += squaredResidual(weightGradientsCombined(l), targetWeights[l], weightBar[l], s);
                if (biasBar[l] != null) {
                    value += squaredResidual(new double[][] {biasGradientsCombined(l)}, new double[][] {targetBiases[l]},
                            new double[][] {biasBar[l]}, s);
                }
            }
            return value;
        }
        if (loss == MatchingLoss.LAYERWISE_COSINE_DISTANCE) {
            return layerwiseCosine();
        }
        double dot = 0;
        double gg = 0;
        double tt = 0;
        for (int l = 0; l < depth; l++) {
            double[][] g = weightGradientsCombined(l);
            for (int r = 0; r < g.length; r++) {
                dot += JavaKernels.dot(g[r], targetWeights[l][r], g[r].length);
                gg += JavaKernels.dot(g[r], g[r], g[r].length);
                tt += JavaKernels.dot(targetWeights[l][r], targetWeights[l][r], g[r].length);
            }
            if (biasBar[l] != null) {
                double[] gb = biasGradientsCombined(l);
                dot += JavaKernels.dot(gb, targetBiases[l], gb.length);
                gg += JavaKernels.dot(gb, gb, gb.length);
                tt += JavaKernels.dot(targetBiases[l], targetBiases[l], gb.length);
            }
        }
        double ng = Math.sqrt(gg);
        double nt = Math.sqrt(tt);
        if (ng == 0 || nt == 0) {
            for (int l = 0; l < depth; l++) {
                JavaKernels.clear(weightBar[l]);
                if (biasBar[l] != null) {
                    java.util.Arrays.fill(biasBar[l], 0.0);
                }
            }
            return 1.0;
        }
        // d/dg (1 - <g,t>/(|g||t|)) = -t/(|g||t|) + <g,t> g/(|g|^3 |t|)
        double onT = -1.0 / (ng * nt);
        double onG = dot / (ng * ng * ng * nt);
        for (int l = 0; l < depth; l++) {
            double[][] g = weightGradientsCombined(l);
            for (int r = 0; r < g.length; r++) {
                double[] bar = weightBar[l][r];
                double[] gr = g[r];
                double[] tr = targetWeights[l][r];
                for (int c = 0; c < gr.length; c++) {
                    bar[c] = onT * tr[c] + onG * gr[c];
                }
            }
            if (biasBar[l] != null) {
                double[] gb = biasGradientsCombined(l);
                for (int c = 0; c < gb.length; c++) {
                    biasBar[l][c] = onT * targetBiases[l][c] + onG * gb[c];
                }
            }
        }
        return 1.0 - dot / (ng * nt);
    }

    /** The mean over tensors of {@code 1 - cos(g_k, t_k)}, with its adjoints. */
    private double layerwiseCosine() {
        int tensors = 0;
        for (int l = 0; l < depth; l++) {
            tensors += biasBar[l] != null ? 2 : 1;
        }
        double value = 0;
        for (int l = 0; l < depth; l++) {
            value += cosineOf(weightGradientsCombined(l), targetWeights[l], weightBar[l], tensors);
            if (biasBar[l] != null) {
                value += cosineOf(new double[][] {biasGradientsCombined(l)}, new double[][] {targetBiases[l]},
                        new double[][] {biasBar[l]}, tensors);
            }
        }
        return value;
    }

    /** {@code (1 - cos(g, t)) / tensors}, and its gradient with respect to g into bar (0 where g or t vanishes). */
    private static double cosineOf(double[][] g, double[][] t, double[][] bar, int tensors) {
        double dot = 0;
        double gg = 0;
        double tt = 0;
        for (int r = 0; r < g.length; r++) {
            dot += JavaKernels.dot(g[r], t[r], g[r].length);
            gg += JavaKernels.dot(g[r], g[r], g[r].length);
            tt += JavaKernels.dot(t[r], t[r], t[r].length);
        }
        double ng = Math.sqrt(gg);
        double nt = Math.sqrt(tt);
        if (ng == 0 || nt == 0) {
            JavaKernels.clear(bar);
            return 1.0 / tensors;
        }
        double onT = -1.0 / (ng * nt * tensors);
        double onG = dot / (ng * ng * ng * nt * tensors);
        for (int r = 0; r < g.length; r++) {
            for (int c = 0; c < g[r].length; c++) {
                bar[r][c] = onT * t[r][c] + onG * g[r][c];
            }
        }
        return (1.0 - dot / (ng * nt)) / tensors;
    }

    /** {@code sum (s g - t)^2}; bar = 2 s (s g - t); adds {@code 2 sum (s g - t) g} to the scale's adjoint. */
    private double squaredResidual(double[][] g, double[][] t, double[][] bar, double s) {
        double value = 0;
        for (int r = 0; r < g.length; r++) {
            double[] gr = g[r];
            double[] tr = t[r];
            double[] br = bar[r];
            for (int c = 0; c < gr.length; c++) {
                double res = s * gr[c] - tr[c];
                value += res * res;
                scaleAdjoint += 2 * res * gr[c];
                br[c] = 2 * s * res;
            }
        }
        return value;
    }

    /** Stage l's weight gradient combined over the points (the point's own array when there is one point). */
    private double[][] weightGradientsCombined(int l) {
        if (stages.length == 1) {
            return weightGradients[0][l];
        }
        double[][] sum = weightGradients[0][l];
        double[][] other = weightGradients[1][l];
        double[][] out = combinedWeights(l);
        for (int r = 0; r < sum.length; r++) {
            for (int c = 0; c < sum[r].length; c++) {
                out[r][c] = pointWeights[0] * sum[r][c] + pointWeights[1] * other[r][c];
            }
        }
        return out;
    }

    private double[] biasGradientsCombined(int l) {
        if (stages.length == 1) {
            return biasGradients[0][l];
        }
        double[] out = combinedBiases(l);
        for (int c = 0; c < out.length; c++) {
            out[c] = pointWeights[0] * biasGradients[0][l][c] + pointWeights[1] * biasGradients[1][l][c];
        }
        return out;
    }

    private double[][] combinedWeights(int l) {
        if (combinedW == null) {
            combinedW = new double[depth][][];
            combinedB = new double[depth][];
        }
        if (combinedW[l] == null) {
            combinedW[l] = new double[weightGradients[0][l].length][weightGradients[0][l][0].length];
        }
        return combinedW[l];
    }

    private double[] combinedBiases(int l) {
        combinedWeights(l);
        if (combinedB[l] == null) {
            combinedB[l] = new double[biasGradients[0][l].length];
        }
        return combinedB[l];
    }

    /** The reverse pass of one example at point k: adds the adjoint of its dummy input (and soft label) to gradient. */
    private void reverse(int k, int b, double[] gradient) {
        JavaStage[] st = stages[k];
        JavaStage.State[] ss = states[k][b];
        double c = pointWeights[k];
        for (int l = 0; l < depth; l++) {
            JavaKernels.clear(ss[l].deltaBar);
            JavaKernels.clear(ss[l].preBar);
            JavaKernels.clear(ss[l].inBar);
            st[l].addGradientAdjoint(ss[l], weightBar[l], biasBar[l], c);
        }
        // Up the backward pass: delta_{l+1} feeds delta_l through A_{l+1}^T, pooling and f'.
        for (int l = 0; l < depth - 1; l++) {
            st[l].deltaBarToErrorBar(ss[l], outScratch[l], preScratch[l]);
            double[][] errorBar = recut[l + 1] ? reshaped(outScratch[l], inScratch[l + 1]) : outScratch[l];
            st[l + 1].apply(errorBar, preScratch[l + 1], ss[l + 1]);
            addInto(ss[l + 1].deltaBar, preScratch[l + 1]);
        }
        // Through delta_L = (p - y)/B into the logits and the soft labels.
        double[] pBar = headScratch;
        double[] deltaBarTop = ss[depth - 1].deltaBar[0];
        for (int j = 0; j < classes; j++) {
            pBar[j] = deltaBarTop[j] / batch;
        }
        double[] p = probabilities[k][b];
        head.backpropagate(p, pBar, headScratch2, classes);
        double[] preBarTop = ss[depth - 1].preBar[0];
        for (int j = 0; j < classes; j++) {
            preBarTop[j] += headScratch2[j];
        }
        if (fixedLabels == null) {
            for (int j = 0; j < classes; j++) {
                pBar[j] = -pBar[j];
            }
            head.backpropagate(labels[b], pBar, headScratch2, classes);
            int offset = layout.labelOffset() + b * classes;
            for (int j = 0; j < classes; j++) {
                gradient[offset + j] += headScratch2[j];
            }
        }
        // Down the forward pass.
        for (int l = depth - 1; l >= 0; l--) {
            st[l].applyTransposed(ss[l].preBar, inScratch[l], ss[l]);
            addInto(ss[l].inBar, inScratch[l]);
            if (l >= 1) {
                double[][] outBar = recut[l] ? reshaped(ss[l].inBar, outScratch[l - 1]) : ss[l].inBar;
                st[l - 1].outBarToPreBar(ss[l - 1], outBar, preScratch[l - 1]);
            }
        }
        int offset = b * (int) layout.inputSize();
        for (double[] plane : ss[0].inBar) {
            for (int i = 0; i < plane.length; i++) {
                gradient[offset + i] += plane[i];
            }
            offset += plane.length;
        }
    }

    private static double[][] reshaped(double[][] from, double[][] to) {
        JavaKernels.reshape(from, to);
        return to;
    }

    private static void addInto(double[][] target, double[][] add) {
        for (int r = 0; r < target.length; r++) {
            JavaKernels.axpy(target[r], add[r], 1.0, target[r].length);
        }
    }
}
