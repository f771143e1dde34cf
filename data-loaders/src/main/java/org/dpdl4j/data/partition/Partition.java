package org.dpdl4j.data.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.dpdl4j.data.LabeledData;

/**
 * An assignment of the examples of a data set to n nodes: every example index belongs to exactly
 * one node and every node has at least one example (checked at construction).
 */
public final class Partition {
    private final String description;
    private final int[][] nodeIndices;
    private final int[] labels;
    private final int numClasses;

    /**
     * @param description how the partition was made, for the report ("iid, seed 1")
     * @param nodeIndices the example indices of each node; together exactly 0..N-1, each once
     * @param labels      the class label of each of the N examples
     * @param numClasses  the number of classes
     */
    public Partition(String description, int[][] nodeIndices, int[] labels, int numClasses) {
        this.description = Objects.requireNonNull(description, "description");
        Objects.requireNonNull(nodeIndices, "nodeIndices");
        Objects.requireNonNull(labels, "labels");
        if (nodeIndices.length == 0) {
            throw new IllegalArgumentException("a partition needs at least one node");
        }
        int n = labels.length;
        int[] owner = new int[n];
        Arrays.fill(owner, -1);
        this.nodeIndices = new int[nodeIndices.length][];
        for (int node = 0; node < nodeIndices.length; node++) {
            int[] idx = nodeIndices[node].clone();
            if (idx.length == 0) {
                throw new IllegalArgumentException("node " + node + " of " + nodeIndices.length + " has no examples");
            }
            for (int i : idx) {
                if (i < 0 || i >= n) {
                    throw new IllegalArgumentException("node " + node + " holds example index " + i + ", outside 0.." + (n - 1));
                }
                if (owner[i] >= 0) {
                    throw new IllegalArgumentException("example " + i + " is assigned to both node " + owner[i]
                            + " and node " + node);
                }
                owner[i] = node;
            }
            this.nodeIndices[node] = idx;
        }
        for (int i = 0; i < n; i++) {
            if (owner[i] < 0) {
                throw new IllegalArgumentException("example " + i + " is assigned to no node");
            }
        }
        for (int l : labels) {
            if (l < 0 || l >= numClasses) {
                throw new IllegalArgumentException("label " + l + " is outside 0.." + (numClasses - 1));
            }
        }
        this.labels = labels.clone();
        this.numClasses = numClasses;
    }

    /** How the partition was made. */
    public String description() {
        return description;
    }

    /** The number of nodes n. */
    public int nodes() {
        return nodeIndices.length;
    }

    /** The total number of examples N. */
    public int totalSize() {
        return labels.length;
    }

    /** A copy of the example indices of one node. */
    public int[] indices(int node) {
        return nodeIndices[checkNode(node)].clone();
    }

    /** The number of examples of one node. */
    public int size(int node) {
        return nodeIndices[checkNode(node)].length;
    }

    /** The number of examples of every node. */
    public int[] sizes() {
        int[] s = new int[nodes()];
        for (int k = 0; k < s.length; k++) {
            s[k] = nodeIndices[k].length;
        }
        return s;
    }

    /** The number of examples of each class at one node. */
    public int[] labelHistogram(int node) {
        int[] h = new int[numClasses];
        for (int i : nodeIndices[checkNode(node)]) {
            h[labels[i]]++;
        }
        return h;
    }

    /** The label histogram of every node: {@code [node][class]}. */
    public int[][] labelHistograms() {
        int[][] h = new int[nodes()][];
        for (int k = 0; k < h.length; k++) {
            h[k] = labelHistogram(k);
        }
        return h;
    }

    /** The examples of one node as a data set (rows copied), named {@code <data name>/node<k>}. */
    public LabeledData nodeData(LabeledData data, int node) {
        requireSameData(data);
        LabeledData subset = data.subset(nodeIndices[checkNode(node)]);
        return new LabeledData(data.name() + "/node" + node, subset.features(), subset.labels(), subset.numClasses());
    }

    /** The data of every node, in node order. */
    public List<LabeledData> apply(LabeledData data) {
        List<LabeledData> out = new ArrayList<>(nodes());
        for (int k = 0; k < nodes(); k++) {
            out.add(nodeData(data, k));
        }
        return out;
    }

    /** A text table with each node's size and label histogram, and a total row. */
    public String report() {
        int[][] h = labelHistograms();
        int width = Math.max(5, Integer.toString(totalSize()).length());
        StringBuilder s = new StringBuilder();
        s.append(description).append(": ").append(totalSize()).append(" examples over ").append(nodes())
                .append(" nodes\n");
        s.append(String.format("%5s %" + width + "s |", "node", "size"));
        for (int c = 0; c < numClasses; c++) {
            s.append(String.format(" %" + width + "s", "c" + c));
        }
        s.append('\n');
        int[] total = new int[numClasses];
        for (int k = 0; k < nodes(); k++) {
            s.append(String.format("%5d %" + width + "d |", k, size(k)));
            for (int c = 0; c < numClasses; c++) {
                s.append(String.format(" %" + width + "d", h[k][c]));
                total[c] += h[k][c];
            }
            s.append('\n');
        }
        s.append(String.format("%5s %" + width + "d |", "total", totalSize()));
        for (int c = 0; c < numClasses; c++) {
            s.append(String.format(" %" + width + "d", total[c]));
        }
        return s.append('\n').toString();
    }

    @Override
    public String toString() {
        return "Partition[" + description + ", " + totalSize() + " examples, sizes " + Arrays.toString(sizes()) + "]";
    }

    private int checkNode(int node) {
        if (node < 0 || node >= nodes()) {
            throw new IndexOutOfBoundsException("node " + node + " is outside 0.." + (nodes() - 1));
        }
        return node;
    }

    private void requireSameData(LabeledData data) {
        if (data.size() != totalSize()) {
            throw new IllegalArgumentException("this partition covers " + totalSize() + " examples but "
                    + data.name() + " has " + data.size() + "; partition that data set instead");
        }
        for (int i = 0; i < labels.length; i++) {
            if (data.label(i) != labels[i]) {
                throw new IllegalArgumentException(data.name() + " is not the data set this partition was made for "
                        + "(example " + i + " has label " + data.label(i) + ", expected " + labels[i] + ")");
            }
        }
    }
}
