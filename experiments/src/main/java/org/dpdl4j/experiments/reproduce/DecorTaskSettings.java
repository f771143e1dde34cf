package org.dpdl4j.experiments.reproduce;

import org.dpdl4j.privacy.accounting.ProtectedUnit;
import org.dpdl4j.privacy.accounting.SamplingScheme;
import org.dpdl4j.protocol.decentralized.LocalObjective;

import java.util.List;

/**
 * The fixed settings of one task of Decor's Figure 1 (spec section 3.7): what the figure varies is in the grid.
 *
 * @param name          synthetic, a9a or mnist
 * @param epsilons      the paper's plotted epsilon grid
 * @param seeds         default number of seeds
 * @param rounds        T
 * @param batchSize     per-user batch size
 * @param unit          protected unit
 * @param sampling      batch sampling
 * @param objective     mean or sum over the local batch
 * @param weightDecay   lambda
 * @param metric        what is measured
 * @param lowerIsBetter whether a lower metric is better
 */
record DecorTaskSettings(String name, List<Double> epsilons, int seeds, long rounds, int batchSize, ProtectedUnit unit,
                     SamplingScheme sampling, LocalObjective objective, double weightDecay, String metric, boolean lowerIsBetter) {
}
