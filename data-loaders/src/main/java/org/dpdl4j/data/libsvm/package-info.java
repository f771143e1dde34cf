/**
 * Reader of binary-classification files in LIBSVM's sparse text format: {@link LibSvmReader} parses
 * {@code label index:value ...} lines (1-based, strictly increasing indices; gzip or plain text) into a dense
 * {@code LabeledData} with two classes, as fixed by a {@link LibSvmFormat} (the feature dimension) and its
 * {@link BinaryLabelScheme} (the two label values allowed). The a9a files it is used for, and their checksums, are
 * listed in {@code org.dpdl4j.data.catalog}; gzip handling and strict number parsing come from
 * {@code org.dpdl4j.data.io}.
 */
package org.dpdl4j.data.libsvm;
