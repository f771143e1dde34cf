package org.dpdl4j.attacks.matching;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.network.ConvolutionStage;
import org.dpdl4j.attacks.network.DenseStage;
import org.dpdl4j.attacks.network.LayerGradient;
import org.dpdl4j.attacks.network.OutputHead;
import org.dpdl4j.attacks.network.Stage;
import org.dpdl4j.attacks.network.StageActivation;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.nd4j.autodiff.samediff.SDIndex;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.api.OutAndGrad;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv2DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.PaddingMode;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Gradient matching as a SameDiff graph: the network's forward pass and its analytic backward pass are written
 * as ordinary differentiable ops (matrix products, reshapes, permutations, element-wise activation
 * derivatives, the soft-label cross-entropy gradient {@code (P - softmax(u'))/B}), the matching loss is built on
 * top, and SameDiff's reverse mode differentiates it with respect to the placeholders {@code x'}, {@code u'} and
 * {@code rho}. SameDiff cannot differentiate its own gradient ops, which is why the backward pass is spelled out.
 *
 * <p>A convolution is im2col followed by a matrix product. The forward im2col is SameDiff's {@code im2col} op
 * (whose derivative is col2im), or, when the padding is asymmetric (DL4J's Same mode with odd total padding), a
 * product with a constant 0/1 gather matrix ({@link ConvolutionGeometry#gatherMatrix}). The col2im of the
 * model's backward pass must itself be differentiable, which SameDiff's {@code col2im} is not, so it is an
 * {@code unsorted_segment_sum} of the column gradients onto the pixels each tap read
 * ({@link ConvolutionGeometry#tapSources}); its derivative is a gather. SameDiff's {@code gather} op cannot be
 * used for im2col: its derivative builds a control-flow loop that fails when a graph holds two of them. The
 * graph is built once and evaluated with new placeholder values at every call.
 */
public final class SameDiffGradientMatching implements MatchingObjective {
    private static final Object STDOUT_LOCK = new Object();
    private static final String INPUTS = "dummyInputs";
    private static final String LABEL_LOGITS = "dummyLabelLogits";
    private static final String LOG_SCALE = "logScale";
    private static final String LOSS = "matchingLoss";

    private final MatchingProblem problem;
    private final UnknownLayout layout;
    private final DataType dataType;
    private final SameDiff sd;
    private final List<String> unknownNames = new ArrayList<>();

    /** Builds the graph for the problem in the given precision (FLOAT or DOUBLE). */
    public SameDiffGradientMatching(MatchingProblem problem, DataType dataType) {
        this.problem = Objects.requireNonNull(problem, "problem must not be null");
        this.dataType = Objects.requireNonNull(dataType, "data type must not be null");
        if (problem.hasSecondPoint()) {
            throw new IllegalArgumentException("the SameDiff objective matches the gradient at one point; an observation"
                    + " combining two points (mu^2-SGD increments) needs a dense network and the closed form"
                    + " (the closed-form, java or auto engine)");
        }
        MatchingEngine.SAMEDIFF.limitation(problem.network()).ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        this.layout = problem.layout();
        this.sd = SameDiff.create();
        build();
    }

    private void build() {
        int batch = layout.batchSize();
        OutputHead head = problem.network().head();
        SDVariable x = sd.placeHolder(INPUTS, dataType, batch, layout.inputSize());
        unknownNames.add(INPUTS);
        SDVariable labels;
        if (layout.optimisesLabels()) {
            SDVariable u = sd.placeHolder(LABEL_LOGITS, dataType, batch, layout.labelSize());
            unknownNames.add(LABEL_LOGITS);
            labels = head.apply(sd, u);
        } else {
            labels = sd.constant("fixedLabels",
                    ((LabelTreatment.Fixed) problem.labels()).labels().castTo(dataType).dup('c'));
        }
        SDVariable scale = null;
        if (layout.fittedScale()) {
            SDVariable rho = sd.placeHolder(LOG_SCALE, dataType, 1, 1);
            unknownNames.add(LOG_SCALE);
            scale = sd.math.exp(rho);
        }

        List<Stage> stages = problem.network().stages();
        int depth = stages.size();
        List<StageGraph> graphs = new ArrayList<>(depth);
        SDVariable in = x;
        for (int l = 0; l < depth; l++) {
            StageGraph g = stages.get(l) instanceof ConvolutionStage c
                    ? new ConvolutionGraph(c, l, batch) : new DenseGraph((DenseStage) stages.get(l), l);
            graphs.add(g);
            SDVariable pre = g.forward(in);
            if (l < depth - 1) {
                StageActivation f = stages.get(l).activation();
                SDVariable out = f.apply(sd, pre);
                g.slope = f == StageActivation.IDENTITY ? null : f.derivative(pre, out);
                in = out;
            } else {
                in = pre;
            }
        }
        SDVariable p = head.apply(sd, in);
        SDVariable delta = p.sub(labels).div(batch);
        SDVariable loss = null;
        for (int l = depth - 1; l >= 0; l--) {
            StageGraph g = graphs.get(l);
            LayerGradient target = problem.target().get(l);
            SDVariable[] grads = g.parameterGradients(delta);
            SDVariable term = residualSquares(grads[0], g.targetWeights(target.weights()), scale);
            if (grads[1] != null) {
                term = term.add(residualSquares(grads[1], sd.constant(target.bias().castTo(dataType).dup('c')),
                        scale));
            }
            loss = loss == null ? term : loss.add(term);
            if (l > 0) {
                SDVariable backIn = g.inputGradient(delta);
                SDVariable slope = graphs.get(l - 1).slope;
                delta = slope == null ? backIn : backIn.mul(slope);
            }
        }
        loss.rename(LOSS);
        sd.setLossVariables(LOSS);
        synchronized (STDOUT_LOCK) {
            // createGradFunction logs every differentiated op to stdout.
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
            try {
                sd.createGradFunction(unknownNames.toArray(new String[0]));
            } finally {
                System.setOut(stdout);
            }
        }
    }

    private SDVariable residualSquares(SDVariable gradient, SDVariable target, SDVariable scale) {
        SDVariable scaled = scale == null ? gradient : gradient.mul(scale);
        return sd.math.square(scaled.sub(target)).sum();
    }

    /**
     * Column sums keeping the row dimension. With a single row the sum is the row itself: SameDiff's reduction
     * over a dimension of length one fails at run time in this version (its no-op path has no input).
     */
    private static SDVariable columnSums(SDVariable v, long rows) {
        return rows == 1 ? v : v.sum(true, 0);
    }

    @Override
    public MatchingProblem problem() {
        return problem;
    }

    @Override
    public String description() {
        return "SameDiff (" + dataType + ")";
    }

    @Override
    public double evaluate(double[] point, double[] gradient) {
        Map<String, INDArray> placeholders = new HashMap<>();
        placeholders.put(INPUTS, Unknowns.inputs(point, layout, dataType));
        if (layout.optimisesLabels()) {
            placeholders.put(LABEL_LOGITS, Unknowns.labelLogits(point, layout, dataType));
        }
        if (layout.fittedScale()) {
            placeholders.put(LOG_SCALE, Nd4j.scalar(dataType, point[layout.scaleOffset()]).reshape(1, 1));
        }
        OutAndGrad result = sd.calculateGradientsAndOutputs(placeholders, List.of(LOSS), unknownNames);
        Map<String, INDArray> grads = result.getGradients();
        double logScaleGradient = layout.fittedScale() ? grads.get(LOG_SCALE).getDouble(0) : 0.0;
        Unknowns.writeGradient(gradient, layout, grads.get(INPUTS), grads.get(LABEL_LOGITS), logScaleGradient);
        return result.getOutputs().get(LOSS).getDouble(0);
    }

    /** The ops of one stage: its affine map forward, its parameter gradients and its input gradient. */
    private abstract static class StageGraph {
        /** {@code f'(pre)} of this stage, or null when it is the identity (set by the builder). */
        SDVariable slope;

        /** Pre-activation, {@code batch x outputSize}, from the input {@code batch x inputSize}. */
        abstract SDVariable forward(SDVariable in);

        /** Weight and bias (or null) gradients from {@code delta = dL/dpre}, shaped like their targets. */
        abstract SDVariable[] parameterGradients(SDVariable delta);

        /** {@code dL/din} from {@code delta}. */
        abstract SDVariable inputGradient(SDVariable delta);

        /** The weight target reshaped like the gradient this graph produces. */
        abstract SDVariable targetWeights(INDArray target);
    }

    private final class DenseGraph extends StageGraph {
        private final long batchSize = layout.batchSize();
        private final SDVariable w;
        private final SDVariable b;
        private SDVariable in;

        DenseGraph(DenseStage stage, int index) {
            this.w = sd.constant("w" + index, stage.weights().castTo(dataType).dup('c'));
            this.b = stage.hasBias() ? sd.constant("b" + index, stage.bias().castTo(dataType).dup('c')) : null;
        }

        @Override
        SDVariable forward(SDVariable input) {
            this.in = input;
            SDVariable pre = sd.mmul(input, w);
            return b == null ? pre : pre.add(b);
        }

        @Override
        SDVariable[] parameterGradients(SDVariable delta) {
            SDVariable gw = sd.mmul(in, delta, true, false, false);
            SDVariable gb = b == null ? null : columnSums(delta, batchSize);
            return new SDVariable[] {gw, gb};
        }

        @Override
        SDVariable inputGradient(SDVariable delta) {
            return sd.mmul(delta, w, false, true, false);
        }

        @Override
        SDVariable targetWeights(INDArray target) {
            return sd.constant(target.castTo(dataType).dup('c'));
        }
    }

    private final class ConvolutionGraph extends StageGraph {
        private final ConvolutionGeometry geo;
        private final int batch;
        private final SDVariable tapSources;
        private final SDVariable gather;
        private final Conv2DConfig im2col;
        private final SDVariable w;
        private final SDVariable b;
        private SDVariable columns;

        ConvolutionGraph(ConvolutionStage stage, int index, int batch) {
            this.geo = stage.geometry();
            this.batch = batch;
            int[] sources = geo.tapSources();
            for (int i = 0; i < sources.length; i++) {
                if (sources[i] < 0) {
                    sources[i] = geo.inputPixels();
                }
            }
            this.tapSources = sd.constant("taps" + index, Nd4j.createFromArray(sources));
            if (geo.isSymmetricallyPadded()) {
                this.im2col = Conv2DConfig.builder().kH(geo.kernelHeight()).kW(geo.kernelWidth())
                        .sH(geo.strideHeight()).sW(geo.strideWidth()).pH(geo.padTop()).pW(geo.padLeft())
                        .dH(geo.dilationHeight()).dW(geo.dilationWidth()).paddingMode(PaddingMode.VALID)
                        .dataFormat(Conv2DConfig.NCHW).build();
                this.gather = null;
            } else {
                this.im2col = null;
                this.gather = sd.constant("gather" + index, geo.gatherMatrix(dataType));
            }
            long fanIn = (long) geo.inChannels() * geo.kernelTaps();
            this.w = sd.constant("w" + index, stage.weights().castTo(dataType).dup('c')
                    .reshape('c', geo.outChannels(), fanIn));
            this.b = stage.hasBias() ? sd.constant("b" + index, stage.bias().castTo(dataType).dup('c')) : null;
        }

        @Override
        SDVariable forward(SDVariable input) {
            long c = geo.inChannels();
            long positions = geo.outputPositions();
            long taps = geo.kernelTaps();
            if (im2col != null) {
                // im2col: (B, C, kh, kw, oh, ow) -> (B, oh, ow, C, kh, kw) -> (B*P, C*K), matching W's (out, C*K).
                columns = sd.cnn.im2Col(input.reshape(batch, c, geo.inHeight(), geo.inWidth()), im2col)
                        .permute(0, 4, 5, 1, 2, 3).reshape(batch * positions, c * taps);
            } else {
                // Asymmetric padding: the 0/1 gather matrix, (B*C, P*K) -> (B, C, P, K) -> (B*P, C*K).
                columns = sd.mmul(input.reshape(batch * c, geo.inputPixels()), gather)
                        .reshape(batch, c, positions, taps).permute(0, 2, 1, 3).reshape(batch * positions, c * taps);
            }
            SDVariable pre = sd.mmul(columns, w, false, true, false);
            if (b != null) {
                pre = pre.add(b);
            }
            return toImageRows(pre);
        }

        /** (B*P, O) -> (B, O*P): DL4J's NCHW flattening of the output. */
        private SDVariable toImageRows(SDVariable perPosition) {
            return perPosition.reshape(batch, geo.outputPositions(), geo.outChannels()).permute(0, 2, 1)
                    .reshape(batch, geo.outputSize());
        }

        /** (B, O*P) -> (B*P, O). */
        private SDVariable toPositionRows(SDVariable imageRows) {
            return imageRows.reshape(batch, geo.outChannels(), geo.outputPositions()).permute(0, 2, 1)
                    .reshape(batch * geo.outputPositions(), geo.outChannels());
        }

        @Override
        SDVariable[] parameterGradients(SDVariable delta) {
            SDVariable d = toPositionRows(delta);
            SDVariable gw = sd.mmul(d, columns, true, false, false);
            SDVariable gb = b == null ? null : columnSums(d, (long) batch * geo.outputPositions());
            return new SDVariable[] {gw, gb};
        }

        @Override
        SDVariable inputGradient(SDVariable delta) {
            long c = geo.inChannels();
            long positions = geo.outputPositions();
            long taps = geo.kernelTaps();
            SDVariable dColumns = sd.mmul(toPositionRows(delta), w);
            // col2im: (B*P, C*K) -> (P, K, B, C) -> (P*K, B*C); every tap is added onto the pixel it read, the
            // padded taps onto an extra row that is dropped. Its derivative is a gather, which SameDiff provides.
            SDVariable tapRows = dColumns.reshape(batch, positions, c, taps).permute(1, 3, 0, 2)
                    .reshape(positions * taps, batch * c);
            SDVariable pixelRows = sd.unsortedSegmentSum(tapRows, tapSources, geo.inputPixels() + 1);
            return pixelRows.get(SDIndex.interval(0, geo.inputPixels())).permute(1, 0)
                    .reshape(batch, geo.inputSize());
        }

        @Override
        SDVariable targetWeights(INDArray target) {
            return sd.constant(target.castTo(dataType).dup('c').reshape('c', geo.outChannels(),
                    (long) geo.inChannels() * geo.kernelTaps()));
        }
    }
}
