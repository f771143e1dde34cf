package org.dpdl4j.attacks.inversion;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.dpdl4j.models.ImageShape;
import org.junit.jupiter.api.Test;

class TotalVariationTest {

    @Test
    void averagesAbsoluteNeighbourDifferencesPerDirectionAndImage() {
        // One 2x3 image: rows (0 1 3) and (2 2 2). Horizontal |1|+|2|+0+0 over 4 pairs, vertical |2|+|1|+|-1| over 3.
        double[] x = {0, 1, 3, 2, 2, 2};
        double[] gradient = new double[6];
        double tv = TotalVariation.addTo(x, 1, new ImageShape(1, 2, 3), 1.0, gradient);
        assertEquals(3.0 / 4 + 4.0 / 3, tv, 1e-15);
        // A second, constant image adds nothing.
        double[] two = new double[12];
        System.arraycopy(x, 0, two, 0, 6);
        assertEquals(tv, TotalVariation.addTo(two, 2, new ImageShape(1, 2, 3), 1.0, new double[12]), 1e-15);
    }

    @Test
    void itsGradientIsTheDerivativeAwayFromTies() {
        Random random = new Random(3);
        ImageShape shape = new ImageShape(2, 4, 5);
        int n = 2 * shape.flatSize();
        double[] x = random.doubles(n).toArray();
        double[] gradient = new double[n];
        TotalVariation.addTo(x, 2, shape, 0.7, gradient);
        double h = 1e-7;
        for (int i = 0; i < n; i++) {
            double[] plus = x.clone();
            double[] minus = x.clone();
            plus[i] += h;
            minus[i] -= h;
            double numeric = 0.7 * (TotalVariation.addTo(plus, 2, shape, 0, new double[n])
                    - TotalVariation.addTo(minus, 2, shape, 0, new double[n])) / (2 * h);
            assertEquals(numeric, gradient[i], 1e-6, "coordinate " + i);
        }
    }
}
