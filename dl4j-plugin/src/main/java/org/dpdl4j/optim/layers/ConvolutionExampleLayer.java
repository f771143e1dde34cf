package org.dpdl4j.optim.layers;

import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.params.ConvolutionParamInitializer;
import org.deeplearning4j.util.ConvolutionUtils;
import org.nd4j.linalg.activations.IActivation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.Shape;
import org.nd4j.linalg.convolution.Convolution;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Map;

/**
 * A 2-D convolution {@code f(conv(x, W) + b)} in NCHW layout (DL4J's {@code ConvolutionLayer}, any kernel, stride,
 * dilation, padding and convolution mode), computed through the unfolded input as DL4J computes it: im2col gives
 * {@code U}, one row per (example, output position) and one column per (input channel, kernel tap), and the layer is
 * the product {@code U W^T}.
 *
 * <p>Example i's weight gradient is {@code U_i^T Delta_i} ({@code U_i}: its T unfolded rows, {@code Delta_i}: its
 * T x nOut output-side errors). Its squared norm is computed one of two ways, whichever costs fewer multiply-adds
 * for this layer and batch (see {@link NormStrategy}):
 * <ul>
 *   <li>ghost: {@code <U_i U_i^T, Delta_i Delta_i^T>}, two T x T Gram matrices per example, about
 *       {@code b T^2 (K + nOut)};</li>
 *   <li>materialised: {@code ||U_i^T Delta_i||^2}, each example's K x nOut gradient, about {@code b T K nOut}.</li>
 * </ul>
 * Both are batched products over the examples, never a loop. The bias adds {@code ||sum_t Delta_i[t]||^2}. The
 * clipped sum is {@code U^T diag(c) Delta}: the errors are scaled before the one weight-gradient product.
 */
public final class ConvolutionExampleLayer implements ExampleLayer {
    private final ParameterSlots slots;
    private final ConvolutionLayer conf;
    private final IActivation activation;
    private final NormStrategy strategy;
    private final String label;
    private final DataType dataType;
    private INDArray params;
    /** Unfolded input of the last forward pass, [b*T, K] in 'c' order (example slowest, then output row, column). */
    private INDArray unfolded;
    /** Pre-activations of the last forward pass, [b*T, nOut] in 'c' order (the backward pass overwrites them). */
    private INDArray preOutputRows;
    /** Output-side errors, [b*T, nOut] in 'c' order, rows as in {@link #unfolded}. */
    private INDArray deltaRows;
    /**
     * Each example's weight gradient [b, nOut, K] and bias gradient [b, nOut], when the norms were computed by
     * materialising them: the clipped sum is then their weighted sum over the examples, b*nOut*K multiply-adds
     * instead of the b*T*K*nOut of the weight-gradient product.
     */
    private INDArray exampleWeightGrads;
    private INDArray exampleBiasGrads;
    private long batch;
    private long outHeight;
    private long outWidth;
    private long positions;
    private int[] padding;
    private long inHeight;
    private long inWidth;

    public ConvolutionExampleLayer(LayerContext context, NormStrategy strategy) {
        this.slots = context.parameters();
        this.conf = (ConvolutionLayer) context.layer();
        this.activation = conf.getActivationFn();
        this.strategy = strategy;
        this.label = context.label();
        this.dataType = context.dataType();
    }

    @Override
    public void bind(INDArray flatParams) {
        this.params = flatParams;
    }

    /** Weights [nOut, K] (a view of DL4J's [nOut, nIn, kH, kW] 'c' layout). */
    private INDArray weightMatrix(INDArray flat) {
        INDArray w = slots.of(flat).get(ConvolutionParamInitializer.WEIGHT_KEY);
        return w.reshape('c', true, w.size(0), w.length() / w.size(0));
    }

    @Override
    public INDArray forward(INDArray in) {
        if (in.rank() != 4 || in.size(1) != conf.getNIn()) {
            throw new IllegalArgumentException(label + " expects images [batch, " + conf.getNIn() + ", height, width] (NCHW)"
                    + " but receives shape " + Arrays.toString(in.shape()) + "; for flat rows of pixels build the"
                    + " configuration with setInputType(InputType.convolutionalFlat(height, width, channels))");
        }
        INDArray x = in.castTo(dataType);
        int[] kernel = conf.getKernelSize();
        int[] strides = conf.getStride();
        int[] dilation = conf.getDilation();
        ConvolutionMode mode = conf.getConvolutionMode();
        inHeight = x.size(2);
        inWidth = x.size(3);
        int[] outSize;
        if (mode == ConvolutionMode.Same) {
            outSize = ConvolutionUtils.getOutputSize(x, kernel, strides, null, mode, dilation,
                    org.deeplearning4j.nn.conf.CNN2DFormat.NCHW);
            padding = ConvolutionUtils.getSameModeTopLeftPadding(outSize, new int[]{(int) inHeight, (int) inWidth},
                    kernel, strides, dilation);
        } else {
            padding = conf.getPadding();
            outSize = ConvolutionUtils.getOutputSize(x, kernel, strides, padding, mode, dilation,
                    org.deeplearning4j.nn.conf.CNN2DFormat.NCHW);
        }
        batch = x.size(0);
        outHeight = outSize[0];
        outWidth = outSize[1];
        long outH = outHeight;
        long outW = outWidth;
        positions = outH * outW;
        long channels = x.size(1);
        // im2col writes [b, C, kH, kW, outH, outW]; permuting a [b, outH, outW, C, kH, kW] 'c' array to that order
        // makes the unfolded matrix a free reshape, as in DL4J's own layer.
        INDArray col = Nd4j.createUninitialized(dataType, new long[]{batch, outH, outW, channels, kernel[0], kernel[1]}, 'c');
        Convolution.im2col(x, kernel[0], kernel[1], strides[0], strides[1], padding[0], padding[1], dilation[0],
                dilation[1], mode == ConvolutionMode.Same, col.permute(0, 3, 4, 5, 1, 2));
        unfolded = col.reshape('c', batch * positions, channels * kernel[0] * kernel[1]);
        INDArray w = weightMatrix(params);
        INDArray z = Nd4j.createUninitialized(dataType, new long[]{batch * positions, w.size(0)}, 'c');
        Nd4j.gemm(unfolded, w, z, false, true, 1.0, 0.0);
        if (conf.hasBias()) {
            z.addiRowVector(slots.of(params).get(ConvolutionParamInitializer.BIAS_KEY));
        }
        preOutputRows = z;
        return activation.getActivation(z.reshape('c', batch, outH, outW, w.size(0)).permute(0, 3, 1, 2).dup('c'), true);
    }

    @Override
    public INDArray backward(INDArray epsilon, boolean inputGradient) {
        // In the rows layout of the unfolded input: the activation's derivative is element-wise, so the pre-activations
        // (no longer needed) are used in place, and only the incoming error is permuted.
        long nOut = preOutputRows.size(1);
        INDArray epsilonRows = epsilon.permute(0, 2, 3, 1).dup('c').reshape('c', batch * positions, nOut);
        INDArray delta = activation.backprop(preOutputRows, epsilonRows).getFirst();
        // Later steps scale and reshape these rows in place, which needs the dense 'c' layout.
        deltaRows = delta.ordering() == 'c' && Shape.hasDefaultStridesForShape(delta) ? delta : delta.dup('c');
        if (!inputGradient) {
            return null;
        }
        int[] kernel = conf.getKernelSize();
        int[] strides = conf.getStride();
        int[] dilation = conf.getDilation();
        long channels = unfolded.size(1) / ((long) kernel[0] * kernel[1]);
        INDArray epsCols = Nd4j.createUninitialized(dataType, new long[]{batch * positions, unfolded.size(1)}, 'c');
        Nd4j.gemm(deltaRows, weightMatrix(params), epsCols, false, false, 1.0, 0.0);
        INDArray eps6 = epsCols.reshape('c', batch, outHeight, outWidth, channels, kernel[0], kernel[1])
                .permute(0, 3, 4, 5, 1, 2);
        INDArray epsIn = Nd4j.create(dataType, batch, channels, inHeight, inWidth);
        Convolution.col2im(eps6, epsIn, strides[0], strides[1], padding[0], padding[1], (int) inHeight, (int) inWidth,
                dilation[0], dilation[1]);
        return epsIn;
    }

    @Override
    public boolean hasParameters() {
        return true;
    }

    @Override
    public void addSquaredNorms(INDArray squaredNorms) {
        long k = unfolded.size(1);
        long nOut = deltaRows.size(1);
        INDArray u = unfolded.reshape('c', batch, positions, k);
        INDArray d = deltaRows.reshape('c', batch, positions, nOut);
        INDArray weightSq;
        if (strategy.ghost(positions, k, nOut)) {
            INDArray gramU = Nd4j.matmul(u, u, false, true, false);
            INDArray gramD = Nd4j.matmul(d, d, false, true, false);
            weightSq = gramU.muli(gramD).sum(1, 2);
        } else {
            exampleWeightGrads = Nd4j.matmul(d, u, true, false, false);
            weightSq = SquaredNorms.perExample(exampleWeightGrads);
        }
        squaredNorms.addi(weightSq.reshape(batch).castTo(squaredNorms.dataType()));
        if (conf.hasBias()) {
            INDArray biasGrads = d.sum(1);
            squaredNorms.addi(SquaredNorms.perExample(biasGrads).castTo(squaredNorms.dataType()));
            if (exampleWeightGrads != null) {
                exampleBiasGrads = biasGrads;
            }
        }
    }

    @Override
    public void writeClippedGradient(INDArray factors, INDArray gradient) {
        if (factors != null && exampleWeightGrads != null) {
            writeWeightedSum(factors.reshape(1, batch).castTo(dataType), gradient);
            return;
        }
        if (factors != null) {
            deltaRows.reshape('c', true, batch, deltaRows.length() / batch)
                    .muliColumnVector(factors.reshape(batch, 1).castTo(dataType));
        }
        Map<String, INDArray> views = slots.of(gradient);
        Nd4j.gemm(deltaRows, unfolded, weightMatrix(gradient), true, false, 1.0, 0.0);
        if (conf.hasBias()) {
            INDArray biasGrad = views.get(ConvolutionParamInitializer.BIAS_KEY);
            biasGrad.assign(deltaRows.sum(0).reshape(biasGrad.shape()));
        }
    }

    /** The clipped sum from the materialised per-example gradients: {@code c^T G} over the examples. */
    private void writeWeightedSum(INDArray factorRow, INDArray gradient) {
        INDArray weightGrad = weightMatrix(gradient);
        INDArray flat = weightGrad.reshape('c', true, 1, weightGrad.length());
        Nd4j.gemm(factorRow, exampleWeightGrads.reshape('c', batch, weightGrad.length()), flat, false, false, 1.0, 0.0);
        if (conf.hasBias()) {
            INDArray biasGrad = slots.of(gradient).get(ConvolutionParamInitializer.BIAS_KEY);
            Nd4j.gemm(factorRow, exampleBiasGrads, biasGrad.reshape('c', true, 1, biasGrad.length()), false, false, 1.0, 0.0);
        }
    }

    @Override
    public void clear() {
        unfolded = null;
        preOutputRows = null;
        deltaRows = null;
        exampleWeightGrads = null;
        exampleBiasGrads = null;
    }
}
