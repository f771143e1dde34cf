/**
 * File-level helpers shared by the readers and the catalog: {@link DataFiles} opens files and detects gzip from
 * their content, {@link FileProblem} says why a path is not a readable data file, {@link FileErrors} what a failed
 * file operation means, {@link Numbers} parses decimal numbers strictly (no NaN, infinities, hexadecimal or type
 * suffixes; range-checked for float), {@link GrowableFloats} and {@link GrowableInts} collect rows whose count is
 * not known in advance, and {@link Sha256} hashes files and streams. Nothing here knows a file format or a data
 * set: the readers are in the sibling packages {@code data.mnist}, {@code data.libsvm} and {@code data.covtype},
 * and the known files and their hashes are in {@code org.dpdl4j.data.catalog}.
 */
package org.dpdl4j.data.io;
