package org.dpdl4j.protocol.central;

import org.dpdl4j.runtime.options.ResumeRule;
import org.dpdl4j.runtime.options.RunOption;
import org.dpdl4j.runtime.options.ValueType;

/** The options only central training reads. */
public final class CentralOptions {
    private CentralOptions() {
    }

    public static final RunOption<String> UPDATER = RunOption.of("updater", "U", ValueType.choice("sgd", "momentum", "adam"),
            ResumeRule.IDENTITY, "DL4J updater of central training: sgd, momentum (Nesterov 0.9) or adam; default sgd (adam on covtype and covtype-20k).");
}
