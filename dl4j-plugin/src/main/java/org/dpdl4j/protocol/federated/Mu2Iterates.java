package org.dpdl4j.protocol.federated;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Arrays;
import java.util.Objects;

/**
 * The server side of mu^2-SGD (spec 4.2): the iterate {@code w_t} and the anytime average {@code x_t}
 * (the query point where gradients are taken), with weights {@code alpha_t = t}.
 *
 * <p>Starting from {@code x_1 = w_1 = Pi_K(start)}, one {@link #advance} with the aggregated estimate
 * {@code gbar_t} does
 * {@code w_{t+1} = Pi_K(w_t - eta gbar_t)} and
 * {@code x_{t+1} = (alpha_{1:t} x_t + alpha_{t+1} w_{t+1}) / alpha_{1:t+1} = (t x_t + 2 w_{t+1}) / (t + 2)},
 * so {@code x_t = sum_{tau <= t} alpha_tau w_tau / alpha_{1:t}} at every t. The previous query point
 * {@code x_{t-1}} is kept because the corrected momentum needs the gradient there. All three are
 * [1, p] rows in the model's data type.
 */
public final class Mu2Iterates {
    private final ParameterBall domain;
    private final INDArray x;
    private final INDArray previous;
    private final INDArray w;
    private long t = 1;

    /**
     * @param start  a data-independent starting point ([p] or [1, p]); it is projected onto the domain
     * @param domain the feasible ball K
     */
    public Mu2Iterates(INDArray start, ParameterBall domain) {
        this.domain = Objects.requireNonNull(domain, "domain");
        this.w = domain.project(start.reshape(1, start.length()).dup());
        this.x = w.dup();
        this.previous = w.dup();
    }

    /** {@code alpha_t = t}. */
    public static double alpha(long t) {
        return t;
    }

    /** {@code alpha_{1:t} = t (t + 1) / 2}. */
    public static double alphaSum(long t) {
        return t * (t + 1) / 2.0;
    }

    /**
     * One server step with the aggregated (possibly noisy) weighted estimate {@code gbar_t} ([1, p] or [p]).
     * Advances t by one.
     */
    public void advance(INDArray gbar, double eta) {
        if (!(eta > 0) || Double.isInfinite(eta)) {
            throw new IllegalArgumentException("step size eta must be a positive finite number, got " + eta);
        }
        if (gbar.length() != w.length()) {
            throw new IllegalArgumentException("aggregate has " + gbar.length() + " entries but the model has " + w.length());
        }
        // Few, fused operations: a round's cost is dominated by the number of ND4J calls, not their size.
        Nd4j.getBlasWrapper().level1().axpy(w.length(), -eta, gbar.reshape(1, w.length()).castTo(w.dataType()), w);
        if (!domain.isUnbounded()) {
            double norm = w.norm2Number().doubleValue();
            if (norm > domain.radius()) {
                w.muli(domain.radius() / norm);
            }
        }
        previous.assign(x);
        double keep = alphaSum(t) / alphaSum(t + 1);
        double add = alpha(t + 1) / alphaSum(t + 1);
        Nd4j.getBlasWrapper().level1().axpy(x.length(), add, w, x.muli(keep));
        t++;
    }

    /** Index t of the current query point {@code x_t} (1 before the first step). */
    public long t() {
        return t;
    }

    /** The query point {@code x_t} (live [1, p] view; copy it to keep it). */
    public INDArray x() {
        return x;
    }

    /** The previous query point {@code x_{t-1}} (equal to {@code x_1} while t = 1, where its weight alpha_0 is 0). */
    public INDArray previous() {
        return previous;
    }

    /** The iterate {@code w_t} (live view). */
    public INDArray w() {
        return w;
    }

    public ParameterBall domain() {
        return domain;
    }

    /** Restores a saved state (checkpoints). */
    void restore(long savedT, INDArray savedX, INDArray savedPrevious, INDArray savedW) {
        for (INDArray a : new INDArray[]{savedX, savedPrevious, savedW}) {
            if (a.length() != x.length()) {
                throw new IllegalArgumentException("checkpoint holds a parameter vector of shape " + Arrays.toString(a.shape())
                        + " but the model has " + x.length() + " parameters");
            }
        }
        if (savedT < 1) {
            throw new IllegalArgumentException("checkpoint round index must be >= 1, got " + savedT);
        }
        x.assign(savedX.reshape(x.shape()));
        previous.assign(savedPrevious.reshape(x.shape()));
        w.assign(savedW.reshape(x.shape()));
        t = savedT;
    }
}
