package org.dpdl4j.protocol.federated;

import org.dpdl4j.runtime.engine.BlockProgram;

/** Opens a {@link Mu2Block} from its plan and steps it. */
public final class Mu2BlockProgram implements BlockProgram<Mu2BlockPlan, Mu2Block, Mu2BlockInput, Mu2BlockOutput> {
    private static final long serialVersionUID = 1L;

    @Override
    public Mu2Block open(Mu2BlockPlan plan) {
        return new Mu2Block(plan);
    }

    @Override
    public Mu2BlockOutput step(Mu2Block worker, long round, Mu2BlockInput input) {
        return worker.step(round, input);
    }
}
