package org.dpdl4j.protocol.recal;

import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * NIDS (Li, Shi, Yan 2019), a baseline of Table V, with DP-NIDS as its private variant: with {@code W~ = (I + W)/2},
 * <pre>
 *   z^1 = x^0 - alpha grad f(x^0),   x^{k} = prox_{alpha g}(z^{k}),
 *   u^k = 2 x^k - x^{k-1} - alpha (grad f(x^k) - grad f(x^{k-1})),  published to the neighbours (k >= 1),
 *   z^{k+1} = z^k - x^k + W~ u^k
 * </pre>
 * One fresh gradient per publication, coefficient alpha: sensitivity {@code 2 alpha G_rec}. The first iteration
 * publishes nothing, so T iterations make T - 1 publications.
 */
public final class Nids extends GossipRun {
    /** The non-private protocol's name. */
    public static final String NIDS = "nids";
    /** The private protocol's name. */
    public static final String DP_NIDS = "dp-nids";

    private final INDArray x;
    private final INDArray xPrevious;
    private final INDArray z;
    private final INDArray gradPrevious;

    Nids(String protocol, RunSettings settings, RunLedger ledger, CompositeProblem problem, LinearModel model, long iterations,
         MixingMatrix mixing, double alpha, double clip, DecayingNoisePrivacy privacy, NoiseStreams streams,
         StepOrigin origin) {
        super(protocol, settings, ledger, problem, model, iterations, mixing, alpha, clip, privacy, streams, origin);
        this.x = stacked();
        this.xPrevious = stacked();
        this.z = stacked();
        this.gradPrevious = stacked();
    }

    @Override
    protected void takeStep(long k) {
        INDArray g = gradients(x);
        if (k == 0) {
            z.assign(x.sub(g.mul(alpha)));
        } else {
            INDArray u = x.mul(2).subi(xPrevious).subi(g.sub(gradPrevious).muli(alpha));
            INDArray mixed = publishAndMix(u, k);
            z.subi(x).addi(u.addi(mixed).muli(0.5));
        }
        gradPrevious.assign(g);
        xPrevious.assign(x);
        x.assign(proxRows(z.dup(), alpha));
    }

    /** Publications planned for T iterations: T - 1. */
    static long publicationsFor(long iterations) {
        return iterations - 1;
    }

    /** One publication per iteration after the first. */
    @Override
    protected long plannedPublications() {
        return publicationsFor(plannedSteps());
    }

    @Override
    protected INDArray models() {
        return x;
    }

    @Override
    public RunState state() {
        return baseState().array("x", x).array("xPrevious", xPrevious).array("z", z).array("gradPrevious", gradPrevious).build();
    }

    @Override
    protected void restoreState(RunState state, long completed) {
        restoreBase(state);
        x.assign(state.array("x", x.shape()));
        xPrevious.assign(state.array("xPrevious", xPrevious.shape()));
        z.assign(state.array("z", z.shape()));
        gradPrevious.assign(state.array("gradPrevious", gradPrevious.shape()));
    }
}
