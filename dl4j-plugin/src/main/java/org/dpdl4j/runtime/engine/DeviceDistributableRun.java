package org.dpdl4j.runtime.engine;

import org.dpdl4j.optim.BlockDevice;
import org.dpdl4j.optim.ComputeDevice;

/**
 * A run whose blocks of parties can each compute on a device of the worker that runs them (a GPU there): the
 * decentralized protocols, the FedAvg family and DP-mu^2-FL. Where a block computes is chosen on its worker, from the
 * device asked for ({@code --device}).
 */
public interface DeviceDistributableRun extends DistributableRun {

    /**
     * {@link #distribute(BlockEngine, ComputeDevice)} with the device the run was asked to compute on
     * ({@link #requestedDevice}): {@code auto} unless chosen, each block on its worker's GPU when usable there.
     *
     * @throws org.dpdl4j.optim.DeviceUnavailableException when the run was asked for a GPU by number
     *                                                     ({@code ComputeDevice.cuda(n)}), which blocks cannot take
     */
    @Override
    default void distribute(BlockEngine engine) {
        distribute(engine, requestedDevice());
    }

    /** The device this run was last asked to compute on ({@code useDevice}), {@code auto} until then. */
    ComputeDevice requestedDevice();

    /**
     * {@link #distribute(BlockEngine)} with each block on the device {@code device} picks where the block runs:
     * {@code auto} its worker's GPU when the engine is usable there, {@code cpu} its CPU, {@code cuda} its GPU or a
     * refusal there.
     *
     * @throws org.dpdl4j.optim.DeviceUnavailableException for a GPU named by number ({@code cuda:N}): blocks take the
     *                                                     GPU their task was assigned, or spread over their worker's
     */
    @Override
    default void distribute(BlockEngine engine, ComputeDevice device) {
        distribute(engine, BlockDevice.of(device));
    }

    /**
     * {@link #distribute(BlockEngine)} with each block's node models opened by {@code blockDevice} where the block runs
     * (null models: its CPU).
     *
     * @throws IllegalStateException when the run already runs on blocks
     */
    void distribute(BlockEngine engine, BlockDevice blockDevice);
}
