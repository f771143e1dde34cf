/**
 * What a training session trains on. {@link Workloads} resolves the {@link WorkloadOptions} (data set and model)
 * into a {@link Workload}: training and test splits in the model's label layout, the labelled data, Decor's
 * synthetic users, the model family, architecture and precision, refusing options that would have no effect.
 * {@link WorkloadDefaults} fills per-data-set defaults for the options the chosen protocol reads,
 * {@link Evaluation} gives loss and accuracy on a split, and {@code org.dpdl4j.attacks.observe.PartitionSchemes} adapts the data loaders'
 * partitioners to {@code org.dpdl4j.runtime.PartySplit}. Files are read by the data-loaders module
 * ({@code org.dpdl4j.data.catalog.Datasets}) and networks configured by {@code org.dpdl4j.models}; this package
 * only ties them to a run's settings.
 */
package org.dpdl4j.experiments.workload;
