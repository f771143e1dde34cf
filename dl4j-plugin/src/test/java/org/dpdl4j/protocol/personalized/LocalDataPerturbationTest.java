package org.dpdl4j.protocol.personalized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpdl4j.privacy.noise.SeededNoiseStreams;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class LocalDataPerturbationTest {

    private static AgentData constant(int m, int p, double value) {
        INDArray y = Nd4j.ones(m);
        return new AgentData(Nd4j.valueArrayOf(new long[]{m, p}, value), y);
    }

    @Test
    void labelsFlipAtTheRandomizedResponseRateAndFeaturesGetLaplaceNoiseOfTheStatedVariance() {
        double epsilon = 2.0;
        int m = 40_000;
        AgentData data = constant(m, 2, 0.25);
        AgentData released = LocalDataPerturbation.perturb(data, epsilon, new SeededNoiseStreams(5).privateNoise(0, -2));

        double flip = LocalDataPerturbation.flipProbability(epsilon);
        assertEquals(1 / (1 + Math.exp(1.0)), flip, 1e-15);
        double flipped = released.labels().lt(0).castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE).sumNumber().doubleValue() / m;
        double sd = Math.sqrt(flip * (1 - flip) / m);
        assertEquals(flip, flipped, 5 * sd, "flip rate");

        double scale = LocalDataPerturbation.featureScale(epsilon);
        assertEquals(4 / epsilon, scale, 1e-15);
        INDArray noise = released.features().sub(0.25);
        double mean = noise.meanNumber().doubleValue();
        double variance = noise.mul(noise).meanNumber().doubleValue() - mean * mean;
        assertEquals(0, mean, 5 * Math.sqrt(2 * scale * scale / (2.0 * m)), "Laplace mean");
        assertEquals(2 * scale * scale, variance, 0.05 * 2 * scale * scale, "Laplace variance 2 s^2");
    }

    @Test
    void theSameSeedGivesTheSameReleaseAndRowsAboveTheL1BoundAreRefused() {
        AgentData data = constant(10, 3, 0.3);
        AgentData a = LocalDataPerturbation.perturb(data, 1, new SeededNoiseStreams(9).privateNoise(1, -2));
        AgentData b = LocalDataPerturbation.perturb(data, 1, new SeededNoiseStreams(9).privateNoise(1, -2));
        assertEquals(a.features(), b.features());
        assertEquals(a.labels(), b.labels());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LocalDataPerturbation.perturb(constant(3, 4, 0.3), 1, new SeededNoiseStreams(1).privateNoise(0, 0)));
        assertTrue(e.getMessage().contains("L1 norm <= 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LocalDataPerturbation.flipProbability(0));
    }
}
