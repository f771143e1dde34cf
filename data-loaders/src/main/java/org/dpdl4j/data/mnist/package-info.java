/**
 * Reader of the MNIST IDX files: {@link MnistReader} reads an images file and a labels file (gzip or raw) into a
 * {@code LabeledData} of 784 features and 10 classes, checking every structural promise of the format through
 * {@link IdxHeader}, and {@link PixelScaling} says how byte pixels become features (raw, [0, 1] or standardized).
 * Where the files are and whether they are the canonical ones is the concern of {@code org.dpdl4j.data.catalog};
 * the image shape models and attacks use is {@code org.dpdl4j.models.ImageShape}.
 */
package org.dpdl4j.data.mnist;
