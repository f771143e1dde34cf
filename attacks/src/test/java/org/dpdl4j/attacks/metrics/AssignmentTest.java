package org.dpdl4j.attacks.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Hungarian method against exhaustive search. */
class AssignmentTest {

    @Test
    void matchesBruteForceOnRandomMatrices() {
        Random random = new Random(8);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(6);
            double[][] cost = new double[n][n];
            for (double[] row : cost) {
                for (int j = 0; j < n; j++) {
                    row[j] = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextDouble() * 10 - 3;
                }
            }
            int[] assignment = Assignment.minimumCost(cost);
            boolean[] used = new boolean[n];
            for (int column : assignment) {
                used[column] = true;
            }
            for (boolean u : used) {
                assertEquals(true, u, "a permutation");
            }
            assertEquals(bruteForce(cost, 0, new boolean[n]), total(cost, assignment), 1e-9);
        }
    }

    @Test
    void obviousPairing() {
        double[][] cost = {{5, 0.1, 7}, {0.2, 9, 9}, {4, 4, 0.3}};
        assertArrayEquals(new int[] {1, 0, 2}, Assignment.minimumCost(cost));
        assertThrows(IllegalArgumentException.class, () -> Assignment.minimumCost(new double[][] {{1, 2}}));
        assertThrows(IllegalArgumentException.class, () -> Assignment.minimumCost(new double[][] {{Double.NaN}}));
    }

    private static double total(double[][] cost, int[] assignment) {
        double s = 0;
        for (int i = 0; i < assignment.length; i++) {
            s += cost[i][assignment[i]];
        }
        return s;
    }

    private static double bruteForce(double[][] cost, int row, boolean[] used) {
        if (row == cost.length) {
            return 0;
        }
        double best = Double.POSITIVE_INFINITY;
        for (int j = 0; j < cost.length; j++) {
            if (!used[j]) {
                used[j] = true;
                best = Math.min(best, cost[row][j] + bruteForce(cost, row + 1, used));
                used[j] = false;
            }
        }
        return best;
    }
}
