package org.dpdl4j.privacy.noise;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Gaussian noise in bulk from a key stream: ziggurat normals computed in Java, scaled, copied to native
 * memory in one block and added to the target with one ND4J op.
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
     * Staging buffers, one set per thread and shared by every sampler on it: streams keyed by (node, round) make
     * a new sampler for every draw, and fresh multi-megabyte Java and native buffers per draw cost more than the
     * draw itself (large arrays go straight to the old generation and wait there for a full collection).
     */
    private static final class Buffers {
        float[] floats = new float[0];
        double[] doubles = new double[0];
        final double[] block = new double[BLOCK];
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
        Buffers b = BUFFERS.get();
        target.addi(staged(b, target, std));
    }

    /**
     * Overwrites every element of {@code target} with an independent N(0, std^2) draw: the values {@link #addTo}
     * would add to zeros. A contiguous C-order target in host memory receives them with one bulk copy; this saves
     * zeroing the target, a staging array and an addition pass over it.
     */
    void writeTo(INDArray target, double std) {
        Buffers b = BUFFERS.get();
        DataType type = stage(b, target, std);
        if (Nd4j.getEnvironment().isCPU() && type == target.dataType() && target.ordering() == 'c'
                && target.elementWiseStride() == 1 && target.data().length() == target.length()) {
            copy(target.data().addressPointer(), b, type, (int) target.length());
        } else {
            target.assign(staged(b, target, type));
        }
    }

    /** The draws of {@link #stage} as an array shaped like {@code target} (a staging array, reused per thread). */
    private INDArray staged(Buffers b, INDArray target, double std) {
        return staged(b, target, stage(b, target, std));
    }

    private INDArray staged(Buffers b, INDArray target, DataType type) {
        int n = (int) target.length();
        if (b.scratch == null || b.scratch.length() != n || b.scratch.dataType() != type) {
            b.scratch = Nd4j.createUninitializedDetached(type, n);
        }
        if (Nd4j.getEnvironment().isCPU()) {
            copy(b.scratch.data().pointer(), b, type, n);
        } else {
            if (type == DataType.DOUBLE) {
                b.scratch.data().setData(java.util.Arrays.copyOf(b.doubles, n));
            } else {
                b.scratch.data().setData(java.util.Arrays.copyOf(b.floats, n));
            }
        }
        INDArray noise = type == target.dataType() ? b.scratch : b.scratch.castTo(target.dataType());
        return noise.reshape('c', target.shape());
    }

    /**
     * Draws {@code target.length()} values {@code std * z} into the thread's Java staging array: doubles for a DOUBLE
     * target, floats otherwise. Returns that staging type.
     */
    private DataType stage(Buffers b, INDArray target, double std) {
        long length = target.length();
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("can draw noise for at most 2^31-17 elements at a time, got " + length);
        }
        int n = (int) length;
        boolean inDouble = target.dataType() == DataType.DOUBLE;
        if (inDouble && b.doubles.length < n) {
            b.doubles = new double[n];
        } else if (!inDouble && b.floats.length < n) {
            b.floats = new float[n];
        }
        for (int i = 0; i < n; i += BLOCK) {
            int c = Math.min(BLOCK, n - i);
            normals(b.block, c, b.raw);
            if (inDouble) {
                for (int k = 0; k < c; k++) {
                    b.doubles[i + k] = std * b.block[k];
                }
            } else {
                for (int k = 0; k < c; k++) {
                    b.floats[i + k] = (float) (std * b.block[k]);
                }
            }
        }
        return inDouble ? DataType.DOUBLE : DataType.FLOAT;
    }

    /** n standard normals as a DOUBLE rank-1 array. */
    INDArray standardNormals(int n) {
        double[] out = new double[n];
        Buffers b = BUFFERS.get();
        for (int i = 0; i < n; i += BLOCK) {
            int c = Math.min(BLOCK, n - i);
            normals(b.block, c, b.raw);
            System.arraycopy(b.block, 0, out, i, c);
        }
        return Nd4j.createFromArray(out);
    }

    // Host memory on the CPU backend takes a direct bulk copy (about 50x faster than creating an array from a Java
    // array). The destination is a fresh pointer object over the address: a buffer's own pointer is shared.
    private static void copy(Pointer destination, Buffers b, DataType type, int n) {
        if (type == DataType.DOUBLE) {
            new DoublePointer(destination).put(b.doubles, 0, n);
        } else {
            new FloatPointer(destination).put(b.floats, 0, n);
        }
    }
}
