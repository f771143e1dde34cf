package org.dpdl4j.attacks.metrics;

import java.util.Arrays;
import java.util.Objects;

/**
 * Minimum-cost perfect matching of a square cost matrix (Hungarian method with potentials, O(n^3)). Pairs the
 * dummies of a batch reconstruction with the original examples, whose order the gradient does not reveal.
 */
public final class Assignment {
    private Assignment() {
    }

    /**
     * The column assigned to each row so that the total cost is minimal.
     *
     * @param cost square matrix of finite costs
     * @return {@code column[row]}
     */
    public static int[] minimumCost(double[][] cost) {
        Objects.requireNonNull(cost, "cost matrix must not be null");
        int n = cost.length;
        for (int i = 0; i < n; i++) {
            if (cost[i].length != n) {
                throw new IllegalArgumentException("cost matrix must be square: row " + i + " has " + cost[i].length
                        + " entries, expected " + n);
            }
            for (int j = 0; j < n; j++) {
                if (!Double.isFinite(cost[i][j])) {
                    throw new IllegalArgumentException("cost[" + i + "][" + j + "] is " + cost[i][j]
                            + "; costs must be finite");
                }
            }
        }
        // 1-based arrays; column 0 is a virtual column holding the row being inserted.
        double[] rowPotential = new double[n + 1];
        double[] columnPotential = new double[n + 1];
        int[] rowOfColumn = new int[n + 1];
        int[] previousColumn = new int[n + 1];
        for (int row = 1; row <= n; row++) {
            rowOfColumn[0] = row;
            int column = 0;
            double[] slack = new double[n + 1];
            Arrays.fill(slack, Double.POSITIVE_INFINITY);
            boolean[] visited = new boolean[n + 1];
            do {
                visited[column] = true;
                int r = rowOfColumn[column];
                double delta = Double.POSITIVE_INFINITY;
                int next = -1;
                for (int j = 1; j <= n; j++) {
                    if (!visited[j]) {
                        double reduced = cost[r - 1][j - 1] - rowPotential[r] - columnPotential[j];
                        if (reduced < slack[j]) {
                            slack[j] = reduced;
                            previousColumn[j] = column;
                        }
                        if (slack[j] < delta) {
                            delta = slack[j];
                            next = j;
                        }
                    }
                }
                for (int j = 0; j <= n; j++) {
                    if (visited[j]) {
                        rowPotential[rowOfColumn[j]] += delta;
                        columnPotential[j] -= delta;
                    } else {
                        slack[j] -= delta;
                    }
                }
                column = next;
            } while (rowOfColumn[column] != 0);
            do {
                int prior = previousColumn[column];
                rowOfColumn[column] = rowOfColumn[prior];
                column = prior;
            } while (column != 0);
        }
        int[] columnOfRow = new int[n];
        for (int j = 1; j <= n; j++) {
            columnOfRow[rowOfColumn[j] - 1] = j - 1;
        }
        return columnOfRow;
    }
}
