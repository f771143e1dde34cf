package org.dpdl4j.runtime;

import org.nd4j.linalg.api.memory.MemoryWorkspace;
import org.nd4j.linalg.api.memory.conf.WorkspaceConfiguration;
import org.nd4j.linalg.api.memory.enums.AllocationPolicy;
import org.nd4j.linalg.api.memory.enums.LearningPolicy;
import org.nd4j.linalg.api.memory.enums.ResetPolicy;
import org.nd4j.linalg.api.memory.enums.SpillPolicy;
import org.nd4j.linalg.factory.Nd4j;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Reusable memory for the temporaries of one training round. A round of a protocol with thousands of tiny
 * rounds creates dozens of short-lived arrays; allocated one by one they cost more than the arithmetic and
 * their off-heap memory is only returned when the Java garbage collector happens to run (JavaCPP's limit
 * follows -Xmx, so a large heap lets gigabytes of garbage pile up). Inside a workspace every temporary is
 * carved from one block that is reset at the end of the round. Nothing created inside may outlive the round:
 * state lives in arrays allocated outside and is updated in place.
 */
public final class RoundWorkspace implements AutoCloseable {
    private static final WorkspaceConfiguration CONFIG = WorkspaceConfiguration.builder()
            .initialSize(0).overallocationLimit(0.1)
            .policyLearning(LearningPolicy.FIRST_LOOP).policyReset(ResetPolicy.BLOCK_LEFT)
            .policyAllocation(AllocationPolicy.OVERALLOCATE).policySpill(SpillPolicy.REALLOCATE)
            .build();
    private static final AtomicLong IDS = new AtomicLong();

    private final String id = "DPDL4J_ROUND_" + IDS.incrementAndGet();

    /** Opens the workspace for one round on the calling thread; close it at the end of the round. */
    public MemoryWorkspace open() {
        return Nd4j.getWorkspaceManager().getAndActivateWorkspace(CONFIG, id);
    }

    /** Releases the workspace's memory on the calling thread. */
    @Override
    public void close() {
        if (Nd4j.getWorkspaceManager().checkIfWorkspaceExists(id)) {
            Nd4j.getWorkspaceManager().getWorkspaceForCurrentThread(id).destroyWorkspace();
        }
    }
}
