/**
 * Reader of the Forest CoverType CSV files: {@link CovtypeReader} reads a file in one of the {@link CovtypeLayout}s
 * (scaled with a header, binary label first, or UCI raw) into a {@code LabeledData} for a {@link CovtypeTask}
 * (seven classes, or cover type 2 against the rest), as {@link CovtypeOptions} say, optionally min-max scaling the
 * raw layout. Which covtype files exist, their checksums and which layout each has are in
 * {@code org.dpdl4j.data.catalog}; gzip handling and strict number parsing are in {@code org.dpdl4j.data.io}.
 */
package org.dpdl4j.data.covtype;
