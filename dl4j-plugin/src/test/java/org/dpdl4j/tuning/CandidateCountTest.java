package org.dpdl4j.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpdl4j.privacy.accounting.GaussianEvent;
import org.dpdl4j.privacy.accounting.RepeatAndSelectEvent;
import org.junit.jupiter.api.Test;

class CandidateCountTest {

    @Test
    void theProbabilitiesAreDefinition1s() {
        CandidateCount log = CandidateCount.truncatedNegativeBinomial(0, 3.908650);
        assertTrue(log.toString().contains("gamma 0.100000"), "gamma found from the mean: " + log);
        assertEquals(0.390865, log.probability(1), 1e-6, "(1-gamma)^k / (k ln(1/gamma))");
        assertEquals(0.175889, log.probability(2), 1e-6);
        assertEquals(0.105534, log.probability(3), 1e-6);
        CandidateCount half = CandidateCount.truncatedNegativeBinomial(0.5, 6.581139);
        assertEquals(0.208114, half.probability(1), 1e-6);
        assertEquals(0.140477, half.probability(2), 1e-6);
        assertEquals(0.105358, half.probability(3), 1e-6);
        CandidateCount geometric = CandidateCount.geometric(10);
        for (int k = 1; k < 6; k++) {
            assertEquals(0.1 * Math.pow(0.9, k - 1), geometric.probability(k), 1e-15, "geometric");
        }
        assertEquals(0, geometric.probability(0), 0);
        CandidateCount poisson = CandidateCount.poisson(4);
        assertEquals(Math.exp(-4) * Math.pow(4, 3) / 6, poisson.probability(3), 1e-15);
    }

    @Test
    void probabilitiesSumToOneWithTheStatedMeanAndSamplesAgree() {
        for (CandidateCount c : new CandidateCount[]{CandidateCount.logarithmic(8), CandidateCount.geometric(8),
                CandidateCount.truncatedNegativeBinomial(-0.5, 8), CandidateCount.truncatedNegativeBinomial(2, 8), CandidateCount.poisson(8)}) {
            double total = 0;
            double mean = 0;
            for (int k = 0; k < 5000; k++) {
                double p = c.probability(k);
                total += p;
                mean += k * p;
            }
            assertEquals(1, total, 1e-6, c.toString());
            assertEquals(c.mean(), mean, 1e-3 * c.mean(), c.toString());
            assertTrue(c.mean() >= 8 - 1e-9, "at least the requested mean: " + c);
            SplittableRandom random = new SplittableRandom(1);
            int n = 40_000;
            double sum = 0;
            double squares = 0;
            for (int i = 0; i < n; i++) {
                long k = c.sample(random);
                assertTrue(k >= (c.isPoisson() ? 0 : 1));
                sum += k;
                squares += (double) k * k;
            }
            double sampleMean = sum / n;
            double sd = Math.sqrt((squares / n - sampleMean * sampleMean) / n);
            assertEquals(c.mean(), sampleMean, 5 * sd, c.toString());
        }
    }

    @Test
    void theLedgerEventCarriesTheDistribution() {
        RepeatAndSelectEvent e = CandidateCount.geometric(8).event(new GaussianEvent(1));
        assertEquals(new RepeatAndSelectEvent(new GaussianEvent(1), 8, 1), e);
        assertTrue(CandidateCount.poisson(3).event(new GaussianEvent(1)).isPoisson());
        assertThrows(IllegalArgumentException.class, () -> CandidateCount.geometric(1));
        assertThrows(IllegalArgumentException.class, () -> CandidateCount.poisson(0.5));
        assertThrows(IllegalArgumentException.class, () -> CandidateCount.poisson(800));
        assertThrows(IllegalArgumentException.class, () -> CandidateCount.truncatedNegativeBinomial(-1, 5));
    }
}
