package org.dpdl4j.runtime;

/**
 * A round's padded batch as rows of the parties' concatenated data ({@link NodeBatches}), before any value is copied:
 * what a device that keeps the data needs to build the batch itself.
 *
 * @param rows  {@code rows[i width + j]}: the row of party i's j-th example; padding points at the all-zero last row
 * @param width examples per party after padding
 * @param mask  1 for a real example and 0 for padding, [n width], or null when every party fills the width
 * @param sizes each party's number of real examples
 */
public record BatchRows(int[] rows, int width, float[] mask, int[] sizes) {
}
