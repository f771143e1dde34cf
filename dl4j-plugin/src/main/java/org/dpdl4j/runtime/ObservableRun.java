package org.dpdl4j.runtime;

import java.util.function.Consumer;

/**
 * A {@link TrainingRun} that hands each release a declared observer sees ({@link Protocol#observers()}) to a sink,
 * as an {@link ObservedRelease}: the generic tap through which a protocol can be attacked without an adapter of
 * its own. A run calls each sink during {@link #step()}, after the release is computed; the sink may keep the
 * release's arrays, so the run passes copies it does not modify afterwards.
 */
public interface ObservableRun extends TrainingRun {

    /**
     * Registers a sink for one observer's releases.
     *
     * @param observer the name of one of the protocol's declared observers
     * @param sink     called with every release that observer sees
     * @throws IllegalArgumentException for an observer the protocol does not declare, naming those it does
     */
    void observe(String observer, Consumer<ObservedRelease> sink);
}
