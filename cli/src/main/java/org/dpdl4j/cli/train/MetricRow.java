package org.dpdl4j.cli.train;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of a run's metrics.csv: the step (epoch or round), train and test loss, test accuracy, the
 * optimality gap (synthetic task only) and epsilon so far (private runs only).
 */
record MetricRow(long step, double trainLoss, double testLoss, double testAccuracy, double optimalityGap, double epsilon) {

    static List<String> header(String stepName, Workload w, boolean dp) {
        List<String> h = new ArrayList<>(List.of(stepName, "train_loss", "test_loss", "test_accuracy"));
        if (w.synthetic() != null) {
            h.add("optimality_gap");
        }
        if (dp) {
            h.add("epsilon");
        }
        return h;
    }

    List<Object> values(Workload w, boolean dp) {
        List<Object> v = new ArrayList<>(List.of(step, trainLoss, testLoss, testAccuracy));
        if (w.synthetic() != null) {
            v.add(optimalityGap);
        }
        if (dp) {
            v.add(epsilon);
        }
        return v;
    }
}
