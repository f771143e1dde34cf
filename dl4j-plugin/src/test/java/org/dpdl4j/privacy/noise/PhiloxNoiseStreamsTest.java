package org.dpdl4j.privacy.noise;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Philox streams: the block cipher against its authors' known answers (Random123's kat_vectors), standard normals,
 * every row a function of its own counter (all-rows draws equal row-by-row draws, some rows equal the same rows of all),
 * a source that continues its stream, and the kind's name.
 */
class PhiloxNoiseStreamsTest {

    @Test
    void knownAnswers() {
        int[] zero = {0, 0, 0, 0};
        PhiloxGaussian.philox4x32(zero, 0, 0);
        assertArrayEquals(new int[]{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}, zero);
        int[] ones = {-1, -1, -1, -1};
        PhiloxGaussian.philox4x32(ones, -1, -1);
        assertArrayEquals(new int[]{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}, ones);
        int[] pi = {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344};
        PhiloxGaussian.philox4x32(pi, 0xa4093822, 0x299f31d0);
        assertArrayEquals(new int[]{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}, pi);
    }

    @Test
    void valuesAreStandardNormal() {
        int n = 200_000;
        INDArray v = Nd4j.create(DataType.DOUBLE, n);
        new PhiloxNoiseSource(42, 7).writeGaussian(v, 2.0);
        assertEquals(0, v.meanNumber().doubleValue(), 0.02, "mean");
        assertEquals(4, v.varNumber().doubleValue(), 0.05, "variance (std 2)");
        double tail = v.gt(2 * 1.959964).castTo(DataType.DOUBLE).sumNumber().doubleValue() / n;
        assertEquals(0.025, tail, 0.002, "upper 2.5% tail");
    }

    @Test
    void everyRowIsAFunctionOfItsOwnCounter() {
        PhiloxNoiseStreams streams = new PhiloxNoiseStreams(11);
        int n = 6;
        int p = 37;
        INDArray all = Nd4j.create(DataType.FLOAT, n, p);
        streams.writePrivateNoise(all, 3, 0.5);
        for (int i = 0; i < n; i++) {
            INDArray row = Nd4j.create(DataType.FLOAT, 1, p);
            streams.privateNoise(i, 3).writeGaussian(row, 0.5);
            assertEquals(all.getRow(i).reshape(1, p), row, "row " + i);
        }
        INDArray some = Nd4j.create(DataType.FLOAT, 2, p);
        streams.writePrivateNoise(some, new int[]{1, 4}, 3, 0.5);
        assertEquals(all.getRow(4).reshape(1, p), some.getRow(1).reshape(1, p), "a worker's rows are the same rows");
        INDArray pairwise = Nd4j.create(DataType.FLOAT, n, p);
        streams.writePairwiseNoise(pairwise, 3, 0.5);
        assertFalse(pairwise.equalsWithEps(all, 1e-3), "pairwise streams are not private streams");
        INDArray next = Nd4j.create(DataType.FLOAT, n, p);
        streams.writePrivateNoise(next, 4, 0.5);
        assertFalse(next.equalsWithEps(all, 1e-3), "another round, other draws");
        INDArray added = Nd4j.ones(DataType.FLOAT, n, p);
        streams.addPrivateNoise(added, 3, 0.5);
        assertTrue(added.equalsWithEps(all.add(1), 1e-6), "adding is writing onto the values");
        assertTrue(streams.drawsRowByRow());
        assertFalse(streams.isSecure());
        assertSame(streams, streams.restrictedTo(new int[]{0}, new int[0]), "anyone with the seed derives every stream");
    }

    @Test
    void aSourceContinuesItsStream() {
        INDArray once = Nd4j.create(DataType.FLOAT, 10);
        new PhiloxNoiseSource(5, 9).writeGaussian(once, 1.0);
        PhiloxNoiseSource source = new PhiloxNoiseSource(5, 9);
        INDArray first = Nd4j.create(DataType.FLOAT, 4);
        INDArray rest = Nd4j.create(DataType.FLOAT, 6);
        source.writeGaussian(first, 1.0);
        source.writeGaussian(rest, 1.0);
        assertEquals(once, Nd4j.concat(0, first, rest));
    }

    @Test
    void theKindIsNamedAndItsLimitsRefused() {
        assertSame(NoiseKind.PHILOX, NoiseKind.parse("philox"));
        assertTrue(NoiseKind.PHILOX.streams(3, 1) instanceof PhiloxNoiseStreams);
        assertFalse(NoiseKind.PHILOX.isSecure());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NoiseKind.parse("aes"));
        assertTrue(e.getMessage().contains("philox"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PhiloxNoiseStreams.privateStream(1 << 30, 0));
        assertTrue(e.getMessage().contains("below 2^30"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PhiloxNoiseStreams.pairwiseStream(0, 1L << 32));
        assertTrue(e.getMessage().contains("below 2^32"), e.getMessage());
    }
}
