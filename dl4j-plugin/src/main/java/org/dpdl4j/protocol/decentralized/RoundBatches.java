package org.dpdl4j.protocol.decentralized;

import java.util.function.Supplier;
import org.dpdl4j.runtime.BatchRows;
import org.dpdl4j.runtime.NodeBatches;
import org.dpdl4j.runtime.PaddedBatch;
import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A round's batch of the nodes one process holds (all of a run's, or a block's), as rows of their data ({@link #rows},
 * for a device that keeps the data) or gathered ({@link #batch}): with full local batches neither changes from round
 * to round, so both are chosen and gathered once.
 */
final class RoundBatches {
    private final NodeBatches batches;
    private final boolean fullBatches;
    private BatchRows fullRows;
    private PaddedBatch fullBatch;

    /** @param fullBatches whether every round's batch is the nodes' whole data (the same every round) */
    RoundBatches(NodeBatches batches, boolean fullBatches) {
        this.batches = batches;
        this.fullBatches = fullBatches;
    }

    /** The round's rows: those {@code choose} gives, or the full batch's once chosen. */
    BatchRows rows(Supplier<BatchRows> choose) {
        if (fullRows != null) {
            return fullRows;
        }
        BatchRows chosen = choose.get();
        if (fullBatches) {
            fullRows = chosen;
        }
        return chosen;
    }

    /** The round's batch gathered from the rows {@link #rows} gives; the full batch is gathered once. */
    PaddedBatch batch(Supplier<BatchRows> choose) {
        if (fullBatch != null) {
            return fullBatch;
        }
        BatchRows chosen = rows(choose);
        if (!fullBatches) {
            return batches.gather(chosen);
        }
        // kept across rounds: outside the workspace a round may have open
        try (MemoryWorkspace outside = Nd4j.getMemoryManager().scopeOutOfWorkspaces()) {
            fullBatch = batches.gather(chosen);
        }
        return fullBatch;
    }
}
