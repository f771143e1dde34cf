package org.dpdl4j.data.partition;

import java.util.Arrays;
import java.util.Objects;

/** Argument checks and slicing shared by the partitioners. */
final class PartitionSupport {
    private PartitionSupport() {
    }

    /** Common argument checks of every strategy. */
    static void checkArguments(int[] labels, int numClasses, int nodes) {
        Objects.requireNonNull(labels, "labels");
        if (nodes < 1) {
            throw new IllegalArgumentException("the number of nodes must be at least 1, got " + nodes);
        }
        if (nodes > labels.length) {
            throw new IllegalArgumentException("cannot give each of " + nodes + " nodes an example: there are only "
                    + labels.length + " examples; use at most " + labels.length + " nodes or more data");
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException("numClasses must be at least 1, got " + numClasses);
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= numClasses) {
                throw new IllegalArgumentException("label " + labels[i] + " of example " + i + " is outside 0.."
                        + (numClasses - 1));
            }
        }
    }

    /** Cuts {@code order} into {@code parts} consecutive pieces whose sizes differ by at most one. */
    static int[][] cut(int[] order, int parts) {
        int[][] out = new int[parts][];
        int n = order.length;
        for (int k = 0; k < parts; k++) {
            int from = (int) ((long) k * n / parts);
            int to = (int) ((long) (k + 1) * n / parts);
            out[k] = Arrays.copyOfRange(order, from, to);
        }
        return out;
    }

    /** Example indices grouped by class, each group in increasing index order. */
    static int[][] indicesByClass(int[] labels, int numClasses) {
        int[] counts = new int[numClasses];
        for (int l : labels) {
            counts[l]++;
        }
        int[][] byClass = new int[numClasses][];
        for (int c = 0; c < numClasses; c++) {
            byClass[c] = new int[counts[c]];
        }
        int[] fill = new int[numClasses];
        for (int i = 0; i < labels.length; i++) {
            byClass[labels[i]][fill[labels[i]]++] = i;
        }
        return byClass;
    }
}
