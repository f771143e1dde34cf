package org.dpdl4j.protocol.recal;

import org.dpdl4j.graph.MixingMatrix;
import org.dpdl4j.privacy.ledger.RunLedger;
import org.dpdl4j.privacy.noise.NoiseStreams;
import org.dpdl4j.runtime.RunState;
import org.dpdl4j.runtime.options.RunSettings;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * PG-EXTRA (Shi, Ling, Wu, Yin 2015), a baseline of Table V, with DP-PG-EXTRA as its private variant: with
 * {@code W~ = (I + W)/2},
 * <pre>
 *   z^1 = W x^0 - alpha grad f(x^0),   z^{k+1} = z^k + W x^k - W~ x^{k-1} - alpha (grad f(x^k) - grad f(x^{k-1})),
 *   x^{k+1} = prox_{alpha g}(z^{k+1}),  then every agent publishes x^{k+1} to its neighbours
 * </pre>
 * One fresh gradient per publication, coefficient alpha: the sensitivity of a publication is {@code 2 alpha G_rec}
 * (the prox is non-expansive).
 */
public final class PgExtra extends GossipRun {
    /** The non-private protocol's name. */
    public static final String PG_EXTRA = "pg-extra";
    /** The private protocol's name. */
    public static final String DP_PG_EXTRA = "dp-pg-extra";

    private final INDArray x;
    private final INDArray xPrevious;
    private final INDArray z;
    private final INDArray mixed;
    private final INDArray mixedPrevious;
    private final INDArray gradPrevious;

    PgExtra(String protocol, RunSettings settings, RunLedger ledger, CompositeProblem problem, LinearModel model, long iterations,
            MixingMatrix mixing, double alpha, double clip, DecayingNoisePrivacy privacy, NoiseStreams streams,
            StepOrigin origin) {
        super(protocol, settings, ledger, problem, model, iterations, mixing, alpha, clip, privacy, streams, origin);
        this.x = stacked();
        this.xPrevious = stacked();
        this.z = stacked();
        this.mixed = stacked();
        this.mixedPrevious = stacked();
        this.gradPrevious = stacked();
    }

    @Override
    protected void takeStep(long k) {
        INDArray g = gradients(x);
        if (k == 0) {
            z.assign(mixed.sub(g.mul(alpha)));
        } else {
            INDArray tilde = xPrevious.add(mixedPrevious).muli(0.5);
            z.addi(mixed).subi(tilde).subi(g.sub(gradPrevious).muli(alpha));
        }
        gradPrevious.assign(g);
        xPrevious.assign(x);
        x.assign(proxRows(z.dup(), alpha));
        mixedPrevious.assign(mixed);
        mixed.assign(publishAndMix(x, k));
    }

    /** One publication per iteration. */
    @Override
    protected long plannedPublications() {
        return plannedSteps();
    }

    @Override
    protected INDArray models() {
        return x;
    }

    @Override
    public RunState state() {
        return baseState().array("x", x).array("xPrevious", xPrevious).array("z", z).array("mixed", mixed)
                .array("mixedPrevious", mixedPrevious).array("gradPrevious", gradPrevious).build();
    }

    @Override
    protected void restoreState(RunState state, long completed) {
        restoreBase(state);
        for (var e : java.util.Map.of("x", x, "xPrevious", xPrevious, "z", z, "mixed", mixed, "mixedPrevious", mixedPrevious,
                "gradPrevious", gradPrevious).entrySet()) {
            e.getValue().assign(state.array(e.getKey(), e.getValue().shape()));
        }
    }
}
