package org.dpdl4j.cuda.engine;

/**
 * The kernels of {@code dp_step.cu} in Java, one loop per kernel over the same outputs with the same float and
 * double operations in the same order (the CUDA source is compiled without fused multiply-adds for that reason), so
 * that a test of the engine on this backend tests the arithmetic the GPU runs.
 */
final class JavaKernels implements Kernels {

    @Override
    public void biasActivation(DeviceArray za, DeviceArray biasArray, int count, int inner, int n, Activation f) {
        JavaArray z = JavaArray.of(za);
        JavaArray bias = JavaArray.of(biasArray);
        for (int e = 0; e < count; e++) {
            float v = z.get(e);
            if (bias != null) {
                v += bias.get((e / inner) % n);
            }
            z.set(e, f.apply(v));
        }
    }

    @Override
    public void activationBackprop(DeviceArray epsArray, DeviceArray aArray, int count, Activation f) {
        JavaArray eps = JavaArray.of(epsArray);
        JavaArray a = JavaArray.of(aArray);
        for (int e = 0; e < count; e++) {
            eps.set(e, f.timesDerivative(a.get(e), eps.get(e)));
        }
    }

    @Override
    public void outputLoss(OutputLoss kind, DeviceArray za, DeviceArray labelArray, DeviceArray lossArray, int b, int n) {
        JavaArray z = JavaArray.of(za);
        JavaArray labels = JavaArray.of(labelArray);
        JavaArray loss = JavaArray.of(lossArray);
        switch (kind.kind()) {
            case SOFTMAX_CROSS_ENTROPY -> softmaxCrossEntropy(z, labels, loss, b, n, kind.clipEps());
            case SIGMOID_CROSS_ENTROPY -> sigmoidCrossEntropy(z, labels, loss, b, n, kind.clipEps());
            case SQUARED_ERROR -> squaredError(z, labels, loss, b, n, kind.activation(), kind.mean());
        }
    }

    private static void softmaxCrossEntropy(JavaArray z, JavaArray labels, JavaArray loss, int b, int n, double clipEps) {
        for (int i = 0; i < b; i++) {
            double max = z.get(i);
            for (int k = 1; k < n; k++) {
                double v = z.get(i + k * b);
                max = v > max ? v : max;
            }
            double total = 0.0;
            for (int k = 0; k < n; k++) {
                total += Math.exp(z.get(i + k * b) - max);
            }
            double labelSum = 0.0;
            for (int k = 0; k < n; k++) {
                labelSum += labels.get(i * n + k);
            }
            double l = 0.0;
            for (int k = 0; k < n; k++) {
                double p = Math.exp(z.get(i + k * b) - max) / total;
                double y = labels.get(i * n + k);
                if (y != 0.0) {
                    double clipped = clipEps > 0.0 ? Math.min(Math.max(p, clipEps), 1.0 - clipEps) : p;
                    l -= y * Math.log(clipped);
                }
                z.set(i + k * b, (float) (p * labelSum - y));
            }
            loss.set(i, (float) l);
        }
    }

    private static void sigmoidCrossEntropy(JavaArray z, JavaArray labels, JavaArray loss, int b, int n, double clipEps) {
        for (int i = 0; i < b; i++) {
            double l = 0.0;
            for (int k = 0; k < n; k++) {
                double p = 1.0 / (1.0 + Math.exp(-(double) z.get(i + k * b)));
                double clipped = clipEps > 0.0 ? Math.min(Math.max(p, clipEps), 1.0 - clipEps) : p;
                double y = labels.get(i * n + k);
                l -= (y == 0.0 ? 0.0 : y * Math.log(clipped)) + (y == 1.0 ? 0.0 : (1.0 - y) * Math.log(1.0 - clipped));
                z.set(i + k * b, (float) ((clipped - y) / (clipped * (1.0 - clipped)) * (p * (1.0 - p))));
            }
            loss.set(i, (float) l);
        }
    }

    private static void squaredError(JavaArray z, JavaArray labels, JavaArray loss, int b, int n, Activation f, boolean mean) {
        for (int i = 0; i < b; i++) {
            float scale = mean ? 1.0f / (float) n : 1.0f;
            float l = 0.0f;
            for (int k = 0; k < n; k++) {
                float a = f.apply(z.get(i + k * b));
                float diff = a - labels.get(i * n + k);
                l += diff * diff * scale;
                float g = 2.0f * diff * scale;
                z.set(i + k * b, f.timesDerivative(a, g));
            }
            loss.set(i, l);
        }
    }

    @Override
    public void addGhostNorms(DeviceArray sqArray, DeviceArray aArray, int rowStride, int colStride, DeviceArray inputSqArray,
                              DeviceArray errorArray, int b, int nIn, int nOut, boolean hasBias, boolean first) {
        JavaArray sq = JavaArray.of(sqArray);
        JavaArray a = JavaArray.of(aArray);
        JavaArray inputSq = JavaArray.of(inputSqArray);
        JavaArray error = JavaArray.of(errorArray);
        for (int i = 0; i < b; i++) {
            float t = 0.0f;
            if (inputSq != null) {
                t = inputSq.get(i);
            } else {
                for (int j = 0; j < nIn; j++) {
                    float v = a.get(i * rowStride + j * colStride);
                    t += v * v;
                }
            }
            if (hasBias) {
                t += 1.0f;
            }
            float s = 0.0f;
            for (int k = 0; k < nOut; k++) {
                float v = error.get(i + k * b);
                s += v * v;
            }
            float term = t * s;
            sq.set(i, first ? term : sq.get(i) + term);
        }
    }

    @Override
    public void clipErrors(DeviceArray errorArray, int b, int cols, DeviceArray sqArray, DeviceArray normArray, float clip) {
        JavaArray errors = JavaArray.of(errorArray);
        JavaArray sq = JavaArray.of(sqArray);
        JavaArray norms = JavaArray.of(normArray);
        for (int e = 0; e < b * cols; e++) {
            int i = e % b;
            float norm = (float) Math.sqrt(sq.get(i));
            float f = clip / norm;
            f = f > 1.0f ? 1.0f : f;
            errors.set(e, errors.get(e) * f);
            if (e < b) {
                norms.set(i, norm);
            }
        }
    }

    @Override
    public void clipFactors(DeviceArray sqArray, DeviceArray normArray, DeviceArray factorArray, int b, float clip) {
        JavaArray sq = JavaArray.of(sqArray);
        JavaArray norms = JavaArray.of(normArray);
        JavaArray factors = JavaArray.of(factorArray);
        for (int i = 0; i < b; i++) {
            float norm = (float) Math.sqrt(sq.get(i));
            float f = clip / norm;
            f = f > 1.0f ? 1.0f : f;
            norms.set(i, norm);
            factors.set(i, f);
        }
    }

    @Override
    public void scaleByExample(DeviceArray valueArray, int count, int inner, int b, DeviceArray factorArray) {
        JavaArray values = JavaArray.of(valueArray);
        JavaArray factors = JavaArray.of(factorArray);
        for (int e = 0; e < count; e++) {
            values.set(e, values.get(e) * factors.get((e / inner) % b));
        }
    }

    @Override
    public void addRowDots(DeviceArray sqArray, DeviceArray uArray, DeviceArray dArray, int length, int b, boolean first,
                           DeviceArray partsArray) {
        JavaArray sq = JavaArray.of(sqArray);
        JavaArray u = JavaArray.of(uArray);
        JavaArray d = JavaArray.of(dArray);
        JavaArray parts = JavaArray.of(partsArray);
        int lanes = Kernels.lanes(length);
        for (int e = 0; e < b * lanes; e++) {   // dot_lanes
            int at = e / lanes * length;
            float s = 0.0f;
            for (int r = e % lanes; r < length; r += lanes) {
                s += u.get(at + r) * d.get(at + r);
            }
            parts.set(e, s);
        }
        for (int i = 0; i < b; i++) {   // add_lane_sums
            float s = 0.0f;
            for (int j = 0; j < lanes; j++) {
                s += parts.get(i * lanes + j);
            }
            sq.set(i, first ? s : sq.get(i) + s);
        }
    }

    @Override
    public void im2col(DeviceArray xArray, DeviceArray colArray, ConvShape s, int b) {
        JavaArray x = JavaArray.of(xArray);
        JavaArray cols = JavaArray.of(colArray);
        int t = s.positions();
        int k = s.taps();
        int outW = s.outW();
        for (int e = 0; e < b * k * t; e++) {
            int pos = e % t;
            int row = (e / t) % k;
            int i = e / (t * k);
            int ow = pos % outW;
            int oh = pos / outW;
            int kw = row % s.kW();
            int kh = (row / s.kW()) % s.kH();
            int ch = row / (s.kW() * s.kH());
            int y = oh * s.sH() - s.padH() + kh;
            int xw = ow * s.sW() - s.padW() + kw;
            boolean inside = y >= 0 && y < s.inH() && xw >= 0 && xw < s.inW();
            cols.set(e, inside ? x.get(((i * s.inC() + ch) * s.inH() + y) * s.inW() + xw) : 0.0f);
        }
    }

    @Override
    public void noisySgd(DeviceArray paramArray, DeviceArray gradArray, DeviceArray noiseArray, int p, float divisor, float lr) {
        JavaArray params = JavaArray.of(paramArray);
        JavaArray grad = JavaArray.of(gradArray);
        JavaArray noise = JavaArray.of(noiseArray);
        for (int j = 0; j < p; j++) {
            float g = grad.get(j);
            if (noise != null) {
                g += noise.get(j);
            }
            g = g / divisor;
            grad.set(j, g);
            params.set(j, params.get(j) - g * lr);
        }
    }

    @Override
    public void noisyNesterovs(DeviceArray paramArray, DeviceArray stateArray, DeviceArray gradArray, DeviceArray noiseArray,
                               int p, float divisor, float lr, float momentum) {
        JavaArray params = JavaArray.of(paramArray);
        JavaArray v = JavaArray.of(stateArray);
        JavaArray grad = JavaArray.of(gradArray);
        JavaArray noise = JavaArray.of(noiseArray);
        float momentumT = -momentum - 1.0f;
        for (int j = 0; j < p; j++) {
            float g = grad.get(j);
            if (noise != null) {
                g += noise.get(j);
            }
            g = g / divisor;
            grad.set(j, g);
            float m = momentum * v.get(j);
            float next = m - lr * g;
            v.set(j, next);
            params.set(j, params.get(j) - (m + momentumT * next));
        }
    }

    @Override
    public void addPhiloxGaussian(DeviceArray gradArray, int p, long seed, long stream, float std) {
        JavaArray grad = JavaArray.of(gradArray);
        for (int j = 0; j < p; j++) {
            grad.set(j, grad.get(j) + (float) (std * Philox.normal(seed, stream, j)));
        }
    }

    @Override
    public void addPhiloxRows(DeviceArray xArray, int rows, int p, long seed, long first, long stride, double std) {
        JavaArray x = JavaArray.of(xArray);
        for (int e = 0; e < rows * p; e++) {
            int r = e / p;
            int j = e % p;
            x.set(e, x.get(e) + (float) (std * Philox.normal(seed, first + r * stride, j)));
        }
    }

    @Override
    public void addPhiloxListed(DeviceArray xArray, int rows, int p, long seed, long base, long stride, DeviceArray idArray,
                                double std) {
        JavaArray x = JavaArray.of(xArray);
        JavaArray ids = JavaArray.of(idArray);
        for (int e = 0; e < rows * p; e++) {
            int r = e / p;
            int j = e % p;
            long id = (long) (int) ids.get(2 * r) * 32768L + (long) (int) ids.get(2 * r + 1);
            x.set(e, x.get(e) + (float) (std * Philox.normal(seed, base + id * stride, j)));
        }
    }

    @Override
    public void mixRows(DeviceArray outArray, DeviceArray startArray, DeviceArray colArray, DeviceArray weightArray,
                        DeviceArray xArray, int n, int p) {
        JavaArray out = JavaArray.of(outArray);
        JavaArray start = JavaArray.of(startArray);
        JavaArray cols = JavaArray.of(colArray);
        JavaArray weights = JavaArray.of(weightArray);
        JavaArray x = JavaArray.of(xArray);
        for (int e = 0; e < n * p; e++) {
            int i = e / p;
            int j = e % p;
            int from = (int) start.get(i);
            int to = (int) start.get(i + 1);
            float s = 0.0f;
            for (int k = from; k < to; k++) {
                float term = weights.get(k) * x.get((int) cols.get(k) * p + j);
                s = k == from ? term : s + term;
            }
            out.set(e, s);
        }
    }

    @Override
    public void gatherRows(DeviceArray outArray, DeviceArray srcArray, DeviceArray indexArray, int rows, int width) {
        JavaArray out = JavaArray.of(outArray);
        JavaArray src = JavaArray.of(srcArray);
        JavaArray index = JavaArray.of(indexArray);
        for (int e = 0; e < rows * width; e++) {
            int r = e / width;
            int j = e % width;
            out.set(e, src.get((int) index.get(r) * width + j));
        }
    }
}
