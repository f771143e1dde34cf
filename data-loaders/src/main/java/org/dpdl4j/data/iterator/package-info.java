/**
 * {@link LabeledDataSetIterator}, a DL4J {@code DataSetIterator} over a {@code LabeledData}: mini-batches with
 * labels in a chosen encoding and, when shuffling, a new permutation per epoch drawn from the seed and the epoch
 * number, so the same seed gives the same batches. The data itself is in {@code org.dpdl4j.data}. Private training
 * does not train on these batches: {@code org.dpdl4j.optim.PrivateTrainer} reads an iterator once into memory and
 * draws its own Poisson or fixed-size samples.
 */
package org.dpdl4j.data.iterator;
