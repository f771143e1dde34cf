package org.dpdl4j.demo.dpgd;

import java.io.Serializable;
import java.util.Objects;
import org.dpdl4j.runtime.engine.Rows;

/**
 * What every block of {@code dp-gd} is sent for one step: the parameters and the step's batch (rows of the whole
 * training set; each block takes those it holds).
 */
record DpGdBlockInput(Rows parameters, int[] rows) implements Serializable {
    DpGdBlockInput {
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(rows, "rows");
    }
}
