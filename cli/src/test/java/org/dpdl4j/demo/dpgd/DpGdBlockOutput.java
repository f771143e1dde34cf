package org.dpdl4j.demo.dpgd;

import java.io.Serializable;
import org.dpdl4j.runtime.engine.Rows;

/**
 * One block's part of a {@code dp-gd} step: the sum of its examples' clipped gradients (no noise: the driver adds the
 * step's one Gaussian draw to the total) and the sum of their losses.
 */
record DpGdBlockOutput(Rows clippedSum, double lossSum) implements Serializable {
}
