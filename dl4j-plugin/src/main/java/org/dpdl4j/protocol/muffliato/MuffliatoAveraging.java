package org.dpdl4j.protocol.muffliato;

import java.util.Objects;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Muffliato averaging (Cyffers et al. 2022, Algorithm 1): every node clips its value to L2 norm R (so two inputs of one
 * node differ by at most {@code Delta = 2R}), adds its private {@code N(0, sigma^2 I)}, then T gossip steps run on the
 * stacked values. The result estimates the mean of the noisy values, whose own error is {@code sigma^2 d / n} per
 * coordinate block; {@link PairwiseNetworkDp} accounts what each node learns about each other one.
 */
public final class MuffliatoAveraging {
    private final GossipPolynomial gossip;
    private final int steps;

    /**
     * @param gossip the mixing matrix and scheme
     * @param steps  T >= 0
     */
    public MuffliatoAveraging(GossipPolynomial gossip, int steps) {
        this.gossip = Objects.requireNonNull(gossip, "gossip");
        if (steps < 0) {
            throw new IllegalArgumentException("the number of gossip steps T must be >= 0, got " + steps);
        }
        this.steps = steps;
    }

    /** The L2 sensitivity of one node's clipped value: {@code 2R}. */
    public static double sensitivity(double clipNorm) {
        return 2.0 * clipNorm;
    }

    /** Scales every row of {@code x} in place to norm at most {@code clipNorm}. */
    public static INDArray clipRows(INDArray x, double clipNorm) {
        if (!(clipNorm > 0) || Double.isInfinite(clipNorm)) {
            throw new IllegalArgumentException("clip norm R must be a positive finite number, got " + clipNorm);
        }
        INDArray norms = x.norm2(1).reshape(x.size(0), 1);
        INDArray scale = Transforms.min(norms.rdiv(clipNorm), 1.0, false);
        return x.muliColumnVector(scale.reshape(x.size(0)));
    }

    /**
     * Runs one private averaging.
     *
     * @param values   [n, d], row i = node i's value; not modified
     * @param clipNorm R
     * @param sigma    noise std (0 for the non-private reference)
     * @param streams  the nodes' private noise streams
     * @param round    the round key of the noise
     * @return what each node holds after T steps, [n, d]
     */
    public INDArray run(INDArray values, double clipNorm, double sigma, NoiseStreams streams, long round) {
        INDArray z = noisy(values, clipNorm, sigma, streams, round);
        return gossip.apply(z, steps);
    }

    /** The clipped, noised values before any gossip: the row means are what gossip converges to. */
    public INDArray noisy(INDArray values, double clipNorm, double sigma, NoiseStreams streams, long round) {
        if (!(sigma >= 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("noise std sigma must be a finite number >= 0, got " + sigma);
        }
        INDArray z = clipRows(values.dup(), clipNorm);
        if (sigma > 0) {
            streams.addPrivateNoise(z, round, sigma);
        }
        return z;
    }

    /** T. */
    public int steps() {
        return steps;
    }

    /** The gossip. */
    public GossipPolynomial gossip() {
        return gossip;
    }
}
