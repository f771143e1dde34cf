package org.dpdl4j.privacy.noise;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Gaussian noise in bulk from a key stream: ziggurat normals computed in Java, scaled, and streamed block by
 * block into the target's host memory (other targets - device memory, views that are not contiguous, other
 * floating-point types - get them through one staging array and one ND4J op).
 *
 * <p>Floating-point mitigation (optional, on for secure sources): a Gaussian sample computed in floating
 * point does not cover the reals uniformly; the pattern of values it can and cannot take, once the sample
 * is added to a secret, can reveal the secret (Mironov 2012 for the Laplace mechanism; Holohan and
 * Braghin 2021 for Gaussian samplers). Summing independently generated normals fills those gaps - the
 * mitigation Holohan and Braghin propose and Opacus's secure mode uses. Here each output is
 * {@code (z1 + z2) / sqrt(2)} of two independent ziggurat normals. It is a mitigation, not a proof: the
 * released value is still a floating-point number.
 */
final class GaussianSampler {
    private static final double INV_SQRT2 = 1.0 / Math.sqrt(2.0);

    private final Ziggurat ziggurat;
    private final boolean mitigate;

    /**
     * Buffers, one set per thread and shared by every sampler on it: streams keyed by (node, round) make a new
     * sampler for every draw, and a fresh multi-megabyte native scratch array per draw costs more than the draw.
     */
    private static final class Buffers {
        final double[] block = new double[BLOCK];
        final double[] doubleBlock = new double[BLOCK];
        final float[] floatBlock = new float[BLOCK];
        final double[] raw = new double[2 * BLOCK];
        INDArray scratch;
    }

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    GaussianSampler(KeyStream stream, boolean mitigate) {
        this.ziggurat = new Ziggurat(stream);
        this.mitigate = mitigate;
    }

    /** Normals drawn per block: the ziggurat fills a block in one tight loop. */
    private static final int BLOCK = 4096;

    /**
     * Writes {@code count} standard normals (at most {@link #BLOCK}) into {@code out[0, count)}; {@code raw} holds
     * twice that. With the mitigation each is (z1 + z2) / sqrt(2) of two consecutive ziggurat draws, in the order
     * one draw at a time would take them, so the values do not depend on the block size.
     */
    private void normals(double[] out, int count, double[] raw) {
        if (!mitigate) {
            ziggurat.fill(out, 0, count);
            return;
        }
        ziggurat.fill(raw, 0, 2 * count);
        for (int k = 0; k < count; k++) {
            out[k] = (raw[2 * k] + raw[2 * k + 1]) * INV_SQRT2;
        }
    }

    /** Adds independent N(0, std^2) draws to every element of {@code target}, in place. */
    void addTo(INDArray target, double std) {
        draw(target, std, true);
    }

    /**
     * Overwrites every element of {@code target} with an independent N(0, std^2) draw: the values {@link #addTo}
     * would add to zeros, without reading the target (no zeroing pass, no addition pass).
     */
    void writeTo(INDArray target, double std) {
        draw(target, std, false);
    }

    private void draw(INDArray target, double std, boolean add) {
        checkLength(target);
        if (inHostMemory(target)) {
            stream(target, std, add);
        } else {
            INDArray noise = staged(BUFFERS.get(), target, std);
            if (add) {
                target.addi(noise);
            } else {
                target.assign(0).addi(noise);   // the values added to zeros, signed zeros included
            }
        }
    }

    private static void checkLength(INDArray target) {
        if (target.length() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("can draw noise for at most 2^31-17 elements at a time, got " + target.length());
        }
    }

    /**
     * A FLOAT or DOUBLE array whose elements lie contiguously, in C order, in host memory, starting at its buffer's
     * address: an array at offset 0 (row 0 of a matrix included), or a view with its own view buffer (whose address
     * includes the view's offset). A contiguous vector is in C order whatever order it was created in (DL4J creates a
     * network's flat gradient as a [1, p] array in 'f' order).
     */
    private static boolean inHostMemory(INDArray target) {
        DataType type = target.dataType();
        return Nd4j.getEnvironment().isCPU() && (type == DataType.FLOAT || type == DataType.DOUBLE)
                && (target.ordering() == 'c' || target.isVectorOrScalar())
                && target.elementWiseStride() == 1 && (target.offset() == 0 || target.data().length() == target.length());
    }

    /**
     * Draws straight into (or onto) the target's host memory one block at a time: each block of {@code std * z} is
     * copied in, or read, added and written back, while it is in the cache. Staging a whole draw first would move every
     * value through main memory twice more, and memory bandwidth is what a draw running beside training competes for.
     * The sums are the same as the ND4J addition's: one IEEE addition per element.
     */
    private void stream(INDArray target, double std, boolean add) {
        Buffers b = BUFFERS.get();
        int n = (int) target.length();
        boolean inDouble = target.dataType() == DataType.DOUBLE;
        DoublePointer doubles = inDouble ? new DoublePointer(target.data().addressPointer()) : null;
        FloatPointer floats = inDouble ? null : new FloatPointer(target.data().addressPointer());
        for (int i = 0; i < n; i += BLOCK) {
            int c = Math.min(BLOCK, n - i);
            normals(b.block, c, b.raw);
            if (inDouble) {
                double[] out = b.doubleBlock;
                if (add) {
                    doubles.position(i).get(out, 0, c);
                    for (int k = 0; k < c; k++) {
                        out[k] += std * b.block[k];
                    }
                } else {
                    for (int k = 0; k < c; k++) {
                        out[k] = std * b.block[k] + 0.0;   // + 0: -0.0 becomes +0.0, exactly as added to zeros
                    }
                }
                doubles.position(i).put(out, 0, c);
            } else {
                float[] out = b.floatBlock;
                if (add) {
                    floats.position(i).get(out, 0, c);
                    for (int k = 0; k < c; k++) {
                        out[k] += (float) (std * b.block[k]);
                    }
                } else {
                    for (int k = 0; k < c; k++) {
                        out[k] = (float) (std * b.block[k]) + 0.0f;
                    }
                }
                floats.position(i).put(out, 0, c);
            }
        }
    }

    /**
     * The draws as an array shaped like {@code target}, in a scratch array reused per thread: streamed into it in host
     * memory, or through whole-draw Java arrays on other backends.
     */
    private INDArray staged(Buffers b, INDArray target, double std) {
        int n = (int) target.length();
        DataType type = target.dataType() == DataType.DOUBLE ? DataType.DOUBLE : DataType.FLOAT;
        if (b.scratch == null || b.scratch.length() != n || b.scratch.dataType() != type) {
            b.scratch = Nd4j.createUninitializedDetached(type, n);
        }
        if (inHostMemory(b.scratch)) {
            stream(b.scratch, std, false);
        } else {
            double[] z = standardNormalArray(n);
            if (type == DataType.DOUBLE) {
                for (int k = 0; k < n; k++) {
                    z[k] *= std;
                }
                b.scratch.data().setData(z);
            } else {
                float[] values = new float[n];
                for (int k = 0; k < n; k++) {
                    values[k] = (float) (std * z[k]);
                }
                b.scratch.data().setData(values);
            }
        }
        INDArray noise = type == target.dataType() ? b.scratch : b.scratch.castTo(target.dataType());
        return noise.reshape('c', target.shape());
    }

    /** Draws {@code count} values and discards them, as many as a draw of {@code count} elements consumes. */
    void skip(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("cannot skip a negative number of draws: " + count);
        }
        Buffers b = BUFFERS.get();
        for (long done = 0; done < count; done += BLOCK) {
            normals(b.block, (int) Math.min(BLOCK, count - done), b.raw);
        }
    }

    /** n standard normals as a DOUBLE rank-1 array. */
    INDArray standardNormals(int n) {
        return Nd4j.createFromArray(standardNormalArray(n));
    }

    private double[] standardNormalArray(int n) {
        double[] out = new double[n];
        Buffers b = BUFFERS.get();
        for (int i = 0; i < n; i += BLOCK) {
            int c = Math.min(BLOCK, n - i);
            normals(b.block, c, b.raw);
            System.arraycopy(b.block, 0, out, i, c);
        }
        return out;
    }

}
