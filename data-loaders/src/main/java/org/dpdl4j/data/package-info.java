/**
 * In-memory data sets and the randomness used to select from them, shared by the whole data-loaders module:
 * {@link LabeledData} (FLOAT features and 0-based class labels, with subsets, shuffles and train/test splits),
 * {@link RegressionData}, {@link TrainTest}, {@link LabelEncoding} for DL4J label matrices, {@link RandomStreams}
 * (reproducible random streams keyed by seed, purpose and index) and {@link MalformedDataException}, the error
 * every reader raises for bad content.
 *
 * <p>The format readers live in {@code data.mnist}, {@code data.libsvm} and {@code data.covtype}, file handling in
 * {@code data.io}, the catalog of known data sets in {@code data.catalog}, node partitions in
 * {@code data.partition}, generated workloads in {@code data.synthetic} and the DL4J iterator in
 * {@code data.iterator}. Noise and sampling streams for training are not these: they are in
 * {@code org.dpdl4j.privacy.noise}.
 */
package org.dpdl4j.data;
