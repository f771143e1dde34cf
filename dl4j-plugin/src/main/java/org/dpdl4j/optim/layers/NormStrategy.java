package org.dpdl4j.optim.layers;

/**
 * How a convolution computes each example's squared weight-gradient norm: through Gram matrices of the unfolded
 * input and of the errors ("ghost", about {@code T^2 (K + nOut)} multiply-adds per example for T output positions,
 * K unfolded columns and nOut filters), or by forming each example's K x nOut gradient (about {@code T K nOut}).
 * {@link #CHEAPER} picks per layer and batch; the other two force one way (for tests and benchmarks).
 */
public enum NormStrategy {
    CHEAPER, GHOST, MATERIALISED;

    /** Whether to use the Gram matrices for a layer with these sizes. */
    boolean ghost(long positions, long unfoldedColumns, long filters) {
        return switch (this) {
            case GHOST -> true;
            case MATERIALISED -> false;
            case CHEAPER -> (double) positions * (unfoldedColumns + filters) < (double) unfoldedColumns * filters;
        };
    }
}
