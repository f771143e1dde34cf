package org.dpdl4j.attacks.inversion;

import java.util.Objects;
import org.dpdl4j.attacks.matching.MatchingEngine;
import org.dpdl4j.attacks.optim.LbfgsConfig;
import org.dpdl4j.attacks.optim.OptimizerConfig;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Settings of the gradient-matching attacks (DLG, and iDLG after its label recovery).
 *
 * @param iterations    outer optimiser steps (300 in the DLG reference)
 * @param snapshotEvery record the reconstruction every this many outer steps (10 in the reference)
 * @param optimizer     the optimiser ({@link LbfgsConfig#pytorchDefaults()} in the reference)
 * @param seed          seed of the dummy initialisation {@code x' ~ N(0, 1)}, {@code u' ~ N(0, 1)}
 * @param engine        how the matching loss is evaluated
 * @param precision     FLOAT or DOUBLE for the matching loss (the optimiser itself works in double)
 */
public record DlgConfig(int iterations, int snapshotEvery, OptimizerConfig optimizer, long seed, MatchingEngine engine,
                        DataType precision) {

    public DlgConfig {
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
        }
        if (snapshotEvery < 1) {
            throw new IllegalArgumentException("snapshotEvery must be >= 1, got " + snapshotEvery);
        }
        Objects.requireNonNull(optimizer, "optimizer must not be null; use LbfgsConfig.pytorchDefaults()");
        Objects.requireNonNull(engine, "engine must not be null; use MatchingEngine.AUTO");
        Objects.requireNonNull(precision, "precision must not be null; use DataType.DOUBLE");
        if (precision != DataType.FLOAT && precision != DataType.DOUBLE) {
            throw new IllegalArgumentException("precision must be FLOAT or DOUBLE, got " + precision);
        }
    }

    /**
     * The DLG reference: 300 L-BFGS steps (PyTorch defaults, lr 1), a snapshot every 10, the matching loss in
     * single precision as in the reference (its tolerances were chosen for it), seed 0.
     */
    public static DlgConfig defaults() {
        return new DlgConfig(300, 10, LbfgsConfig.pytorchDefaults(), 0L, MatchingEngine.AUTO, DataType.FLOAT);
    }

    /** The same settings with another number of outer steps. */
    public DlgConfig withIterations(int newIterations) {
        return new DlgConfig(newIterations, snapshotEvery, optimizer, seed, engine, precision);
    }

    /** The same settings with another seed. */
    public DlgConfig withSeed(long newSeed) {
        return new DlgConfig(iterations, snapshotEvery, optimizer, newSeed, engine, precision);
    }

    /** The same settings with another optimiser. */
    public DlgConfig withOptimizer(OptimizerConfig newOptimizer) {
        return new DlgConfig(iterations, snapshotEvery, newOptimizer, seed, engine, precision);
    }

    /** The same settings with another engine and precision. */
    public DlgConfig withEngine(MatchingEngine newEngine, DataType newPrecision) {
        return new DlgConfig(iterations, snapshotEvery, optimizer, seed, newEngine, newPrecision);
    }

    /** The same settings with another snapshot interval. */
    public DlgConfig withSnapshotEvery(int newSnapshotEvery) {
        return new DlgConfig(iterations, newSnapshotEvery, optimizer, seed, engine, precision);
    }
}
