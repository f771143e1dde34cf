/**
 * The data sets dpdl4j knows and how their files are found and trusted. {@link DatasetCatalog} lists each
 * {@link CatalogEntry}: a {@link Dataset} of {@link KnownFile}s (SHA-256 of bytes and content, row count, source)
 * or a {@link UserProvidedDataset} with no known hash. {@link DataDirectory} resolves where they are stored,
 * {@link DatasetFetcher} downloads and verifies files, {@link DatasetVerifier} reports the state of every file,
 * {@link CanonicalDataCheck} confirms before training that the files are the canonical ones (remembering verdicts),
 * and {@link Datasets} loads a catalog data set by name with the right reader and options.
 *
 * <p>Parsing each format is not done here but in {@code org.dpdl4j.data.mnist}, {@code data.libsvm} and
 * {@code data.covtype}; hashing and gzip handling come from {@code org.dpdl4j.data.io}, and the {@code datasets}
 * command is in {@code org.dpdl4j.cli}.
 */
package org.dpdl4j.data.catalog;
