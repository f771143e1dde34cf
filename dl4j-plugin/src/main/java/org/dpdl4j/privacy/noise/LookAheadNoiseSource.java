package org.dpdl4j.privacy.noise;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A secure noise source that draws the next request's normals on a background thread while the caller
 * computes (a training step asks for the same amount of noise every time, and noise never depends on
 * the data). On a machine with a spare core this takes noise generation off the critical path.
 *
 * <p>Only for private, irreproducible noise ({@link SecureNoiseSource#fromSecureRandom()}): if a request
 * has a different size than the one prepared, the prepared normals are discarded and fresh ones drawn,
 * which changes nothing for noise nobody can reproduce but would desynchronise a stream shared with
 * another party - so shared-key streams must not be wrapped.
 */
public final class LookAheadNoiseSource implements NoiseSource, AutoCloseable {
    /** Below this many normals a request is cheaper to serve inline than to hand over between threads. */
    static final long MIN_LOOK_AHEAD = 1 << 15;

    private final SecureNoiseSource source;
    private final ExecutorService ahead = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "dpdl4j-noise-lookahead");
        t.setDaemon(true);
        return t;
    });
    private Future<INDArray> next;
    private long nextSize = -1;

    /** Wraps a fresh secure source keyed from SecureRandom. */
    public LookAheadNoiseSource() {
        this(SecureNoiseSource.fromSecureRandom());
    }

    /** Wraps {@code source}; it must be private (keyed from SecureRandom), never a shared-key stream. */
    public LookAheadNoiseSource(SecureNoiseSource source) {
        this.source = source;
    }

    @Override
    public synchronized void addGaussian(INDArray target, double std) {
        if (NoiseChecks.skip(target, std)) {
            return;
        }
        long n = target.length();
        if (n < MIN_LOOK_AHEAD) {
            cancelPending();
            source.addGaussian(target, std);
            return;
        }
        INDArray normals = null;
        if (next != null && nextSize == n) {
            try {
                normals = next.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while drawing noise", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("background noise generation failed: " + e.getCause(), e.getCause());
            }
        } else {
            cancelPending();
        }
        if (normals == null) {
            normals = source.standardNormals(n);
        }
        nextSize = n;
        next = ahead.submit(() -> source.standardNormals(n));
        INDArray scaled = normals.muli(std);
        if (target.dataType() != DataType.DOUBLE) {
            scaled = scaled.castTo(target.dataType());
        }
        target.addi(scaled.reshape('c', target.shape()));
    }

    private void cancelPending() {
        if (next != null) {
            next.cancel(false);
            next = null;
        }
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    @Override
    public String description() {
        return source.description() + ", drawn one request ahead";
    }

    @Override
    public void close() {
        ahead.shutdownNow();
    }
}
