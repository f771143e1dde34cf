package org.dpdl4j.cuda.engine;

/**
 * The convolution and pooling passes in plain Java, summed in double as {@link JavaBlas} sums: the reference for
 * cuDNN's, which sums in float in an order of its choosing, so the two agree to float rounding, not bit for bit. A
 * window's maximum is its first largest value in (row, column) order, as DL4J's pooling takes it.
 */
final class JavaConvolutions implements Convolutions {

    @Override
    public void forward(ConvShape s, int b, DeviceArray xArray, DeviceArray wArray, DeviceArray yArray) {
        JavaArray x = JavaArray.of(xArray);
        JavaArray w = JavaArray.of(wArray);
        JavaArray y = JavaArray.of(yArray);
        int outH = s.outH();
        int outW = s.outW();
        for (int i = 0; i < b; i++) {
            for (int co = 0; co < s.outC(); co++) {
                for (int oh = 0; oh < outH; oh++) {
                    for (int ow = 0; ow < outW; ow++) {
                        double sum = 0;
                        for (int ci = 0; ci < s.inC(); ci++) {
                            for (int kh = 0; kh < s.kH(); kh++) {
                                int h = oh * s.sH() - s.padH() + kh;
                                for (int kw = 0; kw < s.kW(); kw++) {
                                    int v = ow * s.sW() - s.padW() + kw;
                                    if (h >= 0 && h < s.inH() && v >= 0 && v < s.inW()) {
                                        sum += (double) x.get(input(s, i, ci, h, v)) * w.get(weight(s, co, ci, kh, kw));
                                    }
                                }
                            }
                        }
                        y.set(output(s, i, co, oh, ow), (float) sum);
                    }
                }
            }
        }
    }

    @Override
    public void backwardData(ConvShape s, int b, DeviceArray wArray, DeviceArray dyArray, DeviceArray dxArray) {
        JavaArray w = JavaArray.of(wArray);
        JavaArray dy = JavaArray.of(dyArray);
        JavaArray dx = JavaArray.of(dxArray);
        double[] sums = new double[s.inSize()];
        for (int i = 0; i < b; i++) {
            int example = i;
            java.util.Arrays.fill(sums, 0);
            s.forEachTap((co, oh, ow, ci, h, v, kh, kw) -> sums[(ci * s.inH() + h) * s.inW() + v] +=
                    (double) dy.get(output(s, example, co, oh, ow)) * w.get(weight(s, co, ci, kh, kw)));
            for (int e = 0; e < sums.length; e++) {
                dx.set(i * s.inSize() + e, (float) sums[e]);
            }
        }
    }

    @Override
    public void backwardFilter(ConvShape s, int b, DeviceArray xArray, DeviceArray dyArray, DeviceArray dwArray) {
        JavaArray x = JavaArray.of(xArray);
        JavaArray dy = JavaArray.of(dyArray);
        JavaArray dw = JavaArray.of(dwArray);
        double[] sums = new double[s.outC() * s.taps()];
        for (int i = 0; i < b; i++) {
            int example = i;
            s.forEachTap((co, oh, ow, ci, h, v, kh, kw) -> sums[weight(s, co, ci, kh, kw)] +=
                    (double) dy.get(output(s, example, co, oh, ow)) * x.get(input(s, example, ci, h, v)));
        }
        for (int e = 0; e < sums.length; e++) {
            dw.set(e, (float) sums[e]);
        }
    }

    @Override
    public void maxPool(ConvShape s, int b, DeviceArray xArray, DeviceArray yArray) {
        JavaArray x = JavaArray.of(xArray);
        JavaArray y = JavaArray.of(yArray);
        for (int i = 0; i < b; i++) {
            for (int c = 0; c < s.inC(); c++) {
                for (int oh = 0; oh < s.outH(); oh++) {
                    for (int ow = 0; ow < s.outW(); ow++) {
                        y.set(output(s, i, c, oh, ow), x.get(argMax(s, x, i, c, oh, ow)));
                    }
                }
            }
        }
    }

    @Override
    public void maxPoolBackward(ConvShape s, int b, DeviceArray xArray, DeviceArray yArray, DeviceArray dyArray,
                                DeviceArray dxArray) {
        JavaArray x = JavaArray.of(xArray);
        JavaArray dy = JavaArray.of(dyArray);
        JavaArray dx = JavaArray.of(dxArray);
        int n = b * s.inSize();
        for (int e = 0; e < n; e++) {
            dx.set(e, 0f);
        }
        for (int i = 0; i < b; i++) {
            for (int c = 0; c < s.inC(); c++) {
                for (int oh = 0; oh < s.outH(); oh++) {
                    for (int ow = 0; ow < s.outW(); ow++) {
                        int at = argMax(s, x, i, c, oh, ow);
                        dx.set(at, dx.get(at) + dy.get(output(s, i, c, oh, ow)));
                    }
                }
            }
        }
    }

    /** The index in x of the first largest value of an output's window. */
    private static int argMax(ConvShape s, JavaArray x, int i, int c, int oh, int ow) {
        int best = -1;
        float max = Float.NEGATIVE_INFINITY;
        for (int kh = 0; kh < s.kH(); kh++) {
            int h = oh * s.sH() - s.padH() + kh;
            for (int kw = 0; kw < s.kW(); kw++) {
                int v = ow * s.sW() - s.padW() + kw;
                if (h >= 0 && h < s.inH() && v >= 0 && v < s.inW()) {
                    int at = input(s, i, c, h, v);
                    if (best < 0 || x.get(at) > max) {
                        best = at;
                        max = x.get(at);
                    }
                }
            }
        }
        return best;
    }

    private static int input(ConvShape s, int i, int c, int h, int w) {
        return ((i * s.inC() + c) * s.inH() + h) * s.inW() + w;
    }

    private static int output(ConvShape s, int i, int c, int h, int w) {
        return ((i * s.outC() + c) * s.outH() + h) * s.outW() + w;
    }

    private static int weight(ConvShape s, int co, int ci, int kh, int kw) {
        return ((co * s.inC() + ci) * s.kH() + kh) * s.kW() + kw;
    }
}
