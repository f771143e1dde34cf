package org.dpdl4j.runtime.engine;

import java.io.Serializable;
import java.util.Objects;
import java.util.function.Function;

/**
 * The block program of workers that are built from their plan by one constructor and step themselves, e.g.
 * {@code new ConstructedBlocks<>(Mu2Block::new)}: the constructor reference travels to the workers with the program.
 *
 * @param <P> the plan of a block
 * @param <W> the worker built from it
 * @param <I> what a block is sent for one round
 * @param <O> what a block sends back
 */
public final class ConstructedBlocks<P, W extends BlockWorker<I, O>, I, O> implements BlockProgram<P, W, I, O> {
    private static final long serialVersionUID = 1L;

    /** Builds a worker from its plan; serializable, so that it can travel to the workers. */
    public interface Opener<P, W> extends Function<P, W>, Serializable {
    }

    private final Opener<P, W> opener;

    public ConstructedBlocks(Opener<P, W> opener) {
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    @Override
    public W open(P plan) {
        return opener.apply(plan);
    }

    @Override
    public O step(W worker, long round, I input) {
        return worker.step(round, input);
    }
}
