package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

import static org.nd4j.linalg.indexing.NDArrayIndex.all;
import static org.nd4j.linalg.indexing.NDArrayIndex.interval;

/**
 * Turns uniforms in (0, 1] into standard normals in bulk with ND4J ops (Box-Muller), combining two
 * independent normals per output as a mitigation against floating-point attacks.
 *
 * <p>Why the combination: a Gaussian sample computed in floating point does not cover the reals
 * uniformly; its set of reachable values has gaps whose pattern, after being added to a secret, can
 * reveal the secret (Mironov 2012 showed this for the Laplace mechanism; Holohan and Braghin 2021 for
 * Gaussian samplers). Summing independently generated normals (here two, scaled by 1/sqrt(2) to keep
 * unit variance) fills those gaps, the mitigation their paper proposes and Opacus's secure mode uses.
 * It is a mitigation, not a proof: the released sum is still a floating-point number. The two normals
 * must come from different Box-Muller pairs, since the two outputs of one pair share their radius.
 * Uniforms carry a full 53-bit mantissa and are never 0, so the logarithm's tail is not truncated at
 * 2^-32 as with 32-bit uniforms.
 */
final class StandardNormalBlocks {
    private static final double INV_SQRT2 = 1.0 / Math.sqrt(2.0);

    private StandardNormalBlocks() {
    }

    /** Number of uniforms {@link #fromUniforms} consumes to produce {@code n} normals. */
    static int uniformsNeeded(long n) {
        long half = (n + 1) / 2;
        long needed = 4 * half;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many normals in one block: " + n + "; request at most 500 million at a time");
        }
        return (int) needed;
    }

    /**
     * {@code n} standard normals (DOUBLE, rank 1) from {@code uniformsNeeded(n)} uniforms laid out as four
     * consecutive blocks [u1 of pair A | u2 of pair A | u1 of pair B | u2 of pair B].
     */
    static INDArray fromUniforms(double[] uniforms, long n) {
        int half = (int) ((n + 1) / 2);
        INDArray u = Nd4j.createFromArray(uniforms).reshape(4, half);
        INDArray radius = Transforms.sqrt(Transforms.log(u.get(interval(0, 2, 4),
                all()), true).muli(-2.0), false);          // rows: rA, rB
        INDArray angle = u.get(interval(1, 2, 4),
                all()).mul(2.0 * Math.PI);                  // rows: thetaA, thetaB
        INDArray cos = Transforms.cos(angle, true).muli(radius).sum(0);                             // rA cos + rB cos
        INDArray sin = Transforms.sin(angle, false).muli(radius).sum(0);                            // rA sin + rB sin
        INDArray out = Nd4j.concat(0, cos, sin).muli(INV_SQRT2);
        return n == 2L * half ? out : out.get(interval(0, n)).dup();
    }

    /** Adds {@code std} times the normals to {@code target} (any shape and type), in place. */
    static void addScaled(INDArray target, INDArray normals, double std) {
        INDArray scaled = normals.muli(std);
        if (target.dataType() != DataType.DOUBLE) {
            scaled = scaled.castTo(target.dataType());
        }
        target.addi(scaled.reshape('c', target.shape()));
    }
}
