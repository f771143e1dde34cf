package org.dpdl4j.runtime.engine;

import java.util.List;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.RunSettings;

/**
 * An engine a command line can choose with {@code --engine NAME}, found through {@link java.util.ServiceLoader}: list
 * the class in {@code META-INF/services/org.dpdl4j.runtime.engine.RunEngine}. The local engine (one process) is
 * built in; the Spark module adds {@code spark}.
 */
public interface RunEngine {

    /** The name {@code --engine} takes, e.g. {@code spark}. */
    String name();

    /** One line for help. */
    String summary();

    /**
     * The options this engine reads besides {@code --engine} (e.g. a cluster's address), offered by every command that
     * can run on it and refused when another engine is chosen.
     */
    default List<RunOption<?>> options() {
        return List.of();
    }

    /**
     * Connects to what will run the blocks, as the engine options ({@link EngineOptions}) say.
     *
     * @param settings the engine options given
     * @param purpose  what the run is, for the cluster's application name
     * @throws org.dpdl4j.runtime.options.InvalidOptionException naming the option when the settings do not fit or the
     *                                                           cluster cannot be reached
     */
    BlockEngine connect(RunSettings settings, String purpose);
}
