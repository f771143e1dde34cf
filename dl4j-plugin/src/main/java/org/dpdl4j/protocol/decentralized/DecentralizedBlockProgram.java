package org.dpdl4j.protocol.decentralized;

import org.dpdl4j.runtime.engine.BlockProgram;

/** Opens a {@link DecentralizedBlock} from its plan and steps it. */
public final class DecentralizedBlockProgram
        implements BlockProgram<DecentralizedBlockPlan, DecentralizedBlock, DecentralizedBlockInput, DecentralizedBlockOutput> {
    private static final long serialVersionUID = 1L;

    @Override
    public DecentralizedBlock open(DecentralizedBlockPlan plan) {
        return new DecentralizedBlock(plan);
    }

    @Override
    public DecentralizedBlockOutput step(DecentralizedBlock worker, long round, DecentralizedBlockInput input) {
        return worker.step(round, input);
    }
}
