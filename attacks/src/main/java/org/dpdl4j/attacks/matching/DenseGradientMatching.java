package org.dpdl4j.attacks.matching;

import java.util.List;
import java.util.Objects;
import org.dpdl4j.attacks.network.DenseStage;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.OutputHead;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.StageActivation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.memory.conf.WorkspaceConfiguration;
import org.nd4j.linalg.api.memory.enums.AllocationPolicy;
import org.nd4j.linalg.api.memory.enums.LearningPolicy;
import org.nd4j.linalg.api.memory.enums.ResetPolicy;
import org.nd4j.linalg.api.memory.enums.SpillPolicy;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Gradient matching for dense networks in closed form: the forward pass, the network's backward pass, and the
 * reverse-mode derivative of the matching loss through both, written out by hand in ND4J ops.
 *
 * <p>With inputs {@code H_0 = X} ({@code B} rows), {@code A_l = H_{l-1} W_l + b_l}, {@code H_l = f_l(A_l)}, head
 * output {@code P}, labels {@code Y}, the backward pass is {@code Delta_L = (P - Y)/B},
 * {@code G_l = H_{l-1}' Delta_l}, {@code g_l = colSum(Delta_l)},
 * {@code Delta_{l-1} = E_{l-1} * f'(A_{l-1})} with {@code E_{l-1} = Delta_l W_l'}. For
 * {@code D = sum_l ||s G_l - T_l||^2 + ||s g_l - t_l||^2} the adjoints are
 * {@code dD/dDelta_l += H_{l-1} Gbar_l + 1 gbar_l} and {@code dD/dH_{l-1} += Delta_l Gbar_l'}
 * ({@code Gbar = 2s(sG - T)}), then {@code dD/dDelta} flows up the backward pass
 * ({@code dD/dDelta_l += (dD/dDelta_{l-1} * f') W_l}, curvature term
 * {@code dD/dA_{l-1} += dD/dDelta_{l-1} * E_{l-1} * f''}), through the head and the soft label, and down
 * the forward pass as in ordinary backpropagation. About a dozen matrix products per layer, no graph.
 *
 * <p>When the observation combines the gradients at two points ({@link SecondPoint}: {@code a G(x'; W) - b G(x'; W')}),
 * each point gets its own forward and backward pass, the residual is taken on the combination, and each pass
 * receives the residual's adjoint times its weight.
 */
public final class DenseGradientMatching implements MatchingObjective {
    private final String workspaceId;
    private final WorkspaceConfiguration workspace;
    private final MatchingProblem problem;
    private final UnknownLayout layout;
    private final DataType dataType;
    private final OutputHead head;
    private final int depth;
    private final Pass[] passes;
    private final double[] passWeights;
    private final INDArray[] targetWeights;
    private final INDArray[] targetBiases;
    private final INDArray fixedLabels;

    /**
     * @param problem  a problem whose network is dense only
     * @param dataType FLOAT or DOUBLE
     * @throws IllegalArgumentException if the network has a convolution
     */
    public DenseGradientMatching(MatchingProblem problem, DataType dataType) {
        this.problem = Objects.requireNonNull(problem, "problem must not be null");
        this.dataType = Objects.requireNonNull(dataType, "data type must not be null");
        MatchingEngine.CLOSED_FORM.limitation(problem.network()).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        this.layout = problem.layout();
        this.head = problem.network().head();
        this.depth = problem.network().stages().size();
        SecondPoint second = problem.secondPoint();
        this.passes = second == null ? new Pass[] {new Pass(problem.network())}
                : new Pass[] {new Pass(problem.network()), new Pass(second.previous())};
        this.passWeights = second == null ? new double[] {1.0}
                : new double[] {second.currentWeight(), -second.previousWeight()};
        this.targetWeights = new INDArray[depth];
        this.targetBiases = new INDArray[depth];
        for (int l = 0; l < depth; l++) {
            LayerGradient target = problem.target().get(l);
            targetWeights[l] = target.weights().castTo(dataType).dup('c');
            targetBiases[l] = target.hasBias() ? target.bias().castTo(dataType).dup('c') : null;
        }
        this.fixedLabels = problem.labels() instanceof LabelTreatment.Fixed fixed
                ? fixed.labels().castTo(dataType).dup('c') : null;
        // About a dozen arrays of each weight's size live at once in an evaluation of each point; reserve that.
        long elements = 0;
        StringBuilder shape = new StringBuilder("dpdl4j-dense-matching-").append(dataType).append('-')
                .append(layout.batchSize()).append('-').append(passes.length);
        for (INDArray w : passes[0].weights) {
            elements += (w.length() + w.size(0) + w.size(1)) * (layout.batchSize() + 1L) * passes.length;
            shape.append('-').append(w.size(0)).append('x').append(w.size(1));
        }
        // ND4J keeps a workspace per thread and id until it is destroyed: objectives of the same shape share one
        // (its size depends only on the shape), so running many attacks does not accumulate workspaces.
        this.workspaceId = shape.toString();
        this.workspace = WorkspaceConfiguration.builder()
                .initialSize(16 * elements * dataType.width() + (1L << 20))
                .policyAllocation(AllocationPolicy.STRICT).policyLearning(LearningPolicy.NONE)
                .policyReset(ResetPolicy.BLOCK_LEFT).policySpill(SpillPolicy.REALLOCATE).build();
    }

    @Override
    public MatchingProblem problem() {
        return problem;
    }

    @Override
    public String description() {
        return "closed-form dense (" + dataType + ")" + (passes.length > 1 ? ", two points" : "");
    }

    @Override
    public double evaluate(double[] point, double[] gradient) {
        // Every intermediate lives in a reused workspace: allocating dozens of small native arrays per call
        // otherwise costs more than the arithmetic. Only the double[] gradient and the loss leave it.
        try (MemoryWorkspace ignored = Nd4j.getWorkspaceManager().getAndActivateWorkspace(workspace, workspaceId)) {
            return evaluateInWorkspace(point, gradient);
        }
    }

    private double evaluateInWorkspace(double[] point, double[] gradient) {
        double s = Unknowns.scale(point, layout);
        INDArray x = Unknowns.inputs(point, layout, dataType);
        INDArray labels = layout.optimisesLabels()
                ? head.apply(Unknowns.labelLogits(point, layout, dataType)) : fixedLabels;
        for (Pass pass : passes) {
            pass.forward(x, labels);
        }

        // Residuals of the (combined) gradient and their adjoints Gbar = 2 s r, gbar = 2 s rb.
        double loss = 0;
        double scaleAdjoint = 0;
        INDArray[] weightBar = new INDArray[depth];
        INDArray[] biasBar = new INDArray[depth];
        for (int l = 0; l < depth; l++) {
            INDArray g = combine(l, false);
            INDArray r = s == 1.0 ? g.sub(targetWeights[l]) : g.mul(s).subi(targetWeights[l]);
            loss += squaredNorm(r);
            if (layout.fittedScale()) {
                scaleAdjoint += 2 * r.mul(g).sumNumber().doubleValue();
            }
            weightBar[l] = r.muli(2 * s);
            if (targetBiases[l] != null) {
                INDArray gb = combine(l, true);
                INDArray rb = s == 1.0 ? gb.sub(targetBiases[l]) : gb.mul(s).subi(targetBiases[l]);
                loss += squaredNorm(rb);
                if (layout.fittedScale()) {
                    scaleAdjoint += 2 * rb.mul(gb).sumNumber().doubleValue();
                }
                biasBar[l] = rb.muli(2 * s);
            }
        }
        INDArray inputBar = null;
        INDArray labelBar = null;
        for (int k = 0; k < passes.length; k++) {
            INDArray[] adjoints = passes[k].adjoint(passWeights[k], weightBar, biasBar, labels);
            inputBar = inputBar == null ? adjoints[0] : inputBar.addi(adjoints[0]);
            if (adjoints[1] != null) {
                labelBar = labelBar == null ? adjoints[1] : labelBar.addi(adjoints[1]);
            }
        }
        Unknowns.writeGradient(gradient, layout, inputBar, labelBar, s * scaleAdjoint);
        return loss;
    }

    /** The weighted sum over the points of stage l's weight (or bias) gradient. */
    private INDArray combine(int l, boolean bias) {
        INDArray sum = null;
        for (int k = 0; k < passes.length; k++) {
            INDArray g = bias ? passes[k].biasGradient(l) : passes[k].weightGradient(l);
            if (passWeights[k] != 1.0) {
                g.muli(passWeights[k]);
            }
            sum = sum == null ? g : sum.addi(g);
        }
        return sum;
    }

    private static double squaredNorm(INDArray a) {
        double n = a.norm2Number().doubleValue();
        return n * n;
    }

    /** The forward pass, the network's backward pass, and the reverse pass through both, at one point's weights. */
    private final class Pass {
        private final INDArray[] weights = new INDArray[depth];
        private final INDArray[] weightsTransposed = new INDArray[depth];
        private final INDArray[] biases = new INDArray[depth];
        private final StageActivation[] activations = new StageActivation[depth];
        // State of the current evaluation: in[l] is the input of stage l, pre[l] its pre-activation,
        // slope[l] = f_l'(pre[l]), delta[l] = dL/dpre[l], backIn[l] = delta[l+1] W_{l+1}'.
        private INDArray[] in;
        private INDArray[] pre;
        private INDArray[] slope;
        private INDArray[] delta;
        private INDArray[] backIn;
        private INDArray p;

        Pass(org.dpdl4j.attacks.network.TargetNetwork network) {
            List<Stage> stages = network.stages();
            for (int l = 0; l < depth; l++) {
                DenseStage stage = (DenseStage) stages.get(l);
                weights[l] = stage.weights().castTo(dataType).dup('c');
                weightsTransposed[l] = weights[l].transpose().dup('c');
                biases[l] = stage.hasBias() ? stage.bias().castTo(dataType).dup('c') : null;
                activations[l] = stage.activation();
            }
        }

        void forward(INDArray x, INDArray labels) {
            int batch = layout.batchSize();
            in = new INDArray[depth];
            pre = new INDArray[depth];
            slope = new INDArray[depth];
            in[0] = x;
            for (int l = 0; l < depth; l++) {
                pre[l] = in[l].mmul(weights[l]);
                if (biases[l] != null) {
                    pre[l].addiRowVector(biases[l]);
                }
                if (l < depth - 1) {
                    in[l + 1] = activations[l].apply(pre[l]);
                    slope[l] = activations[l] == StageActivation.IDENTITY ? null
                            : activations[l].derivative(pre[l], in[l + 1]);
                }
            }
            p = head.apply(pre[depth - 1]);
            delta = new INDArray[depth];
            backIn = new INDArray[depth];
            delta[depth - 1] = p.sub(labels).divi(batch);
            for (int l = depth - 1; l >= 1; l--) {
                backIn[l - 1] = delta[l].mmul(weightsTransposed[l]);
                delta[l - 1] = slope[l - 1] == null ? backIn[l - 1] : backIn[l - 1].mul(slope[l - 1]);
            }
        }

        INDArray weightGradient(int l) {
            return Nd4j.gemm(in[l], delta[l], true, false);
        }

        INDArray biasGradient(int l) {
            return delta[l].sum(true, 0);
        }

        /**
         * The adjoints of the dummy inputs and soft labels for the loss adjoints {@code c * Gbar}, {@code c * gbar}
         * of this point's weight and bias gradients.
         *
         * @return {inputs' adjoint, labels' adjoint (null when labels are fixed)}
         */
        INDArray[] adjoint(double c, INDArray[] weightBar, INDArray[] biasBar, INDArray labels) {
            int batch = layout.batchSize();
            INDArray[] deltaBar = new INDArray[depth];
            INDArray[] inBar = new INDArray[depth];
            for (int l = 0; l < depth; l++) {
                INDArray gBar = c == 1.0 ? weightBar[l] : weightBar[l].mul(c);
                deltaBar[l] = in[l].mmul(gBar);
                inBar[l] = Nd4j.gemm(delta[l], gBar, false, true);
                if (biasBar[l] != null) {
                    deltaBar[l].addiRowVector(c == 1.0 ? biasBar[l] : biasBar[l].mul(c));
                }
            }
            // Up the backward pass: delta[l] = backIn[l] * slope[l] with backIn[l] = delta[l+1] W_{l+1}'.
            INDArray[] preBar = new INDArray[depth];
            for (int l = 0; l < depth - 1; l++) {
                INDArray backInBar = slope[l] == null ? deltaBar[l] : deltaBar[l].mul(slope[l]);
                deltaBar[l + 1].addi(backInBar.mmul(weights[l + 1]));
                if (!activations[l].isPiecewiseLinear()) {
                    preBar[l] = deltaBar[l].mul(backIn[l]).muli(activations[l].secondDerivative(in[l + 1]));
                }
            }
            // Through delta_L = (P - Y)/B into the head and the soft label.
            INDArray pBar = deltaBar[depth - 1].div(batch);
            preBar[depth - 1] = head.backpropagate(p, pBar);
            INDArray labelBar = layout.optimisesLabels() ? head.backpropagate(labels, pBar.neg()) : null;
            // Down the forward pass.
            for (int l = depth - 1; l >= 0; l--) {
                inBar[l].addi(preBar[l].mmul(weightsTransposed[l]));
                if (l >= 1) {
                    INDArray contribution = slope[l - 1] == null ? inBar[l] : inBar[l].mul(slope[l - 1]);
                    preBar[l - 1] = preBar[l - 1] == null ? contribution : preBar[l - 1].addi(contribution);
                }
            }
            return new INDArray[] {inBar[0], labelBar};
        }
    }
}
