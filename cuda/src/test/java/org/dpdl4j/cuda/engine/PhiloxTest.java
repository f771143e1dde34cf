package org.dpdl4j.cuda.engine;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Philox4x32-10 against the known answers of its authors (Random123's kat_vectors), and its normals' moments. */
class PhiloxTest {

    @Test
    void knownAnswers() {
        int[] zero = {0, 0, 0, 0};
        Philox.philox4x32(zero, 0, 0);
        assertArrayEquals(new int[]{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}, zero);
        int[] ones = {-1, -1, -1, -1};
        Philox.philox4x32(ones, -1, -1);
        assertArrayEquals(new int[]{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}, ones);
        int[] pi = {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344};
        Philox.philox4x32(pi, 0xa4093822, 0x299f31d0);
        assertArrayEquals(new int[]{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}, pi);
    }

    /** The library's Philox streams draw on the host the values the kernels draw for the same rows. */
    @Test
    void theLibrarysStreamsDrawWhatTheKernelsDraw() {
        int p = 301;
        org.dpdl4j.privacy.noise.PhiloxNoiseStreams streams = new org.dpdl4j.privacy.noise.PhiloxNoiseStreams(77);
        org.nd4j.linalg.api.ndarray.INDArray host = org.nd4j.linalg.factory.Nd4j.create(
                org.nd4j.linalg.api.buffer.DataType.FLOAT, 3, p);
        streams.writePairwiseNoise(host, 5, 0.7);
        JavaBackend backend = new JavaBackend();
        DeviceArray rows = backend.allocate(3L * p);
        backend.fill(rows, 0f);
        backend.kernels().addPhiloxRows(rows, 3, p, 77, org.dpdl4j.privacy.noise.PhiloxNoiseStreams.pairwiseStream(0, 5),
                org.dpdl4j.privacy.noise.PhiloxNoiseStreams.rowStride(), 0.7);
        float[] device = new float[3 * p];
        backend.download(rows, device, 0);
        assertArrayEquals(host.reshape(3L * p).toFloatVector(), device);
    }

    @Test
    void seededNoiseIsStandardNormalAndKeyedByStream() {
        int n = 200_000;
        JavaBackend backend = new JavaBackend();
        DeviceArray a = backend.allocate(n);
        backend.fill(a, 0f);
        backend.kernels().addPhiloxGaussian(a, n, 42, 3, 2f);
        float[] v = new float[n];
        backend.download(a, v, 0);
        double mean = 0;
        double sq = 0;
        for (float x : v) {
            mean += x;
            sq += (double) x * x;
        }
        mean /= n;
        double var = sq / n - mean * mean;
        assertEquals(0, mean, 0.02, "mean");
        assertEquals(4, var, 0.05, "variance (std 2)");
        DeviceArray b = backend.allocate(n);
        backend.fill(b, 0f);
        backend.kernels().addPhiloxGaussian(b, n, 42, 4, 2f);
        float[] w = new float[n];
        backend.download(b, w, 0);
        int same = 0;
        for (int i = 0; i < n; i++) {
            same += v[i] == w[i] ? 1 : 0;
        }
        assertEquals(0, same, 2, "another stream gives other draws");
    }
}
