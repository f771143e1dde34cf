package org.dpdl4j.privacy.noise;

import java.util.concurrent.atomic.AtomicBoolean;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reproducible Gaussian noise from one Philox stream ({@link PhiloxGaussian}): the k-th value this source gives is value
 * k of its stream, so a draw of a row of p values is what a GPU computes for that row in parallel. <b>Not secure</b>:
 * anyone who knows the seed can subtract the noise. It warns the first time it is used in a JVM, as seeded noise does.
 */
public final class PhiloxNoiseSource implements NoiseSource {
    private static final Logger LOG = LoggerFactory.getLogger(PhiloxNoiseSource.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final long key;
    private final long stream;
    private long position;

    /** The values of {@code stream} under {@code key}, from the first. */
    public PhiloxNoiseSource(long key, long stream) {
        this.key = key;
        this.stream = stream;
        if (WARNED.compareAndSet(false, true)) {
            UnmissableWarning.warn(LOG, "Using Philox noise: reproducible from the seed but NOT secure; anyone who knows"
                    + " the seed can remove it. Use secure noise (--noise secure, NoiseKind.SECURE) for any real privacy"
                    + " guarantee.");
        }
    }

    @Override
    public void addGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            return;
        }
        target.addi(draw(target, std));
    }

    @Override
    public void writeGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            target.assign(0);
            return;
        }
        target.assign(draw(target, std));
    }

    /**
     * The next {@code target.length()} values times {@code std}, in the target's shape (C order) and type; each float
     * value rounded from {@code std z} in double, as the GPU's kernel rounds it.
     */
    private INDArray draw(INDArray target, double std) {
        int n = Math.toIntExact(target.length());
        INDArray values;
        if (target.dataType() == DataType.DOUBLE) {
            double[] v = new double[n];
            for (int k = 0; k < n; k++) {
                v[k] = std * PhiloxGaussian.normal(key, stream, position + k);
            }
            values = Nd4j.createFromArray(v);
        } else {
            float[] v = new float[n];
            for (int k = 0; k < n; k++) {
                v[k] = (float) (std * PhiloxGaussian.normal(key, stream, position + k));
            }
            values = Nd4j.createFromArray(v).castTo(target.dataType());
        }
        position += n;
        return values.reshape('c', target.shape());
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public String description() {
        return "Philox4x32-10 stream " + Long.toHexString(stream) + " (NOT secure, reproducible)";
    }
}
