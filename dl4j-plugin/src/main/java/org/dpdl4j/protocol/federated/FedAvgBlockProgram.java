package org.dpdl4j.protocol.federated;

import org.dpdl4j.runtime.engine.BlockProgram;

/** Opens a {@link FedAvgBlock} from its plan and steps it. */
public final class FedAvgBlockProgram implements BlockProgram<FedAvgBlockPlan, FedAvgBlock, FedAvgBlockInput, FedAvgBlockOutput> {
    private static final long serialVersionUID = 1L;

    @Override
    public FedAvgBlock open(FedAvgBlockPlan plan) {
        return new FedAvgBlock(plan);
    }

    @Override
    public FedAvgBlockOutput step(FedAvgBlock worker, long round, FedAvgBlockInput input) {
        return worker.step(round, input);
    }
}
