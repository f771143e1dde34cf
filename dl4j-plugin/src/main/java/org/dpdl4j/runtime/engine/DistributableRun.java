package org.dpdl4j.runtime.engine;

import org.dpdl4j.runtime.TrainingRun;

/**
 * A run whose parties can be split into blocks that run elsewhere: the decentralized and federated protocols, whose
 * parties compute independently within a round and exchange only the protocol's messages. The driver keeps
 * everything else: the step count, the ledger, the listeners, checkpoints and the models it reports.
 */
public interface DistributableRun extends TrainingRun {

    /**
     * Runs every later round on blocks of parties placed by {@code engine}, which the run then owns and closes when it
     * closes. With seeded streams the rounds give what this process would, bit for bit (each protocol says where
     * it cannot).
     *
     * @throws IllegalStateException when the run already runs on blocks
     */
    void distribute(BlockEngine engine);

    /**
     * {@link #distribute(BlockEngine)} with the device each block computes on, chosen where the block runs
     * ({@code --device}); this default keeps the blocks on their workers' CPUs and refuses {@code cuda}.
     *
     * @throws org.dpdl4j.runtime.options.InvalidOptionException when {@code device} is {@code cuda} and the blocks cannot use it
     */
    default void distribute(BlockEngine engine, org.dpdl4j.optim.ComputeDevice device) {
        if (device.isCuda()) {
            throw EngineOptions.DEVICE.invalid("--device " + device.label() + ": the blocks of " + protocol() + " compute on their workers'"
                    + " CPUs (the blocks of the decentralized protocols, of the FedAvg family and of DP-mu^2-FL take a GPU"
                    + " each); drop"
                    + " --device, or run it with --engine local");
        }
        distribute(engine);
    }

    /** The engine the rounds run on, or null while they run in this process. */
    BlockEngine engine();
}
