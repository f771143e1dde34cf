package org.dpdl4j.privacy.noise;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
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
    private float[] floats = new float[0];
    private double[] doubles = new double[0];
    private INDArray scratch;

    GaussianSampler(KeyStream stream, boolean mitigate) {
        this.ziggurat = new Ziggurat(stream);
        this.mitigate = mitigate;
    }

    private double normal() {
        return mitigate ? (ziggurat.next() + ziggurat.next()) * INV_SQRT2 : ziggurat.next();
    }

    /** Adds independent N(0, std^2) draws to every element of {@code target}, in place. */
    void addTo(INDArray target, double std) {
        long length = target.length();
        if (length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("can add noise to at most 2^31-17 elements at a time, got " + length);
        }
        int n = (int) length;
        DataType type = target.dataType() == DataType.DOUBLE ? DataType.DOUBLE : DataType.FLOAT;
        if (scratch == null || scratch.length() != n || scratch.dataType() != type) {
            scratch = Nd4j.createUninitializedDetached(type, n);
        }
        if (type == DataType.DOUBLE) {
            if (doubles.length < n) {
                doubles = new double[n];
            }
            for (int i = 0; i < n; i++) {
                doubles[i] = std * normal();
            }
            copy(doubles, n);
        } else {
            if (floats.length < n) {
                floats = new float[n];
            }
            for (int i = 0; i < n; i++) {
                floats[i] = (float) (std * normal());
            }
            copy(floats, n);
        }
        INDArray noise = scratch.dataType() == target.dataType() ? scratch : scratch.castTo(target.dataType());
        target.addi(noise.reshape('c', target.shape()));
    }

    /** n standard normals as a DOUBLE rank-1 array. */
    INDArray standardNormals(int n) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = normal();
        }
        return Nd4j.createFromArray(out);
    }

    // Host memory on the CPU backend takes a direct bulk copy (about 50x faster than creating an array from
    // a Java array); other backends go through the portable setData.
    private void copy(float[] values, int n) {
        if (Nd4j.getEnvironment().isCPU() && scratch.data().pointer() instanceof FloatPointer p) {
            p.put(values, 0, n);
        } else {
            scratch.data().setData(java.util.Arrays.copyOf(values, n));
        }
    }

    private void copy(double[] values, int n) {
        if (Nd4j.getEnvironment().isCPU() && scratch.data().pointer() instanceof DoublePointer p) {
            p.put(values, 0, n);
        } else {
            scratch.data().setData(java.util.Arrays.copyOf(values, n));
        }
    }
}
